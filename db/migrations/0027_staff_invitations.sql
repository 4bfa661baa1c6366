-- No oracle across tenants: adding staff becomes an invitation, answered and listed the same whether or not the
-- address already has an account with another organisation. Hand-written, idempotent where cheap.
--
-- An invitation to join one tenant with a role: pending until the person accepts it through the emailed link (their
-- account is created then), until it expires (7 days), or until an admin cancels it or invites the address again
-- (which replaces it: at most one pending invitation per tenant and address). Only a SHA-256 of the link's token is
-- stored. A person who already has an account elsewhere is told so by email and their invitation simply stays
-- pending until it expires, like an ignored one.
CREATE TABLE IF NOT EXISTS "staff_invitations" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "tenant_id" uuid NOT NULL REFERENCES "tenants"("id"),
  "email" text NOT NULL,
  "name" text NOT NULL,
  "role" "staff_role" NOT NULL,
  "invited_by" text NOT NULL,
  "token_hash" text NOT NULL,
  "status" text DEFAULT 'pending' NOT NULL CONSTRAINT "staff_invitations_status_check" CHECK ("status" IN ('pending', 'accepted', 'cancelled', 'replaced')),
  "expires_at" timestamp with time zone NOT NULL,
  "accepted_at" timestamp with time zone,
  "version" integer DEFAULT 1 NOT NULL,
  "updated_by" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "staff_invitations_token_uq" ON "staff_invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "staff_invitations_pending_uq" ON "staff_invitations" USING btree ("tenant_id", "email") WHERE "status" = 'pending';--> statement-breakpoint
DROP TRIGGER IF EXISTS "staff_invitations_row_version" ON "staff_invitations";--> statement-breakpoint
CREATE TRIGGER "staff_invitations_row_version" BEFORE UPDATE ON "staff_invitations" FOR EACH ROW EXECUTE FUNCTION "punctual_bump_row_version"();--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'staff_invite';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'staff_invite_cancel';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'staff_invite_accept';
