ALTER TYPE "public"."audit_action" ADD VALUE 'staff_add';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'staff_role';