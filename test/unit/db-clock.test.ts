import { describe, expect, it } from 'vitest';
import { dbClock } from '@/server/platform/clock';

describe('dbClock', () => {
  it('reads the sampled database time, not the host clock, plus the test-only offset', async () => {
    // A "database" 7 s ahead of this host.
    let call = 0;
    const sample = async () => {
      const slow = call++ === 1;
      if (slow) await new Promise((r) => setTimeout(r, 50));
      return Date.now() + 7000 - (slow ? 40 : 0);
    };
    const clock = dbClock(sample, { roundTrips: 3 });
    const shifted = dbClock(async () => Date.now() + 7000, { offsetMs: -2000 });
    try {
      await Promise.all([clock.ready, shifted.ready]);
      expect(Math.abs(clock.now().getTime() - (Date.now() + 7000))).toBeLessThan(100);
      expect(clock.skewMs).toBeGreaterThan(6900);
      expect(Math.abs(shifted.now().getTime() - (Date.now() + 5000))).toBeLessThan(100);
    } finally {
      clock.stop();
      shifted.stop();
    }
  });

  it('keeps its last estimate when a re-sample fails, and retries the first sample until it succeeds', async () => {
    let fail = true;
    const errors: string[] = [];
    const clock = dbClock(
      async () => {
        if (fail) throw new Error('connection refused');
        return Date.now() - 3000;
      },
      { onError: (e) => errors.push(e.message) },
    );
    try {
      await new Promise((r) => setTimeout(r, 150));
      fail = false;
      await clock.ready;
      expect(errors[0]).toBe('connection refused');
      expect(Math.abs(clock.now().getTime() - (Date.now() - 3000))).toBeLessThan(100);
      fail = true;
      await expect(clock.sync()).rejects.toThrow('connection refused');
      expect(Math.abs(clock.now().getTime() - (Date.now() - 3000))).toBeLessThan(100);
    } finally {
      clock.stop();
    }
  });
});
