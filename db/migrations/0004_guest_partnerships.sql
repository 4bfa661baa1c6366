CREATE TABLE "guest_partnerships" (
	"guest_tenant_id" uuid NOT NULL,
	"host_tenant_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "guest_partnerships" ADD CONSTRAINT "guest_partnerships_guest_tenant_id_tenants_id_fk" FOREIGN KEY ("guest_tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guest_partnerships" ADD CONSTRAINT "guest_partnerships_host_tenant_id_tenants_id_fk" FOREIGN KEY ("host_tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "guest_partnerships_pair_uq" ON "guest_partnerships" USING btree ("guest_tenant_id","host_tenant_id");