/**
 * Retry timing: bounded exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff
 * and Jitter", 2015): delay = random(0, min(cap, base · 2^(attempt−1))). A provider's Retry-After wins when
 * given (RFC 9110 §10.2.3). Pure: the random draw is an argument.
 */
export interface RetryPolicy {
  /** First backoff ceiling, ms. */
  baseMs: number;
  /** Largest backoff ceiling, ms. */
  capMs: number;
  /** Attempts allowed in all (the first call included). */
  maxAttempts: number;
}

export const defaultRetryPolicy: RetryPolicy = { baseMs: 5_000, capMs: 10 * 60_000, maxAttempts: 8 };

/**
 * Delay before the next attempt after `attemptsMade` attempts, in ms; −1 when the budget is spent.
 * @param retryAfterMs the provider's Retry-After in ms, or null.
 * @param random a draw in [0, 1).
 */
export function nextAttemptDelayMs(policy: RetryPolicy, attemptsMade: number, retryAfterMs: number | null, random: number): number {
  if (attemptsMade >= policy.maxAttempts) return -1;
  if (retryAfterMs !== null && retryAfterMs >= 0) return retryAfterMs;
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attemptsMade - 1));
  return Math.floor(random * ceiling);
}
