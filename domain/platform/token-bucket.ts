/**
 * A token bucket in its "virtual scheduling" form (GCRA, ITU-T I.371 — the same math as the provider send rate in
 * db/queries/platform/rate-limit.ts): a bucket holds at most `capacity` tokens and gains one every `refillMs`, steadily —
 * there is no window that resets only after a silent minute. Its whole state is one instant, the TAT
 * ("theoretical arrival time", epoch ms): the bucket is full when TAT ≤ now, and it holds
 * `floor((now + capacity·refillMs − max(TAT, now)) / refillMs)` tokens. Pure: the caller stores the TAT
 * (PostgreSQL, one row per bucket, locked while it decides) and passes the instant `now` (the database's clock).
 */

/** A bucket's size and refill rate. */
export interface BucketPolicy {
  /** Most tokens the bucket holds (the burst allowed after a quiet period). Whole number ≥ 1. */
  capacity: number;
  /** One token comes back every `refillMs` milliseconds. */
  refillMs: number;
}

/** What taking a token decided. */
type TakeResult =
  /** `tat`: the new state to store; `remaining`: tokens left after this one. */
  | { allowed: true; tat: number; remaining: number }
  /** The bucket is empty: nothing changes; one token is back after `retryAfterMs` (> 0). */
  | { allowed: false; retryAfterMs: number };

/**
 * Takes one token from the bucket whose state is `tat` (null: no state yet — a full bucket) at `nowMs`.
 * A refused take changes nothing, so knocking on an empty bucket does not keep it empty for longer.
 */
export function takeToken(tat: number | null, nowMs: number, p: BucketPolicy): TakeResult {
  const next = Math.max(tat ?? nowMs, nowMs) + p.refillMs;
  const limit = nowMs + p.capacity * p.refillMs;
  if (next > limit) return { allowed: false, retryAfterMs: next - limit };
  return { allowed: true, tat: next, remaining: Math.floor((limit - next) / p.refillMs) };
}

/**
 * Puts one token back (an attempt that turned out not to count), never above a full bucket.
 * @returns the new state; `nowMs` itself stands for "full".
 */
export function returnToken(tat: number | null, nowMs: number, p: BucketPolicy): number {
  return Math.max((tat ?? nowMs) - p.refillMs, nowMs);
}
