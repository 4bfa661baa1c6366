-- Sender identity: the tenants that existed before verification (grandfathering rule, README "Sender address").
-- An address held by exactly ONE tenant (compared trimmed and lower-cased) stays that tenant's, proven
-- ('grandfathered'); an address held by two or more tenants is proven for none of them — each must verify it (the
-- first to open its link owns it) or use an address at one of the operator's sender domains. Runs once.
UPDATE "tenants" t
SET "sender_verified_email" = lower(btrim(t."sender_email")),
    "sender_verified_via" = 'grandfathered',
    "sender_verified_at" = now()
WHERE t."sender_verified_email" IS NULL
  AND NOT EXISTS (
    SELECT 1 FROM "tenants" o
    WHERE o."id" <> t."id" AND lower(btrim(o."sender_email")) = lower(btrim(t."sender_email"))
  );
