-- Account links and codes are used once and die with what they protect. Hand-written, idempotent where cheap.
--
-- 1. A TOTP code is accepted once per account and time step (RFC 6238 §5.2): the last 30-second step
--    (floor(unix seconds / 30)) whose code was accepted for the account, claimed atomically before better-auth
--    compares the code (server/accounts-auth.ts, db/queries/two-factor.ts). On staff_two_factors, not staff_users:
--    a write to staff_users bumps its row version (migration 0006), which would make every sign-in look like an
--    edit of the account to an admin holding the Staff page.
ALTER TABLE "staff_two_factors" ADD COLUMN IF NOT EXISTS "totp_last_step" bigint;--> statement-breakpoint

-- 2. Password links (better-auth `verification` rows `reset-password:<token>` whose value is the user id) die when
--    the password changes by ANY route — /reset-password, /change-password, a link from `npm run tenant`, a future
--    admin action or plain SQL — in the transaction that writes the password. better-auth writes passwords through
--    its own adapter transactions, which our code can join only here: its database "after" hooks run after commit.
CREATE OR REPLACE FUNCTION "punctual_password_links_die"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "staff_verifications" WHERE "identifier" LIKE 'reset-password:%' AND "value" = NEW."user_id";
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "staff_accounts_password_set" ON "staff_accounts";--> statement-breakpoint
CREATE TRIGGER "staff_accounts_password_set" AFTER INSERT ON "staff_accounts" FOR EACH ROW
  WHEN (NEW."provider_id" = 'credential' AND NEW."password" IS NOT NULL) EXECUTE FUNCTION "punctual_password_links_die"();--> statement-breakpoint
DROP TRIGGER IF EXISTS "staff_accounts_password_changed" ON "staff_accounts";--> statement-breakpoint
CREATE TRIGGER "staff_accounts_password_changed" AFTER UPDATE OF "password" ON "staff_accounts" FOR EACH ROW
  WHEN (NEW."provider_id" = 'credential' AND NEW."password" IS DISTINCT FROM OLD."password") EXECUTE FUNCTION "punctual_password_links_die"();--> statement-breakpoint

-- 3. Only the newest link works: storing a password link removes the account's older ones, whoever stores it
--    (better-auth's /request-password-reset, `npm run tenant -- link`). The advisory lock (per account, until the
--    inserting transaction ends) makes two links issued at the same moment take turns, so the later one's DELETE
--    sees — and removes — the earlier one: never two live links.
CREATE OR REPLACE FUNCTION "punctual_password_link_replaces"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('punctual.password-links:' || NEW."value", 0));
  DELETE FROM "staff_verifications" WHERE "identifier" LIKE 'reset-password:%' AND "value" = NEW."value" AND "id" <> NEW."id";
  RETURN NEW;
END $$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "staff_verifications_password_link" ON "staff_verifications";--> statement-breakpoint
CREATE TRIGGER "staff_verifications_password_link" BEFORE INSERT ON "staff_verifications" FOR EACH ROW
  WHEN (NEW."identifier" LIKE 'reset-password:%') EXECUTE FUNCTION "punctual_password_link_replaces"();
