-- Issue #13 (accounts): admins disable / re-enable a staff account; optional TOTP two-factor (better-auth's
-- `twoFactor` plugin: `two_factor_enabled` on the user, its `twoFactor` model as `staff_two_factors`); new audit actions.
-- Hand-written, idempotent where cheap.
ALTER TABLE "staff_users" ADD COLUMN IF NOT EXISTS "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN IF NOT EXISTS "disabled_by" text;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN IF NOT EXISTS "two_factor_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "staff_two_factors" (
	"id" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"backup_codes" text NOT NULL,
	"user_id" text NOT NULL REFERENCES "public"."staff_users"("id") ON DELETE cascade,
	"verified" boolean DEFAULT true NOT NULL,
	"failed_verification_count" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "staff_two_factors_user_idx" ON "staff_two_factors" ("user_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "staff_two_factors_secret_idx" ON "staff_two_factors" ("secret");--> statement-breakpoint
-- Looked up by identifier: two-factor sign-in challenges, and the markers of sessions ended by disabling an account.
CREATE INDEX IF NOT EXISTS "staff_verifications_identifier_idx" ON "staff_verifications" ("identifier");--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'password_change';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'two_factor_on';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'two_factor_off';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'staff_disable';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'staff_enable';
