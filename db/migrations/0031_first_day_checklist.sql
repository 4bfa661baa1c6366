ALTER TYPE "public"."audit_action" ADD VALUE 'first_day_dismiss';--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "first_day_dismissed_at" timestamp with time zone;