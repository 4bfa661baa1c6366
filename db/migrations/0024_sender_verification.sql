-- Sender identity (domain/sender-identity.ts): the address a tenant proved it may send from, and the verification
-- links mailed to sender addresses (only the SHA-256 of each token is stored). Hand-written, idempotent where cheap.
ALTER TABLE "tenants" ADD COLUMN IF NOT EXISTS "sender_verified_email" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN IF NOT EXISTS "sender_verified_via" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN IF NOT EXISTS "sender_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tenants" DROP CONSTRAINT IF EXISTS "tenants_sender_verified_via_check";--> statement-breakpoint
ALTER TABLE "tenants" ADD CONSTRAINT "tenants_sender_verified_via_check" CHECK ("sender_verified_via" IS NULL OR "sender_verified_via" IN ('link', 'operator', 'grandfathered'));--> statement-breakpoint
-- One proven owner per (normalised) address: two concurrent verifications cannot both win.
CREATE UNIQUE INDEX IF NOT EXISTS "tenants_sender_verified_email_uq" ON "tenants" USING btree ("sender_verified_email");--> statement-breakpoint
-- Who else holds an address (a settings save's check): by the normalised sender address.
CREATE INDEX IF NOT EXISTS "tenants_sender_email_lower_idx" ON "tenants" USING btree (lower(btrim("sender_email")));--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sender_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL REFERENCES "public"."tenants"("id"),
	"address" text NOT NULL,
	"token_hash" text NOT NULL,
	"requested_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"used_by" text,
	CONSTRAINT "sender_verifications_token_hash_unique" UNIQUE("token_hash")
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sender_verifications_tenant_created_idx" ON "sender_verifications" USING btree ("tenant_id","created_at");--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'sender_verify';
