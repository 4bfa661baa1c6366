ALTER TYPE "public"."domain_event_type" ADD VALUE 'event_details_changed';--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "invite_sequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "invite_sequence" integer;