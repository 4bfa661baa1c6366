/**
 * Provider outcomes (DESIGN §3 "Outcome") and what the send path does after one: a pure decision from the
 * outcome, the attempt count, the retry policy and the reminder's expiry instant.
 */
import { nextAttemptDelayMs, type RetryPolicy } from './retry';

export type RejectKind = 'invalid_recipient' | 'validation' | 'permission' | 'other';

/** Classified result of one provider call, as every channel adapter returns it. */
export type Outcome =
  | { class: 'accepted'; providerId: string; response?: string }
  | { class: 'transient'; code: string; message: string }
  | { class: 'rate_limited'; code: string; message: string; retryAfterMs: number | null }
  | { class: 'ambiguous'; code: string; message: string }
  | { class: 'rejected'; kind: RejectKind; code: string; message: string };

export type AfterOutcome =
  | { status: 'accepted'; providerMessageId: string }
  | { status: 'retrying'; reason: string; nextAttemptAt: Date }
  | { status: 'unknown' | 'failed' | 'expired' | 'dead'; reason: string };

/**
 * What a delivery becomes after `outcome` on attempt number `attemptNo` (1-based) at `now`:
 *  - accepted → `accepted`;
 *  - ambiguous → `unknown`: it may have gone out, so it is never retried blindly (invariant 6);
 *  - rejected → `failed` (permanent);
 *  - transient / rate_limited → `retrying` at now + backoff (Retry-After wins), under the same message key;
 *    `dead` when the attempt budget is spent; `expired` when the next attempt would not be before the
 *    reminder's expiry instant (a reminder is never sent late, invariant 7).
 * @param random a draw in [0, 1) for the jitter.
 */
export function decideAfterOutcome(input: {
  outcome: Outcome;
  attemptNo: number;
  now: Date;
  expiresAt: Date;
  policy: RetryPolicy;
  random: number;
}): AfterOutcome {
  const { outcome: o, attemptNo, now, expiresAt } = input;
  switch (o.class) {
    case 'accepted':
      return { status: 'accepted', providerMessageId: o.providerId };
    case 'ambiguous':
      return {
        status: 'unknown',
        reason: `ambiguous provider outcome (${o.code}: ${o.message}); the message may or may not have been sent — not resent automatically`,
      };
    case 'rejected':
      return { status: 'failed', reason: `rejected by the provider (${o.kind}, ${o.code}: ${o.message})` };
    case 'transient':
    case 'rate_limited': {
      const delay = nextAttemptDelayMs(input.policy, attemptNo, o.class === 'rate_limited' ? o.retryAfterMs : null, input.random);
      if (delay < 0) return { status: 'dead', reason: `gave up after ${attemptNo} attempts (last: ${o.code}: ${o.message})` };
      const nextAttemptAt = new Date(now.getTime() + delay);
      if (nextAttemptAt.getTime() >= expiresAt.getTime()) {
        return {
          status: 'expired',
          reason: `next attempt would be at ${nextAttemptAt.toISOString()}, after the expiry instant ${expiresAt.toISOString()} (last: ${o.code}: ${o.message})`,
        };
      }
      return { status: 'retrying', nextAttemptAt, reason: `${o.class} (${o.code}: ${o.message}); next attempt at ${nextAttemptAt.toISOString()}` };
    }
  }
}
