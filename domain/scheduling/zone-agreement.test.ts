import { describe, expect, it } from 'vitest';
import { findMatchingZone, ianaOffsetAt, offsetsAgree, type OffsetAt } from './zone-agreement';

const Y2027 = [Date.UTC(2027, 0, 1), Date.UTC(2028, 0, 1)] as const;
/** British rules: +01:00 from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October 2027. */
const british: OffsetAt = (ms) => (ms >= Date.UTC(2027, 2, 28, 1) && ms < Date.UTC(2027, 9, 31, 1) ? 60 : 0);
/** The same but switching at 02:00 UTC: differs from Europe/London for one hour on each change day. */
const lateSwitch: OffsetAt = (ms) => (ms >= Date.UTC(2027, 2, 28, 2) && ms < Date.UTC(2027, 9, 31, 2) ? 60 : 0);

describe('offsetsAgree', () => {
  it.each<[string, OffsetAt, OffsetAt, boolean]>([
    ['British rules vs Europe/London', british, ianaOffsetAt('Europe/London'), true],
    ['British rules vs UTC (the GMT name)', british, () => 0, false],
    ['a transition one hour later on the same day (DST case)', lateSwitch, ianaOffsetAt('Europe/London'), false],
    ['Europe/Berlin vs Europe/Paris', ianaOffsetAt('Europe/Berlin'), ianaOffsetAt('Europe/Paris'), true],
    ['America/New_York vs America/Chicago', ianaOffsetAt('America/New_York'), ianaOffsetAt('America/Chicago'), false],
  ])('%s → %s', (_n, a, b, want) => {
    expect(offsetsAgree(a, b, ...Y2027)).toBe(want);
  });
});

describe('findMatchingZone', () => {
  it('takes the first candidate that agrees, skipping invalid names', () => {
    expect(findMatchingZone(british, ...Y2027, ['Nowhere/Nothing', 'UTC', 'Europe/Dublin', 'Europe/London'])).toBe('Europe/Dublin');
    expect(findMatchingZone(british, ...Y2027, ['Europe/London', 'Europe/Dublin'])).toBe('Europe/London');
  });

  it('null when none agrees', () => {
    expect(findMatchingZone(() => 197, ...Y2027, ['Asia/Kolkata', 'UTC'])).toBeNull();
  });
});
