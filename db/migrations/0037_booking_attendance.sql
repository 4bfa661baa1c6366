CREATE TYPE "public"."attendance_source" AS ENUM('link', 'calendar_reply', 'staff');--> statement-breakpoint
CREATE TYPE "public"."attendance_state" AS ENUM('unconfirmed', 'confirmed', 'declined', 'cancelled_by_staff');--> statement-breakpoint
ALTER TYPE "public"."domain_event_type" ADD VALUE 'booking_declined';--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "unconfirmed_alert_threshold" integer;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "attendance" "attendance_state" DEFAULT 'unconfirmed' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "attendance_source" "attendance_source";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "attendance_by" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "attendance_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "tentative_source" "attendance_source";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "tentative_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reminder_rules" ADD COLUMN "only_unconfirmed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Bookings cancelled before attendance existed were cancelled by staff (participants could not cancel).
UPDATE "bookings" SET "attendance" = 'cancelled_by_staff', "attendance_source" = 'staff', "attendance_at" = "updated_at" WHERE "status" = 'cancelled';
