/**
 * Sign-in limits (issue #12): how many wrong passwords a client may try, and for which account, before it has
 * to wait. Pure decisions over two token buckets (domain/platform/token-bucket.ts); the server keeps the buckets in
 * PostgreSQL (server/accounts/sign-in-limits.ts) and applies these decisions under a row lock.
 *
 * Every password check — signing in (`/sign-in/email`) and re-entering one's password (`/verify-password`,
 * `/change-password`) — first takes one token from BOTH buckets (or, when either is empty, is refused with 429
 * before any password is looked at):
 * - **per client** (all accounts together): 20 tokens, one back every 60 s. Stops one address spraying a
 *   password over many accounts: after 20 wrong guesses, one more per minute.
 * - **per (account, client)**: 10 tokens, one back every 3 min. Stops one address guessing at one account:
 *   after 10 wrong guesses, one more every 3 minutes (20 an hour).
 * Then, when the check is over:
 * - a wrong password keeps both tokens spent — only wrong guesses use up a budget;
 * - a correct password gives the client's token back and refills its (account, client) bucket — so people who
 *   sign in correctly never use up their address's budget, however many share it;
 * - a request refused before any password was compared (malformed body, no session) gives both back.
 * There is deliberately no bucket per account alone: guesses at an account from elsewhere never lock its owner
 * out; a correct password is refused only when the owner's own client is over its own budget.
 */
import { returnToken, takeToken, type BucketPolicy } from '@/domain/platform/token-bucket';

/** The documented numbers (README, "Sign-in limits"). */
export const SIGN_IN_LIMITS = {
  /** Per client address, across all accounts. */
  client: { capacity: 20, refillMs: 60_000 },
  /** Per (account, client address). */
  accountClient: { capacity: 10, refillMs: 180_000 },
} as const satisfies Record<string, BucketPolicy>;

export type SignInBucket = keyof typeof SIGN_IN_LIMITS;

/** The storage keys of one check's two buckets (`rate_limits.key`). The client key never holds a space. */
export function signInBucketKeys(account: string, clientKey: string): Record<SignInBucket, string> {
  return { client: `signin:client:${clientKey}`, accountClient: `signin:account:${clientKey} ${account}` };
}

/**
 * The account a sign-in names, as the buckets key it: the email trimmed and lower-cased (at most 254 characters,
 * RFC 5321). Null when there is none (the request is refused by validation before any password check).
 * An address with no account gets buckets like any other, so a 429 never tells whether an account exists.
 */
export function accountKey(email: unknown): string | null {
  if (typeof email !== 'string') return null;
  const e = email.trim().toLowerCase().slice(0, 254);
  return e || null;
}

/** Both buckets' states (TAT, epoch ms; null: full). */
export type SignInBucketStates = Record<SignInBucket, number | null>;

/** What a check is allowed. */
type ReserveDecision =
  /** Take: store these states. */
  | { allowed: true; states: Record<SignInBucket, number> }
  /** Refused, nothing changes: `bucket` is the one that needs the longest wait, `retryAfterMs` until both have a token. */
  | { allowed: false; bucket: SignInBucket; retryAfterMs: number };

/** Takes one token from each bucket, or from neither (see module doc). */
export function reserveCheck(states: SignInBucketStates, nowMs: number): ReserveDecision {
  const client = takeToken(states.client, nowMs, SIGN_IN_LIMITS.client);
  const accountClient = takeToken(states.accountClient, nowMs, SIGN_IN_LIMITS.accountClient);
  if (client.allowed && accountClient.allowed) return { allowed: true, states: { client: client.tat, accountClient: accountClient.tat } };
  const waitClient = client.allowed ? 0 : client.retryAfterMs;
  const waitAccount = accountClient.allowed ? 0 : accountClient.retryAfterMs;
  return waitAccount > waitClient ? { allowed: false, bucket: 'accountClient', retryAfterMs: waitAccount } : { allowed: false, bucket: 'client', retryAfterMs: waitClient };
}

/** How a password check that was let through ended. */
export type CheckOutcome = 'wrong_password' | 'accepted' | 'not_checked';

/**
 * better-auth's error codes for a secret that was compared and did not match: a password, or (issue #13) a
 * two-factor code — `INVALID_CODE` (TOTP) and `INVALID_BACKUP_CODE` from the `twoFactor` plugin's verify endpoints.
 */
const WRONG_PASSWORD_CODES = new Set(['INVALID_EMAIL_OR_PASSWORD', 'INVALID_PASSWORD', 'INVALID_CODE', 'INVALID_BACKUP_CODE']);

/**
 * Classifies the endpoint's answer: success → `accepted`; an error whose code says the password did not match
 * (`INVALID_EMAIL_OR_PASSWORD` from sign-in, `INVALID_PASSWORD` from verify/change-password and the two-factor
 * enable/disable) or a two-factor code did not (`INVALID_CODE`, `INVALID_BACKUP_CODE`) → `wrong_password`;
 * any other refusal (validation, no session, not fresh, account disabled) → `not_checked`.
 */
export function checkOutcome(result: { ok: true } | { ok: false; code?: string | null }): CheckOutcome {
  if (result.ok) return 'accepted';
  return result.code && WRONG_PASSWORD_CODES.has(result.code) ? 'wrong_password' : 'not_checked';
}

/**
 * The states after a check ended (see module doc): `null` for a bucket means "full" (its row may go).
 * A wrong password changes nothing: its tokens were taken when the check was let through.
 */
export function settleCheck(outcome: CheckOutcome, states: SignInBucketStates, nowMs: number): SignInBucketStates {
  if (outcome === 'wrong_password') return states;
  const client = returnToken(states.client, nowMs, SIGN_IN_LIMITS.client);
  const accountClient = outcome === 'accepted' ? nowMs : returnToken(states.accountClient, nowMs, SIGN_IN_LIMITS.accountClient);
  return { client: client <= nowMs ? null : client, accountClient: accountClient <= nowMs ? null : accountClient };
}

/** Whole seconds for a `Retry-After` header: rounded up, at least 1. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** "45 seconds", "1 minute", "3 minutes" — rounded up, never "0". */
export function waitText(ms: number): string {
  const s = retryAfterSeconds(ms);
  if (s < 60) return `${s} second${s === 1 ? '' : 's'}`;
  const m = Math.ceil(s / 60);
  return `${m} minute${m === 1 ? '' : 's'}`;
}

/** The sentence a 429 carries (shown as is by the sign-in form). */
export function tooManyAttemptsMessage(bucket: SignInBucket, retryAfterMs: number): string {
  const what = bucket === 'client' ? 'from your network' : 'for this account from your network';
  return `Too many wrong passwords ${what}. Try again in ${waitText(retryAfterMs)}.`;
}

/**
 * Password reset requests (issue #13, `/request-password-reset`): each one — for any address, with an account or
 * not, so a 429 never tells whether an account exists — takes one token from the client's bucket above (shared
 * with wrong passwords: a client cannot ask for more than 20 mails in a burst, then one a minute) AND one from a
 * bucket per ADDRESS across all clients: 3 mails, one more every 20 minutes — nobody, from however many addresses,
 * can fill someone's inbox with reset mails (at most 3 + 3 an hour). Tokens are never given back: a request is a
 * sent mail. An owner who hits the limit waits, or asks an admin for a link (`npm run tenant -- link`).
 */
export const RESET_REQUEST_LIMIT = { capacity: 3, refillMs: 20 * 60_000 } as const satisfies BucketPolicy;

/** The storage keys of a reset request's two buckets (the client's is the sign-in one). */
export function resetBucketKeys(account: string, clientKey: string): { client: string; address: string } {
  return { client: `signin:client:${clientKey}`, address: `signin:reset:${account}` };
}

/** What a reset request is allowed: take from both (store these TATs) or neither. */
type ResetDecision =
  | { allowed: true; states: { client: number; address: number } }
  | { allowed: false; bucket: 'client' | 'address'; retryAfterMs: number };

/** Takes one token from the client's sign-in bucket and the address's reset bucket, or from neither. */
export function reserveResetRequest(states: { client: number | null; address: number | null }, nowMs: number): ResetDecision {
  const client = takeToken(states.client, nowMs, SIGN_IN_LIMITS.client);
  const address = takeToken(states.address, nowMs, RESET_REQUEST_LIMIT);
  if (client.allowed && address.allowed) return { allowed: true, states: { client: client.tat, address: address.tat } };
  const waitClient = client.allowed ? 0 : client.retryAfterMs;
  const waitAddress = address.allowed ? 0 : address.retryAfterMs;
  return waitAddress > waitClient ? { allowed: false, bucket: 'address', retryAfterMs: waitAddress } : { allowed: false, bucket: 'client', retryAfterMs: waitClient };
}

/** The sentence a refused reset request carries (shown as is by the form). */
export function tooManyResetsMessage(bucket: 'client' | 'address', retryAfterMs: number): string {
  return bucket === 'client'
    ? `Too many attempts from your network. Try again in ${waitText(retryAfterMs)}.`
    : `Too many reset emails were asked for this address. Try again in ${waitText(retryAfterMs)}, or ask an admin for a sign-in link.`;
}
