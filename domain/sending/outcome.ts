/**
 * Provider outcomes (DESIGN §3 "Outcome") and what the send path does after one: a pure decision from the
 * outcome, the provider's idempotency, the retry budget and the reminder's expiry instant.
 *
 * Budgets: only real failures count against the policy's `maxAttempts` — an `ambiguous` answer from an
 * idempotent provider (a 5xx or a timeout after the request was written: the provider is misbehaving).
 * `transient` (nothing was handed over: connection refused, 4xx before DATA) and `rate_limited` (the provider
 * asked us to wait) are deferrals: they back off the same way but never exhaust the budget, so an outage or a
 * recovery burst that meets a rate limit cannot kill a reminder that is still inside its window. Deferrals
 * are bounded by the expiry instant (invariant 7), plus a ceiling of `maxDeferredAttempts`.
 */
import { nextAttemptDelayMs, type RetryPolicy } from './retry';
import type { RepairOwner, SuppressionReason } from '@/domain/vocabulary';

/**
 * Why a provider refused for good. `invalid_recipient`: the address or number cannot receive (→ `failed`, and
 * the address is suppressed, as `suppressAs` says or `bounced`); `endpoint_gone`: a webhook receiver answered
 * 410 Gone (→ dead letter owned by configuration, and the endpoint is disabled); `permission`: credentials or
 * account; `validation`: the message itself; `other`: anything else.
 */
export type RejectKind = 'invalid_recipient' | 'endpoint_gone' | 'validation' | 'permission' | 'other';

/**
 * Classified result of one provider call, as every channel adapter returns it. `response`: the provider's own
 * answer, verbatim (an SMTP reply such as `552 5.2.2 Mailbox full`), recorded on the attempt.
 */
export type Outcome =
  | { class: 'accepted'; providerId: string; response?: string }
  | { class: 'transient'; code: string; message: string; response?: string }
  | { class: 'rate_limited'; code: string; message: string; retryAfterMs: number | null; response?: string }
  | { class: 'ambiguous'; code: string; message: string; response?: string }
  | {
      class: 'rejected';
      kind: RejectKind;
      code: string;
      message: string;
      response?: string;
      /** For `invalid_recipient`: the suppression reason to record (default `bounced`): SMS `invalid_number`, `unsubscribed`. */
      suppressAs?: SuppressionReason;
    };

type AfterOutcome =
  | { status: 'accepted'; providerMessageId: string; countsAsFailure: false }
  | { status: 'retrying'; reason: string; nextAttemptAt: Date; countsAsFailure: boolean }
  | { status: 'unknown' | 'expired'; reason: string; countsAsFailure: boolean }
  /** `suppress`: the address is bad for good; add it to the suppression list. */
  | { status: 'failed'; reason: string; countsAsFailure: true; suppress: boolean; suppressAs?: SuppressionReason }
  /** `disableEndpoint`: a webhook receiver answered 410 Gone; the tenant's endpoint is switched off. */
  | { status: 'dead'; reason: string; countsAsFailure: boolean; repairOwner: RepairOwner; disableEndpoint?: boolean };

/** Deferred (transient or rate-limited) attempts allowed in all, whatever the expiry (a provider that never recovers). */
const maxDeferredAttempts = 100;

const rejectOwner: Record<Exclude<RejectKind, 'invalid_recipient'>, RepairOwner> = {
  endpoint_gone: 'configuration',
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
 *  - transient / rate_limited → `retrying` at now + backoff (Retry-After wins); `expired` when the next
 *    attempt would not be before the expiry instant; `dead` (owner provider) past `maxDeferredAttempts`;
 *  - ambiguous on an idempotent provider → `retrying` under the same key; `dead` when the budget is spent.
 * @param failuresSoFar budgeted failures before this attempt.
 * @param deferredSoFar transient and rate-limited attempts before this one.
 * @param random a draw in [0, 1) for the jitter.
 */
export function decideAfterOutcome(input: {
  outcome: Outcome;
  idempotentProvider: boolean;
  failuresSoFar: number;
  deferredSoFar: number;
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
    if (o.kind === 'invalid_recipient') return { status: 'failed', reason, countsAsFailure: true, suppress: true, suppressAs: o.suppressAs ?? 'bounced' };
    if (o.kind === 'endpoint_gone') return { status: 'dead', reason, countsAsFailure: true, repairOwner: 'configuration', disableEndpoint: true };
    return { status: 'dead', reason, countsAsFailure: true, repairOwner: rejectOwner[o.kind] };
  }
  const deferral = o.class !== 'ambiguous';
  const failures = input.failuresSoFar + (deferral ? 0 : 1);
  const last = `${o.class} (${o.code}: ${o.message})`;
  if (deferral && input.deferredSoFar + 1 >= maxDeferredAttempts) {
    return { status: 'dead', reason: `still failing after ${maxDeferredAttempts} deferred attempts (last: ${last})`, countsAsFailure: false, repairOwner: 'provider' };
  }
  // Deferrals back off by their own count, capped below the budget so they never read as exhausted.
  const delay = nextAttemptDelayMs(
    input.policy,
    deferral ? Math.min(input.deferredSoFar + 1, input.policy.maxAttempts - 1) : failures,
    o.class === 'rate_limited' ? o.retryAfterMs : null,
    input.random,
  );
  if (delay < 0) {
    return { status: 'dead', reason: `gave up after ${failures} failed attempts (last: ${last})`, countsAsFailure: true, repairOwner: 'provider' };
  }
  const nextAttemptAt = new Date(now.getTime() + delay);
  if (nextAttemptAt.getTime() >= expiresAt.getTime()) {
    return {
      status: 'expired',
      countsAsFailure: !deferral,
      reason: `next attempt would be at ${nextAttemptAt.toISOString()}, after the expiry instant ${expiresAt.toISOString()} (last: ${last})`,
    };
  }
  return {
    status: 'retrying',
    nextAttemptAt,
    countsAsFailure: !deferral,
    reason: `${last}${o.class === 'ambiguous' ? ' — retried under the same idempotency key' : ''}; next attempt at ${nextAttemptAt.toISOString()}`,
  };
}
