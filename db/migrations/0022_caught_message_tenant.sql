-- The development mailbox lists a caught message by the tenant that sent it, recorded when it was sent (the
-- sender's X-Punctual-Tenant declaration), never by comparing addresses; account mail is listed only to its
-- recipient. Rows caught before this migration have no declaration: an email whose envelope sender or recipient
-- is a VERP bounce address of a delivery takes that delivery's sending tenant; every other old row stays
-- unattributed and is shown to nobody.
ALTER TABLE "caught_messages" ADD COLUMN IF NOT EXISTS "tenant_id" uuid;--> statement-breakpoint
ALTER TABLE "caught_messages" ADD COLUMN IF NOT EXISTS "account_mail" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "caught_messages_tenant_idx" ON "caught_messages" USING btree ("tenant_id","channel","received_at");--> statement-breakpoint
UPDATE "caught_messages" m SET "tenant_id" = (
  SELECT coalesce(d.sending_tenant_id, d.tenant_id)
  FROM unnest(array_prepend(m.envelope_from, m.envelope_to)) AS a(addr)
  JOIN deliveries d ON d.id = (substring(lower(a.addr) from '^bounces[+]([0-9a-f]{32})-[0-9a-f]{10}@'))::uuid
  LIMIT 1)
WHERE m.channel = 'email' AND m.tenant_id IS NULL;
