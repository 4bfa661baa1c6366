-- Issue #13 (tenant setup): an organisation created from the command line with its first admin, the one-time
-- sign-in links that let a person choose a password, and password reset by email — each audited as its own action.
-- Hand-written (no table changes: the links are better-auth's own `reset-password:<token>` verification rows).
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'tenant_create';
--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'sign_in_link';
--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'password_reset';
--> statement-breakpoint
-- The From display name of a tenant's mail (`--sender-name`); null = the tenant's name, as before.
ALTER TABLE "tenants" ADD COLUMN IF NOT EXISTS "sender_name" text;
