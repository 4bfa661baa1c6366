import { describe, expect, it } from 'vitest';
import { nextAttemptDelayMs } from './retry';

const policy = { baseMs: 1000, capMs: 8000, maxAttempts: 5 };

describe('nextAttemptDelayMs', () => {
  it.each([
    [1, null, 0.5, 500],
    [2, null, 0.5, 1000],
    [3, null, 0.999, 3996],
    [5 - 1, null, 0.5, 4000],
    [4, 60_000, 0.5, 60_000],
    [5, null, 0.5, -1],
    [5, 1000, 0.5, -1],
  ])('after %i attempts, retry-after %j, draw %d → %i ms', (n, ra, r, expected) => {
    expect(nextAttemptDelayMs(policy, n, ra, r)).toBe(expected);
  });
  it('never exceeds the cap', () => {
    expect(nextAttemptDelayMs({ ...policy, maxAttempts: 100 }, 40, null, 0.9999)).toBeLessThan(8000);
  });
});
