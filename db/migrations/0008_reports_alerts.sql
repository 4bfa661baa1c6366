CREATE TYPE "public"."alert_condition" AS ENUM('dead_letters', 'unknown_outcomes', 'dispatch_lag', 'oldest_due', 'provider_auth', 'worker_heartbeat');--> statement-breakpoint
CREATE TYPE "public"."alert_route" AS ENUM('email', 'slack');--> statement-breakpoint
CREATE TYPE "public"."report_kind" AS ENUM('queued', 'sent', 'delivered', 'deferred', 'soft_bounce', 'hard_bounce', 'complaint', 'undelivered', 'failed');--> statement-breakpoint
CREATE TYPE "public"."report_source" AS ENUM('http_api', 'sms_api', 'smtp_dsn');--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'unsubscribe';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'alert_settings_update';--> statement-breakpoint
ALTER TYPE "public"."delivery_status" ADD VALUE 'soft_bounced' BEFORE 'bounced';--> statement-breakpoint
ALTER TYPE "public"."suppression_reason" ADD VALUE 'hard_bounce';--> statement-breakpoint
ALTER TYPE "public"."suppression_reason" ADD VALUE 'soft_bounces';--> statement-breakpoint
CREATE TABLE "alert_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"condition" "alert_condition" NOT NULL,
	"episode" integer NOT NULL,
	"transition" text NOT NULL,
	"route" "alert_route" NOT NULL,
	"address" text NOT NULL,
	"message_key" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"link" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"lease_expires_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "alert_messages_message_key_unique" UNIQUE("message_key")
);
--> statement-breakpoint
CREATE TABLE "alert_settings" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"email_recipients" text[] DEFAULT '{}'::text[] NOT NULL,
	"slack_webhook_url" text,
	"lag_p95_ms" integer DEFAULT 60000 NOT NULL,
	"oldest_due_seconds" integer DEFAULT 600 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_states" (
	"tenant_id" uuid NOT NULL,
	"condition" "alert_condition" NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"episode" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone,
	"cleared_at" timestamp with time zone,
	"item_count" integer DEFAULT 0 NOT NULL,
	"first_item_at" timestamp with time zone,
	"last_item_at" timestamp with time zone,
	"detail" text,
	"start_notified" boolean DEFAULT false NOT NULL,
	"last_start_alert_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "delivery_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source" "report_source" NOT NULL,
	"provider_event_id" text NOT NULL,
	"provider_message_id" text,
	"tenant_id" uuid,
	"delivery_id" uuid,
	"kind" "report_kind" NOT NULL,
	"part_index" integer,
	"part_count" integer,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"address" text,
	"error_code" text,
	"detail" text,
	"effect" text,
	"payload" jsonb
);
--> statement-breakpoint
CREATE TABLE "worker_heartbeats" (
	"worker_id" text PRIMARY KEY NOT NULL,
	"hostname" text NOT NULL,
	"pid" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_sweep_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "suppressions_tenant_address_uq";--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "reported_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "suppressions" ADD COLUMN "channel" "channel" DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE "suppressions" ADD COLUMN "report_id" uuid;--> statement-breakpoint
ALTER TABLE "suppressions" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "suppressions" ADD COLUMN "removed_by" text;--> statement-breakpoint
ALTER TABLE "suppressions" ADD COLUMN "removed_reason" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "bounce_domain" text;--> statement-breakpoint
-- Entries made before suppressions had a channel: a number (E.164) stops SMS, anything else email. The value is
-- read from pg_enum (evaluated only for matching rows): on a fresh database every migration runs in one
-- transaction, where 'sms' (added by 0007) may not be written as a literal yet (55P04) — and there are no rows.
UPDATE "suppressions" SET "channel" = (SELECT "enumlabel"::text FROM pg_enum WHERE "enumtypid" = '"channel"'::regtype AND "enumlabel" = 'sms')::"channel" WHERE "address" LIKE '+%';--> statement-breakpoint
ALTER TABLE "alert_messages" ADD CONSTRAINT "alert_messages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_states" ADD CONSTRAINT "alert_states_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_reports" ADD CONSTRAINT "delivery_reports_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_reports" ADD CONSTRAINT "delivery_reports_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_messages_tenant_created_idx" ON "alert_messages" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_states_pk" ON "alert_states" USING btree ("tenant_id","condition");--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_reports_event_uq" ON "delivery_reports" USING btree ("source","provider_event_id");--> statement-breakpoint
CREATE INDEX "delivery_reports_delivery_idx" ON "delivery_reports" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "delivery_reports_unmatched_idx" ON "delivery_reports" USING btree ("source","provider_message_id") WHERE delivery_id is null;--> statement-breakpoint
CREATE INDEX "delivery_reports_address_idx" ON "delivery_reports" USING btree ("tenant_id",lower("address"),"occurred_at");--> statement-breakpoint
CREATE INDEX "deliveries_provider_message_idx" ON "deliveries" USING btree ("provider","provider_message_id") WHERE provider_message_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "suppressions_tenant_channel_address_live_uq" ON "suppressions" USING btree ("tenant_id","channel",lower("address")) WHERE removed_at is null;--> statement-breakpoint
CREATE INDEX "suppressions_tenant_created_idx" ON "suppressions" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE TRIGGER "alert_settings_row_version" BEFORE UPDATE ON "alert_settings" FOR EACH ROW EXECUTE FUNCTION "punctual_bump_row_version"();
