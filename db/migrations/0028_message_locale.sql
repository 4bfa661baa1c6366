-- Messages in the reader's language: each delivery records the language its words were written in and why
-- (domain/messages/locale-fallback.ts), fixed when its message key is claimed. Generated with drizzle-kit, trimmed to
-- this change (its diff from the last snapshot also repeated the hand-written migrations 0023–0027; the snapshot
-- 0028_snapshot.json is the whole schema as it is now). Additive and idempotent: old rows keep null (claimed before
-- languages were recorded).
ALTER TABLE "deliveries" ADD COLUMN IF NOT EXISTS "message_locale" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN IF NOT EXISTS "locale_reason" text;
