/**
 * Provider outcomes (DESIGN §3 "Outcome") and what the send path does after one: a pure decision from the
 * outcome, the provider's idempotency, the retry budget and the reminder's expiry instant.
 *
 * Budgets: only attempts that failed for a reason that may be real count against `maxAttempts`
 * (`transient`, and `ambiguous` on an idempotent provider). `rate_limited` answers never do — the provider
 * is healthy and asked us to wait — so a recovery burst that meets a rate limit cannot exhaust a reminder's
 * budget; the expiry instant bounds those waits instead, plus a hard ceiling of `maxRateLimitedAttempts`.
 */
import { nextAttemptDelayMs, type RetryPolicy } from './retry';
import type { RepairOwner } from './vocabulary';

export type RejectKind = 'invalid_recipient' | 'validation' | 'permission' | 'other';

/** Classified result of one provider call, as every channel adapter returns it. */
export type Outcome =
  | { class: 'accepted'; providerId: string; response?: string }
  | { class: 'transient'; code: string; message: string }
  | { class: 'rate_limited'; code: string; message: string; retryAfterMs: number | null }
  | { class: 'ambiguous'; code: string; message: string }
  | { class: 'rejected'; kind: RejectKind; code: string; message: string };

export type AfterOutcome =
  | { status: 'accepted'; providerMessageId: string; countsAsFailure: false }
  | { status: 'retrying'; reason: string; nextAttemptAt: Date; countsAsFailure: boolean }
  | { status: 'unknown' | 'expired'; reason: string; countsAsFailure: boolean }
  /** `suppress`: the address is bad for good; add it to the suppression list. */
  | { status: 'failed'; reason: string; countsAsFailure: true; suppress: boolean }
  | { status: 'dead'; reason: string; countsAsFailure: boolean; repairOwner: RepairOwner };

/** Rate-limited attempts allowed in all, whatever the expiry (a guard against a provider that never lets up). */
export const maxRateLimitedAttempts = 50;

const rejectOwner: Record<Exclude<RejectKind, 'invalid_recipient'>, RepairOwner> = {
  permission: 'configuration',
  validation: 'template',
  other: 'provider',
};

/**
 * What a delivery becomes after `outcome` (see module doc for budgets):
 *  - accepted → `accepted`;
 *  - ambiguous → `unknown` for a provider without idempotency keys (never retried blindly, invariant 6);
 *    on an idempotent provider a retry under the same key is safe, so → `retrying`;
 *  - rejected(invalid_recipient) → `failed` and suppress the address; rejected(permission | validation |
 *    other) → `dead`, owned by configuration | template | provider;
 *  - transient / rate_limited → `retrying` at now + backoff (Retry-After wins); `dead` (owner provider) when
 *    the budget is spent; `expired` when the next attempt would not be before the expiry instant.
 * @param failuresSoFar budgeted failures before this attempt.
 * @param rateLimitedSoFar rate-limited attempts before this one.
 * @param random a draw in [0, 1) for the jitter.
 */
export function decideAfterOutcome(input: {
  outcome: Outcome;
  idempotentProvider: boolean;
  failuresSoFar: number;
  rateLimitedSoFar: number;
  now: Date;
  expiresAt: Date;
  policy: RetryPolicy;
  random: number;
}): AfterOutcome {
  const { outcome: o, now, expiresAt } = input;
  if (o.class === 'accepted') return { status: 'accepted', providerMessageId: o.providerId, countsAsFailure: false };
  if (o.class === 'ambiguous' && !input.idempotentProvider) {
    return {
      status: 'unknown',
      countsAsFailure: false,
      reason: `ambiguous provider outcome (${o.code}: ${o.message}); the message may or may not have been sent — not resent automatically`,
    };
  }
  if (o.class === 'rejected') {
    const reason = `rejected by the provider (${o.kind}, ${o.code}: ${o.message})`;
    if (o.kind === 'invalid_recipient') return { status: 'failed', reason, countsAsFailure: true, suppress: true };
    return { status: 'dead', reason, countsAsFailure: true, repairOwner: rejectOwner[o.kind] };
  }
  const rateLimited = o.class === 'rate_limited';
  const failures = input.failuresSoFar + (rateLimited ? 0 : 1);
  const last = `${o.class} (${o.code}: ${o.message})`;
  if (rateLimited && input.rateLimitedSoFar + 1 >= maxRateLimitedAttempts) {
    return { status: 'dead', reason: `still rate-limited after ${maxRateLimitedAttempts} attempts (last: ${last})`, countsAsFailure: false, repairOwner: 'provider' };
  }
  // The backoff grows with budgeted failures; a rate limit without Retry-After backs off from its own count.
  const delay = nextAttemptDelayMs(
    input.policy,
    rateLimited ? Math.min(input.rateLimitedSoFar + 1, input.policy.maxAttempts - 1) : failures,
    rateLimited ? o.retryAfterMs : null,
    input.random,
  );
  if (delay < 0) {
    return { status: 'dead', reason: `gave up after ${failures} failed attempts (last: ${last})`, countsAsFailure: true, repairOwner: 'provider' };
  }
  const nextAttemptAt = new Date(now.getTime() + delay);
  if (nextAttemptAt.getTime() >= expiresAt.getTime()) {
    return {
      status: 'expired',
      countsAsFailure: !rateLimited,
      reason: `next attempt would be at ${nextAttemptAt.toISOString()}, after the expiry instant ${expiresAt.toISOString()} (last: ${last})`,
    };
  }
  return {
    status: 'retrying',
    nextAttemptAt,
    countsAsFailure: !rateLimited,
    reason: `${last}${o.class === 'ambiguous' ? ' — retried under the same idempotency key' : ''}; next attempt at ${nextAttemptAt.toISOString()}`,
  };
}
