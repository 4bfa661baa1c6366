-- Issue #13 (rule lifecycle): rules are created, deactivated and deleted from the app, audited.
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'rule_create';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'rule_delete';--> statement-breakpoint
-- A rule deactivated with "let its pending reminders go out": the send path does not cancel the reminders it
-- planned while it was active (domain/send-decision.ts). Reset by activation and by "cancel its pending reminders".
ALTER TABLE "reminder_rules" ADD COLUMN IF NOT EXISTS "pending_go_out" boolean DEFAULT false NOT NULL;
