-- Account links and codes are used once and die with what they protect. Hand-written, idempotent where cheap.
--
-- 1. A TOTP code is accepted once per account and time step (RFC 6238 §5.2): the last 30-second step
--    (floor(unix seconds / 30)) whose code was accepted for the account, claimed atomically before better-auth
--    compares the code (server/accounts-auth.ts, db/queries/two-factor.ts). On staff_two_factors, not staff_users:
--    a write to staff_users bumps its row version (migration 0006), which would make every sign-in look like an
--    edit of the account to an admin holding the Staff page.
ALTER TABLE "staff_two_factors" ADD COLUMN IF NOT EXISTS "totp_last_step" bigint;
