CREATE TABLE "idempotency_keys" (
	"tenant_id" uuid NOT NULL,
	"actor_id" text NOT NULL,
	"key" text NOT NULL,
	"route" text NOT NULL,
	"fingerprint" text NOT NULL,
	"response_status" integer NOT NULL,
	"response_body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "bookings_event_contact_uq";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "updated_by" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "updated_by" text;--> statement-breakpoint
ALTER TABLE "reminder_rules" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "reminder_rules" ADD COLUMN "updated_by" text;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "updated_by" text;--> statement-breakpoint
ALTER TABLE "suppressions" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "suppressions" ADD COLUMN "updated_by" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_keys_uq" ON "idempotency_keys" USING btree ("tenant_id","actor_id","key");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_event_contact_live_uq" ON "bookings" USING btree ("event_id","contact_id") WHERE status <> 'cancelled';--> statement-breakpoint
-- Row versions (invariant 11): every UPDATE that changes a row bumps its version and records who made it
-- (the transaction's `punctual.actor` setting, else 'system'). A trigger, so no code path can forget it.
CREATE FUNCTION "punctual_bump_row_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW IS DISTINCT FROM OLD THEN
    NEW.version := OLD.version + 1;
    NEW.updated_by := coalesce(nullif(current_setting('punctual.actor', true), ''), 'system');
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "events_row_version" BEFORE UPDATE ON "events" FOR EACH ROW EXECUTE FUNCTION "punctual_bump_row_version"();--> statement-breakpoint
CREATE TRIGGER "bookings_row_version" BEFORE UPDATE ON "bookings" FOR EACH ROW EXECUTE FUNCTION "punctual_bump_row_version"();--> statement-breakpoint
CREATE TRIGGER "reminder_rules_row_version" BEFORE UPDATE ON "reminder_rules" FOR EACH ROW EXECUTE FUNCTION "punctual_bump_row_version"();--> statement-breakpoint
CREATE TRIGGER "suppressions_row_version" BEFORE UPDATE ON "suppressions" FOR EACH ROW EXECUTE FUNCTION "punctual_bump_row_version"();--> statement-breakpoint
CREATE TRIGGER "staff_users_row_version" BEFORE UPDATE ON "staff_users" FOR EACH ROW EXECUTE FUNCTION "punctual_bump_row_version"();
