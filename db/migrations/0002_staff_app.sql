CREATE TYPE "public"."reminder_kind" AS ENUM('rule', 'nudge');--> statement-breakpoint
CREATE TYPE "public"."staff_role" AS ENUM('admin', 'staff', 'viewer');--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'nudge';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'event_create';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'event_update';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'event_reschedule';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'event_cancel';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'booking_add';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'booking_cancel';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'suppression_add';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'suppression_remove';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'rule_update';--> statement-breakpoint
CREATE TABLE "staff_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" text NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"user_id" text NOT NULL,
	CONSTRAINT "staff_sessions_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "staff_users" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"tenant_id" uuid NOT NULL,
	"role" "staff_role" DEFAULT 'viewer' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "staff_verifications" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reminders" ALTER COLUMN "rule_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "reminders" ADD COLUMN "kind" "reminder_kind" DEFAULT 'rule' NOT NULL;--> statement-breakpoint
ALTER TABLE "reminders" ADD COLUMN "template" text;--> statement-breakpoint
ALTER TABLE "reminders" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "reminders" ADD COLUMN "requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reminders" ADD COLUMN "requested_by" text;--> statement-breakpoint
ALTER TABLE "staff_accounts" ADD CONSTRAINT "staff_accounts_user_id_staff_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD CONSTRAINT "staff_sessions_user_id_staff_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_sessions_user_idx" ON "staff_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reminders_idempotency_uq" ON "reminders" USING btree ("tenant_id","idempotency_key");