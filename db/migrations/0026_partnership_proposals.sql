-- No oracle across tenants: a partnership proposal answers the same whether the typed short name (slug) belongs
-- to an organisation or not. Hand-written, idempotent where cheap.
--
-- 1. A proposal to an organisation that exists remembers the slug its proposer typed: the proposer's admins see
--    the proposal by that slug (never the other organisation's name) until the other side accepts it.
ALTER TABLE "guest_partnerships" ADD COLUMN IF NOT EXISTS "proposed_slug" text;--> statement-breakpoint

-- 2. A proposal to a slug that no organisation has: kept for its proposer only (shown by the slug, pending until
--    withdrawn), never matched to an organisation — not even one created with that slug later — and never shown to
--    anyone else. The same statuses and row version as guest_partnerships, so both answer alike.
CREATE TABLE IF NOT EXISTS "unmatched_partnership_proposals" (
  "tenant_id" uuid NOT NULL REFERENCES "tenants"("id"),
  "slug" text NOT NULL,
  "side" "partnership_side" NOT NULL,
  "status" "partnership_status" DEFAULT 'pending' NOT NULL,
  "status_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
  "version" integer DEFAULT 1 NOT NULL,
  "updated_by" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "unmatched_partnership_proposals_pk" PRIMARY KEY ("tenant_id", "slug", "side")
);--> statement-breakpoint
DROP TRIGGER IF EXISTS "unmatched_partnership_proposals_row_version" ON "unmatched_partnership_proposals";--> statement-breakpoint
CREATE TRIGGER "unmatched_partnership_proposals_row_version" BEFORE UPDATE ON "unmatched_partnership_proposals" FOR EACH ROW EXECUTE FUNCTION "punctual_bump_row_version"();
