CREATE TYPE "public"."audit_action" AS ENUM('replay', 'discard', 'mark_sent', 'send_again', 'reconcile');--> statement-breakpoint
CREATE TYPE "public"."email_provider" AS ENUM('smtp', 'http_api');--> statement-breakpoint
CREATE TYPE "public"."repair_owner" AS ENUM('provider', 'configuration', 'recipient', 'template');--> statement-breakpoint
ALTER TYPE "public"."delivery_status" ADD VALUE 'discarded';--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"actor" text NOT NULL,
	"action" "audit_action" NOT NULL,
	"delivery_id" uuid,
	"reason" text,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"tat" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "provider" "email_provider" DEFAULT 'smtp' NOT NULL;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "failure_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "repair_owner" "repair_owner";--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "email_provider" "email_provider" DEFAULT 'smtp' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_tenant_created_idx" ON "audit_log" USING btree ("tenant_id","created_at");