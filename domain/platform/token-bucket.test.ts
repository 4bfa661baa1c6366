import { describe, expect, it } from 'vitest';
import { returnToken, takeToken, type BucketPolicy } from './token-bucket';

const p: BucketPolicy = { capacity: 3, refillMs: 1000 };
const T0 = Date.UTC(2027, 0, 1);

/** Takes tokens at the given offsets (ms after T0) from a full bucket; returns what each take decided. */
function run(offsets: number[]) {
  let tat: number | null = null;
  return offsets.map((o) => {
    const r = takeToken(tat, T0 + o, p);
    if (r.allowed) tat = r.tat;
    return r.allowed ? `ok(${r.remaining})` : `wait(${r.retryAfterMs})`;
  });
}

/** How many tokens the bucket whose state is `tat` holds at `nowMs`, as a take sees it (it changes nothing). */
function tokensLeft(tat: number | null, nowMs: number): number {
  const r = takeToken(tat, nowMs, p);
  return r.allowed ? r.remaining + 1 : 0;
}

describe('token bucket (GCRA)', () => {
  it('a full bucket allows `capacity` at once, then refuses saying how long until the next token', () => {
    expect(run([0, 0, 0, 0, 0])).toEqual(['ok(2)', 'ok(1)', 'ok(0)', 'wait(1000)', 'wait(1000)']);
  });

  it('refills steadily: one token per refillMs, not a window that needs a silent minute', () => {
    expect(run([0, 0, 0, 400, 1000, 1500, 2000, 2000])).toEqual(['ok(2)', 'ok(1)', 'ok(0)', 'wait(600)', 'ok(0)', 'wait(500)', 'ok(0)', 'wait(1000)']);
  });

  it('a steady rate at the refill rate never runs dry, however long it goes on', () => {
    expect(run(Array.from({ length: 1000 }, (_, i) => i * 1000)).every((r) => r.startsWith('ok'))).toBe(true);
  });

  it('refused takes change nothing (knocking does not keep the bucket shut)', () => {
    let tat: number | null = null;
    for (let i = 0; i < 3; i++) tat = (takeToken(tat, T0, p) as { tat: number }).tat;
    for (let i = 0; i < 50; i++) expect(takeToken(tat, T0 + 10 * i, p).allowed).toBe(false);
    expect(takeToken(tat, T0 + 1000, p).allowed).toBe(true);
  });

  it('a quiet period refills up to capacity, never beyond', () => {
    let tat: number | null = null;
    for (let i = 0; i < 3; i++) tat = (takeToken(tat, T0, p) as { tat: number }).tat;
    expect(tokensLeft(tat, T0)).toBe(0);
    expect(tokensLeft(tat, T0 + 1000)).toBe(1);
    expect(tokensLeft(tat, T0 + 3000)).toBe(3);
    expect(tokensLeft(tat, T0 + 3_600_000)).toBe(3);
    expect(tokensLeft(null, T0)).toBe(3);
  });

  it('returnToken puts one back and never fills beyond full', () => {
    let tat = (takeToken(null, T0, p) as { tat: number }).tat;
    tat = (takeToken(tat, T0, p) as { tat: number }).tat;
    expect(tokensLeft(tat, T0)).toBe(1);
    tat = returnToken(tat, T0, p);
    expect(tokensLeft(tat, T0)).toBe(2);
    tat = returnToken(tat, T0, p);
    expect(tat).toBe(T0);
    expect(returnToken(tat, T0, p)).toBe(T0);
    expect(returnToken(null, T0, p)).toBe(T0);
  });
});
