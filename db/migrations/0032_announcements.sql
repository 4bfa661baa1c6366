CREATE TYPE "public"."announcement_status" AS ENUM('scheduled', 'sending', 'sent', 'cancelled');--> statement-breakpoint
ALTER TYPE "public"."reminder_kind" ADD VALUE 'announcement';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'announcement_create';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'announcement_cancel';--> statement-breakpoint
CREATE TABLE "announcements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"audience" jsonb NOT NULL,
	"texts" jsonb NOT NULL,
	"send_at" timestamp with time zone NOT NULL,
	"status" "announcement_status" DEFAULT 'scheduled' NOT NULL,
	"status_reason" text,
	"idempotency_key" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"planned_count" integer,
	"cancelled_by" text,
	"cancelled_at" timestamp with time zone,
	"row_version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reminders" ADD COLUMN "announcement_id" uuid;--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "announcements_idempotency_uq" ON "announcements" USING btree ("tenant_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "announcements_event_idx" ON "announcements" USING btree ("event_id","created_at");--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_announcement_id_announcements_id_fk" FOREIGN KEY ("announcement_id") REFERENCES "public"."announcements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reminders_announcement_idx" ON "reminders" USING btree ("announcement_id") WHERE announcement_id is not null;