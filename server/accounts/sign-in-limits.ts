/**
 * Sign-in limits, applied (issue #12; the rules and numbers are in domain/accounts/sign-in-limits.ts). The buckets live in
 * PostgreSQL (`rate_limits`, keys `signin:…`), so every web process shares them: each step locks the rows it
 * decides on (client bucket first, then the (account, client) one — the same order everywhere, so no deadlock),
 * asks domain/ and writes the result in the same transaction.
 *
 * A password check is bracketed by {@link reservePasswordCheck} (before any password is compared: take a token
 * from both buckets, or refuse) and {@link settlePasswordCheck} (after: give tokens back unless the password was
 * wrong). `now` is the database's clock (server/platform/clock.ts, invariant 10).
 */
import type { Db } from '@/db/client';
import { lockLimiter, pruneFullSignInBuckets, storeLimiter } from '@/db/queries/platform/rate-limit';
import { reserveCheck, reserveResetRequest, resetBucketKeys, settleCheck, signInBucketKeys, tooManyAttemptsMessage, tooManyResetsMessage, type CheckOutcome, type SignInBucket } from '@/domain/accounts/sign-in-limits';

/** One password check: the account it is for (domain `accountKey`) and the client's limit key (domain `clientLimitKey`). */
export interface PasswordCheck {
  account: string;
  clientKey: string;
}

/** Whether a check may go ahead. */
type Reservation =
  | { allowed: true }
  /** Refused (HTTP 429): `retryAfterMs` until it may be tried again; `message` says so in words. */
  | { allowed: false; bucket: SignInBucket; retryAfterMs: number; message: string };

/**
 * Takes one token from the check's client bucket and its (account, client) bucket, or from neither.
 * A refused check changes no bucket and creates no (account, client) row.
 */
export async function reservePasswordCheck(db: Db, check: PasswordCheck, now: Date): Promise<Reservation> {
  const keys = signInBucketKeys(check.account, check.clientKey);
  const nowMs = now.getTime();
  const r = await db.transaction(async (tx) => {
    const client = await lockLimiter(tx, keys.client, now);
    // An empty client bucket refuses on its own: no (account, client) row is made for a refused guess.
    const early = reserveCheck({ client, accountClient: null }, nowMs);
    if (!early.allowed) return early;
    const d = reserveCheck({ client, accountClient: await lockLimiter(tx, keys.accountClient, now) }, nowMs);
    if (d.allowed) {
      await storeLimiter(tx, keys.client, d.states.client);
      await storeLimiter(tx, keys.accountClient, d.states.accountClient);
    }
    return d;
  });
  return r.allowed ? { allowed: true } : { allowed: false, bucket: r.bucket, retryAfterMs: r.retryAfterMs, message: tooManyAttemptsMessage(r.bucket, r.retryAfterMs) };
}

/**
 * Ends a check that {@link reservePasswordCheck} let through: a wrong password keeps its tokens spent; a correct
 * one gives the client's token back and refills the (account, client) bucket; a request refused before any
 * password was compared gives both back. Also prunes a few buckets that are full again.
 */
export async function settlePasswordCheck(db: Db, check: PasswordCheck, outcome: CheckOutcome, now: Date): Promise<void> {
  if (outcome !== 'wrong_password') {
    const keys = signInBucketKeys(check.account, check.clientKey);
    await db.transaction(async (tx) => {
      const states = { client: await lockLimiter(tx, keys.client, now), accountClient: await lockLimiter(tx, keys.accountClient, now) };
      const next = settleCheck(outcome, states, now.getTime());
      await storeLimiter(tx, keys.client, next.client);
      await storeLimiter(tx, keys.accountClient, next.accountClient);
    });
  }
  await pruneFullSignInBuckets(db, now);
}

/**
 * A password reset request (issue #13): takes one token from the client's sign-in bucket and one from the address's
 * reset bucket (domain/accounts/sign-in-limits.ts RESET_REQUEST_LIMIT), or from neither — never given back. Locks the client
 * row first, as every other step does (no deadlock).
 */
export async function reserveResetMail(db: Db, check: PasswordCheck, now: Date): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number; message: string }> {
  const keys = resetBucketKeys(check.account, check.clientKey);
  const r = await db.transaction(async (tx) => {
    const client = await lockLimiter(tx, keys.client, now);
    const d = reserveResetRequest({ client, address: await lockLimiter(tx, keys.address, now) }, now.getTime());
    if (d.allowed) {
      await storeLimiter(tx, keys.client, d.states.client);
      await storeLimiter(tx, keys.address, d.states.address);
    }
    return d;
  });
  await pruneFullSignInBuckets(db, now);
  return r.allowed ? { allowed: true } : { allowed: false, retryAfterMs: r.retryAfterMs, message: tooManyResetsMessage(r.bucket, r.retryAfterMs) };
}
