CREATE TYPE "public"."message_text_status" AS ENUM('draft', 'published', 'reset');--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'message_text_publish';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'message_text_rollback';--> statement-breakpoint
ALTER TYPE "public"."audit_action" ADD VALUE 'message_text_reset';--> statement-breakpoint
CREATE TABLE "message_texts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"locale" text NOT NULL,
	"status" "message_text_status" NOT NULL,
	"version" integer,
	"subject" text,
	"body" text,
	"sms" text,
	"copied_from" integer,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_by" text,
	"published_at" timestamp with time zone,
	CONSTRAINT "message_texts_version_ck" CHECK ((status = 'draft') = (version is null)),
	CONSTRAINT "message_texts_text_ck" CHECK ((status = 'reset') = (subject is null and body is null and sms is null)),
	CONSTRAINT "message_texts_published_ck" CHECK ((status = 'draft') = (published_at is null))
);
--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "message_text_version" integer;--> statement-breakpoint
ALTER TABLE "message_texts" ADD CONSTRAINT "message_texts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "message_texts_draft_uq" ON "message_texts" USING btree ("tenant_id","kind","locale") WHERE status = 'draft';--> statement-breakpoint
CREATE UNIQUE INDEX "message_texts_version_uq" ON "message_texts" USING btree ("tenant_id","kind","locale","version");--> statement-breakpoint
CREATE INDEX "message_texts_key_idx" ON "message_texts" USING btree ("tenant_id","kind","locale","row_version");