/**
 * An idle worker's own polling (jobs/worker.ts): graphile-worker polls per task slot, so its per-slot interval is the
 * wake timer's interval × concurrency — the slots together fetch about once per interval, whatever the concurrency —
 * within [interval, 60 s].
 */
import { describe, expect, it } from 'vitest';
import { slotPollIntervalMs } from '@/jobs/worker';

describe('slotPollIntervalMs', () => {
  it('spreads the slots: interval × concurrency', () => {
    expect(slotPollIntervalMs(2000, 10)).toBe(20_000);
    expect(slotPollIntervalMs(500, 8)).toBe(4_000);
  });
  it('is never shorter than the interval, nor longer than a minute', () => {
    expect(slotPollIntervalMs(2000, 1)).toBe(2000);
    expect(slotPollIntervalMs(2000, 50)).toBe(60_000);
    expect(slotPollIntervalMs(90_000, 10)).toBe(90_000);
  });
});
