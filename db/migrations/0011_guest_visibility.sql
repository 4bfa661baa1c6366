-- Issue #12 (guest visibility): mail sent in a guest organisation's name is that organisation's business.
-- 1. A guest partnership carries the guest organisation's limit on whom the host may write to in its name
--    (domain/guest-sender.ts), with a row version (invariant 11) bumped by the shared trigger of migration 0006.
CREATE TYPE "public"."guest_limit" AS ENUM('anyone', 'contacts', 'domains', 'none');--> statement-breakpoint
ALTER TABLE "guest_partnerships" ADD COLUMN "guest_limit" "guest_limit" DEFAULT 'anyone' NOT NULL;--> statement-breakpoint
ALTER TABLE "guest_partnerships" ADD COLUMN "allowed_domains" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "guest_partnerships" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "guest_partnerships" ADD COLUMN "updated_by" text;--> statement-breakpoint
ALTER TABLE "guest_partnerships" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE TRIGGER "guest_partnerships_row_version" BEFORE UPDATE ON "guest_partnerships" FOR EACH ROW EXECUTE FUNCTION "punctual_bump_row_version"();--> statement-breakpoint
-- 2. Who booked a person (the host actor the guest organisation sees for rule reminders): the transaction's
--    `punctual.actor` (db/queries/actor.ts setActor) at insert time, null when none was named.
ALTER TABLE "bookings" ADD COLUMN "created_by" text DEFAULT nullif(current_setting('punctual.actor', true), '');--> statement-breakpoint
-- 3. The tenant whose name a delivery goes out in (its sender, its suppression list, whose deliveries log and
--    mailbox list it): recorded at the claim, re-decided before every attempt. Null = the delivery's own tenant.
ALTER TABLE "deliveries" ADD COLUMN "sending_tenant_id" uuid;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_sending_tenant_id_tenants_id_fk" FOREIGN KEY ("sending_tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Existing deliveries went out as the rule before issue #12 said: an external guest's in the guest organisation's name.
UPDATE "deliveries" d SET "sending_tenant_id" = coalesce(
  (select case when b.role = 'external' then b.guest_tenant_id end from reminders r join bookings b on b.id = r.booking_id where r.id = d.reminder_id),
  d.tenant_id);--> statement-breakpoint
-- The guest organisation's deliveries log: the messages others sent in its name (few; a partial index).
CREATE INDEX "deliveries_sent_for_idx" ON "deliveries" USING btree ("sending_tenant_id","created_at") WHERE sending_tenant_id <> tenant_id;--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'guest_message';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'partnership_update';
