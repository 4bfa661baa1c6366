CREATE TYPE "public"."reminder_anchor" AS ENUM('start', 'room_open', 'end');--> statement-breakpoint
CREATE TYPE "public"."booking_role" AS ENUM('attendee', 'external', 'host');--> statement-breakpoint
CREATE TYPE "public"."booking_status" AS ENUM('confirmed', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."channel" AS ENUM('email');--> statement-breakpoint
CREATE TYPE "public"."delivery_status" AS ENUM('claimed', 'sending', 'accepted', 'delivered', 'bounced', 'complained', 'suppressed', 'cancelled', 'superseded', 'retrying', 'unknown', 'failed', 'expired', 'dead');--> statement-breakpoint
CREATE TYPE "public"."event_status" AS ENUM('scheduled', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."outcome_class" AS ENUM('accepted', 'transient', 'rate_limited', 'ambiguous', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."reminder_status" AS ENUM('scheduled', 'dispatched', 'done', 'superseded', 'cancelled', 'expired', 'failed');--> statement-breakpoint
CREATE TYPE "public"."suppression_reason" AS ENUM('bounced', 'complained', 'unsubscribed', 'manual');--> statement-breakpoint
CREATE TABLE "bookings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"role" "booking_role" NOT NULL,
	"status" "booking_status" DEFAULT 'confirmed' NOT NULL,
	"status_reason" text,
	"guest_tenant_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "caught_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"envelope_from" text,
	"envelope_to" text[] NOT NULL,
	"message_id" text,
	"subject" text,
	"headers" jsonb NOT NULL,
	"html" text,
	"text" text,
	"raw" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"email" text NOT NULL,
	"locale" text DEFAULT 'en' NOT NULL,
	"time_zone" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"reminder_id" uuid,
	"message_key" text NOT NULL,
	"channel" "channel" NOT NULL,
	"address" text NOT NULL,
	"template" text NOT NULL,
	"subject" text,
	"status" "delivery_status" DEFAULT 'claimed' NOT NULL,
	"status_reason" text,
	"provider_message_id" text,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"lease_expires_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"accepted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deliveries_message_key_unique" UNIQUE("message_key")
);
--> statement-breakpoint
CREATE TABLE "delivery_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"delivery_id" uuid NOT NULL,
	"attempt_no" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"outcome" "outcome_class",
	"error_code" text,
	"error_message" text,
	"provider_response" text
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"location" text,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"all_day" boolean DEFAULT false NOT NULL,
	"time_zone" text NOT NULL,
	"room_url" text,
	"room_open_lead_minutes" integer,
	"status" "event_status" DEFAULT 'scheduled' NOT NULL,
	"status_reason" text,
	"schedule_version" integer DEFAULT 1 NOT NULL,
	"external_uid" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reminder_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"anchor" "reminder_anchor" NOT NULL,
	"offset" text NOT NULL,
	"audience" "booking_role"[] NOT NULL,
	"channel" "channel" DEFAULT 'email' NOT NULL,
	"template" text NOT NULL,
	"late_send_window_seconds" integer DEFAULT 3600 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reminders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"booking_id" uuid NOT NULL,
	"rule_id" uuid NOT NULL,
	"schedule_version" integer NOT NULL,
	"channel" "channel" NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"status" "reminder_status" DEFAULT 'scheduled' NOT NULL,
	"status_reason" text,
	"dispatched_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "suppressions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"address" text NOT NULL,
	"reason" "suppression_reason" NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"time_zone" text NOT NULL,
	"room_open_lead_minutes" integer DEFAULT 30 NOT NULL,
	"sender_email" text DEFAULT 'reminders@punctual.local' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenants_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_guest_tenant_id_tenants_id_fk" FOREIGN KEY ("guest_tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_reminder_id_reminders_id_fk" FOREIGN KEY ("reminder_id") REFERENCES "public"."reminders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_rules" ADD CONSTRAINT "reminder_rules_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_rule_id_reminder_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."reminder_rules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_event_contact_uq" ON "bookings" USING btree ("event_id","contact_id");--> statement-breakpoint
CREATE INDEX "caught_messages_received_idx" ON "caught_messages" USING btree ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_tenant_email_uq" ON "contacts" USING btree ("tenant_id",lower("email"));--> statement-breakpoint
CREATE INDEX "deliveries_reminder_idx" ON "deliveries" USING btree ("reminder_id");--> statement-breakpoint
CREATE INDEX "deliveries_lease_idx" ON "deliveries" USING btree ("lease_expires_at") WHERE status in ('claimed', 'sending');--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_attempts_no_uq" ON "delivery_attempts" USING btree ("delivery_id","attempt_no");--> statement-breakpoint
CREATE UNIQUE INDEX "events_tenant_external_uid_uq" ON "events" USING btree ("tenant_id","external_uid");--> statement-breakpoint
CREATE INDEX "events_tenant_starts_idx" ON "events" USING btree ("tenant_id","starts_at");--> statement-breakpoint
CREATE UNIQUE INDEX "reminders_business_key_uq" ON "reminders" USING btree ("tenant_id","rule_id","booking_id","schedule_version","channel");--> statement-breakpoint
CREATE INDEX "reminders_due_idx" ON "reminders" USING btree ("due_at") WHERE status = 'scheduled';--> statement-breakpoint
CREATE INDEX "reminders_booking_idx" ON "reminders" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "reminders_event_idx" ON "reminders" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "suppressions_tenant_address_uq" ON "suppressions" USING btree ("tenant_id",lower("address"));