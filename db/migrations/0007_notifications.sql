CREATE TYPE "public"."domain_event_type" AS ENUM('booking_confirmed', 'booking_cancelled', 'event_rescheduled', 'event_cancelled', 'participant_added_as_host');--> statement-breakpoint
CREATE TYPE "public"."provider" AS ENUM('smtp', 'http_api', 'sms_api', 'webhook');--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'policy_update';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'preferences_update';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'webhook_update';--> statement-breakpoint
ALTER TYPE "public"."channel" ADD VALUE 'sms';--> statement-breakpoint
ALTER TYPE "public"."channel" ADD VALUE 'webhook';--> statement-breakpoint
ALTER TYPE "public"."reminder_kind" ADD VALUE 'notification';--> statement-breakpoint
ALTER TYPE "public"."suppression_reason" ADD VALUE 'invalid_number';--> statement-breakpoint
CREATE TABLE "domain_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"type" "domain_event_type" NOT NULL,
	"entity_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"booking_id" uuid,
	"revision" integer NOT NULL,
	"payload" jsonb NOT NULL,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"notification_count" integer
);
--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"policy" jsonb NOT NULL,
	"sms_sender" text,
	"webhook_url" text,
	"webhook_secret" text,
	"webhook_enabled" boolean DEFAULT false NOT NULL,
	"webhook_disabled_reason" text,
	"webhook_disabled_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deliveries" ALTER COLUMN "provider" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "deliveries" ALTER COLUMN "provider" SET DATA TYPE "public"."provider" USING "provider"::text::"public"."provider";--> statement-breakpoint
ALTER TABLE "deliveries" ALTER COLUMN "provider" SET DEFAULT 'smtp';--> statement-breakpoint
ALTER TABLE "caught_messages" ADD COLUMN "channel" "channel" DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "preferences" jsonb DEFAULT '{"reminders":["email"],"booking_updates":["email"]}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "quiet_hours" jsonb;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "updated_by" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "reminders" ADD COLUMN "domain_event_id" uuid;--> statement-breakpoint
ALTER TABLE "reminders" ADD COLUMN "notification_type" "domain_event_type";--> statement-breakpoint
ALTER TABLE "reminders" ADD COLUMN "message_key" text;--> statement-breakpoint
ALTER TABLE "reminders" ADD COLUMN "deferred_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "domain_events" ADD CONSTRAINT "domain_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_events" ADD CONSTRAINT "domain_events_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_events" ADD CONSTRAINT "domain_events_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "domain_events_identity_uq" ON "domain_events" USING btree ("tenant_id","type","entity_id","revision");--> statement-breakpoint
CREATE INDEX "domain_events_unprocessed_idx" ON "domain_events" USING btree ("created_at") WHERE processed_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "reminders_message_key_uq" ON "reminders" USING btree ("message_key");--> statement-breakpoint
CREATE TRIGGER "contacts_row_version" BEFORE UPDATE ON "contacts" FOR EACH ROW EXECUTE FUNCTION "punctual_bump_row_version"();--> statement-breakpoint
CREATE TRIGGER "notification_settings_row_version" BEFORE UPDATE ON "notification_settings" FOR EACH ROW EXECUTE FUNCTION "punctual_bump_row_version"();
