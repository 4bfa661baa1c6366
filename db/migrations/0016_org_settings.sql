-- Issue #13, organisation settings page.
-- 1. The organisation's settings on `tenants`: sender name (null = the organisation's name), reply-to (optional),
--    default locale (BCP 47, for contacts added without one), and a row version (invariant 11) bumped by the shared
--    trigger of migration 0006, so two admins cannot lose each other's change.
ALTER TABLE "tenants" ADD COLUMN IF NOT EXISTS "sender_name" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN IF NOT EXISTS "reply_to" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN IF NOT EXISTS "locale" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN IF NOT EXISTS "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN IF NOT EXISTS "updated_by" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN IF NOT EXISTS "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
DROP TRIGGER IF EXISTS "tenants_row_version" ON "tenants";--> statement-breakpoint
CREATE TRIGGER "tenants_row_version" BEFORE UPDATE ON "tenants" FOR EACH ROW EXECUTE FUNCTION "punctual_bump_row_version"();--> statement-breakpoint
-- 2. Guest partnerships are agreed by both sides: a row is `pending` until an admin of the side that did not propose
--    it accepts (`active`); a pending one can be `declined`, an active one `ended` (kept as history, invariant 8).
--    Only `active` partnerships let a host book or write as the guest organisation. Rows from before were made by the
--    seed or an operator on behalf of both sides: they stay in force (`active`); new rows start `pending`.
DO $$ BEGIN
  CREATE TYPE "public"."partnership_status" AS ENUM('pending', 'active', 'declined', 'ended');
EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN
  CREATE TYPE "public"."partnership_side" AS ENUM('guest', 'host');
EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
ALTER TABLE "guest_partnerships" ADD COLUMN IF NOT EXISTS "status" "partnership_status" DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "guest_partnerships" ALTER COLUMN "status" SET DEFAULT 'pending';--> statement-breakpoint
ALTER TABLE "guest_partnerships" ADD COLUMN IF NOT EXISTS "proposed_by" "partnership_side";--> statement-breakpoint
ALTER TABLE "guest_partnerships" ADD COLUMN IF NOT EXISTS "status_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- 3. "Send a test message": one row per request, written by the web app and finished by the worker that sends it.
DO $$ BEGIN
  CREATE TYPE "public"."test_message_status" AS ENUM('pending', 'sent', 'failed', 'unknown');
EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "org_test_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL REFERENCES "tenants"("id"),
	"to" text NOT NULL,
	"requested_by" text NOT NULL,
	"provider" "email_provider" NOT NULL,
	"status" "test_message_status" DEFAULT 'pending' NOT NULL,
	"provider_answer" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "org_test_messages_tenant_created_idx" ON "org_test_messages" USING btree ("tenant_id","created_at");--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'settings_update';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'settings_test_message';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'partnership_propose';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'partnership_accept';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'partnership_decline';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'partnership_end';
