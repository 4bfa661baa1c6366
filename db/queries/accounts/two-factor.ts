/**
 * SQL of TOTP codes used once (RFC 6238 §5.2, server/accounts/auth-plugin.ts) and of the sessions that end when two-factor
 * is switched on: better-auth's `twoFactor` model is `staff_two_factors` (db/schema/accounts.ts), its sessions
 * `staff_sessions`.
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { staffSessions, staffTwoFactors } from '@/db/schema';

/** The account's stored TOTP secret (encrypted by better-auth with BETTER_AUTH_SECRET), or null without a setup. */
export async function totpSecretOf(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db.select({ secret: staffTwoFactors.secret }).from(staffTwoFactors).where(eq(staffTwoFactors.userId, userId));
  return row?.secret ?? null;
}

/**
 * Claims time step `step` (floor(unix seconds / 30)) for the account's TOTP codes, in one statement: it succeeds only
 * when no code of this or a later step was accepted before, so of two requests with the same code exactly one
 * claims it.
 * @returns the step claimed before (null: none yet) when the claim succeeded; `false` when the step (or a later
 *   one) was already used, or the account has no two-factor setup.
 */
export async function claimTotpStep(db: DbOrTx, userId: string, step: number): Promise<{ previous: number | null } | false> {
  const rows = await db.execute<{ previous: string | number | null }>(sql`
    update staff_two_factors t set totp_last_step = ${step}
    from (select id, totp_last_step as previous from staff_two_factors where user_id = ${userId} for update) old
    where t.id = old.id and (old.previous is null or old.previous < ${step})
    returning old.previous`);
  const row = (rows as unknown as { previous: string | number | null }[])[0];
  if (!row) return false;
  return { previous: row.previous === null ? null : Number(row.previous) };
}

/**
 * Gives a claimed step back when the request that claimed it did not sign anyone in (better-auth refused it for
 * another reason: a locked account, a spent sign-in challenge, a disabled account). Only while the step is still the
 * last one claimed: a later claim stands.
 */
export async function releaseTotpStep(db: DbOrTx, userId: string, step: number, previous: number | null): Promise<void> {
  await db
    .update(staffTwoFactors)
    .set({ totpLastStep: previous })
    .where(and(eq(staffTwoFactors.userId, userId), eq(staffTwoFactors.totpLastStep, step)));
}

/** Forgets the last claimed step (a new secret was made: its codes have nothing to do with the old ones). */
export async function forgetTotpStep(db: DbOrTx, userId: string): Promise<void> {
  await db.update(staffTwoFactors).set({ totpLastStep: null }).where(eq(staffTwoFactors.userId, userId));
}

/** Deletes every session of the account but the one with `keepToken`. @returns how many ended. */
export async function deleteOtherSessions(db: DbOrTx, userId: string, keepToken: string): Promise<number> {
  const rows = await db
    .delete(staffSessions)
    .where(and(eq(staffSessions.userId, userId), ne(staffSessions.token, keepToken)))
    .returning({ id: staffSessions.id });
  return rows.length;
}
