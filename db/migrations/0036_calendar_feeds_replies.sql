ALTER TYPE "public"."audit_action" ADD VALUE 'calendar_feed_rotate';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'calendar_feed_update';--> statement-breakpoint
CREATE TABLE "calendar_feeds" (
	"tenant_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"alarms" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"rotated_at" timestamp with time zone,
	"rotated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calendar_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid,
	"booking_id" uuid,
	"event_id" uuid,
	"source" text NOT NULL,
	"sha256" text NOT NULL,
	"message_id" text,
	"from_address" text,
	"uid" text,
	"sequence" integer,
	"attendee" text,
	"partstat" text,
	"outcome" text NOT NULL,
	"reason" text NOT NULL,
	"raw" text NOT NULL,
	"raw_truncated" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_replies" ADD CONSTRAINT "calendar_replies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_replies" ADD CONSTRAINT "calendar_replies_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_replies" ADD CONSTRAINT "calendar_replies_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_feeds_contact_uq" ON "calendar_feeds" USING btree ("tenant_id","contact_id");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_replies_sha_uq" ON "calendar_replies" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "calendar_replies_tenant_idx" ON "calendar_replies" USING btree ("tenant_id","created_at");