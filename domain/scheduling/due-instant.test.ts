import { describe, expect, it } from 'vitest';
import { applyOffset, DueInstantError, fromLocal, MAX_OFFSET_DAYS, offsetMagnitudeDays, parseOffset } from './due-instant';

const iso = (d: Date) => d.toISOString().replace('.000Z', 'Z');

describe('applyOffset (DST-correct due instants)', () => {
  it.each([
    // [case, anchor UTC, zone, offset, expected due UTC]
    ['spring DST, elapsed 24 h', '2027-03-28T09:00:00Z', 'Europe/Amsterdam', '-PT24H', '2027-03-27T09:00:00Z'],
    ['spring DST, calendar day keeps 11:00', '2027-03-28T09:00:00Z', 'Europe/Amsterdam', '-P1D', '2027-03-27T10:00:00Z'],
    ['autumn DST, elapsed 24 h', '2027-11-07T17:00:00Z', 'America/New_York', '-PT24H', '2027-11-06T17:00:00Z'],
    ['autumn DST, calendar day keeps 12:00', '2027-11-07T17:00:00Z', 'America/New_York', '-P1D', '2027-11-06T16:00:00Z'],
    ['nonexistent 02:30 moves forward to 03:30 EDT', '2027-03-15T06:30:00Z', 'America/New_York', '-P1D', '2027-03-14T07:30:00Z'],
    ['all-day Berlin, 15 h before local midnight', '2027-10-17T22:00:00Z', 'Europe/Berlin', '-PT15H', '2027-10-17T07:00:00Z'],
    ['all-day New York, 15 h before local midnight', '2027-10-18T04:00:00Z', 'America/New_York', '-PT15H', '2027-10-17T13:00:00Z'],
    ['plain hours', '2027-06-15T08:00:00Z', 'Europe/Amsterdam', '-PT1H', '2027-06-15T07:00:00Z'],
    ['zero offset', '2027-06-15T08:00:00Z', 'Europe/Amsterdam', 'PT0S', '2027-06-15T08:00:00Z'],
    ['positive offset after the anchor', '2027-06-15T08:00:00Z', 'Europe/Amsterdam', 'PT30M', '2027-06-15T08:30:00Z'],
    ['week keeps wall clock over DST', '2027-04-01T09:00:00Z', 'Europe/Amsterdam', '-P1W', '2027-03-25T10:00:00Z'],
    ['month clamps to month end', '2027-03-31T10:00:00Z', 'UTC', '-P1M', '2027-02-28T10:00:00Z'],
    ['calendar then elapsed', '2027-03-28T09:00:00Z', 'Europe/Amsterdam', '-P1DT2H', '2027-03-27T08:00:00Z'],
    ['ambiguous 01:30 takes the earlier (EDT) instant', '2027-11-08T06:30:00Z', 'America/New_York', '-P1D', '2027-11-07T05:30:00Z'],
    ['southern hemisphere spring gap (Sydney 02:30 → 03:30)', '2027-10-03T16:30:00Z', 'Australia/Sydney', '-P1D', '2027-10-02T16:30:00Z'],
    ['half-hour zone', '2027-01-10T04:30:00Z', 'Asia/Kolkata', '-P1D', '2027-01-09T04:30:00Z'],
  ])('%s', (_name, anchor, zone, offset, expected) => {
    expect(iso(applyOffset(new Date(anchor), offset, zone))).toBe(expected);
  });

  it.each(['P', '-P', 'P1DT', '1D', '-PT', 'P1H', '', 'PT-1H', 'abc'])('rejects offset %j', (offset) => {
    expect(() => applyOffset(new Date('2027-01-01T00:00:00Z'), offset, 'UTC')).toThrow(DueInstantError);
  });

  it('rejects an unknown zone naming the field', () => {
    try {
      applyOffset(new Date('2027-01-01T00:00:00Z'), '-PT1H', 'Mars/Olympus');
      expect.unreachable();
    } catch (e) {
      expect((e as DueInstantError).field).toBe('timeZone');
    }
  });
});

describe('fromLocal', () => {
  it('resolves a repeated time to the earlier instant and a skipped time forward', () => {
    const base = { second: 0, millisecond: 0 };
    expect(iso(fromLocal({ year: 2027, month: 10, day: 31, hour: 2, minute: 30, ...base }, 'Europe/Amsterdam'))).toBe(
      '2027-10-31T00:30:00Z',
    );
    expect(iso(fromLocal({ year: 2027, month: 3, day: 28, hour: 2, minute: 30, ...base }, 'Europe/Amsterdam'))).toBe(
      '2027-03-28T01:30:00Z',
    );
  });
});

describe('parseOffset', () => {
  it('splits calendar and elapsed parts', () => {
    expect(parseOffset('-P1DT2H30M')).toEqual({ sign: -1, years: 0, months: 0, weeks: 0, days: 1, elapsedMs: 9_000_000 });
  });
});

describe('offset magnitude (reminder rules allow at most a year)', () => {
  it.each(['-P300000Y', '-P1000000D', '-PT9999999999999999999H', '-P2Y', '-P367D'])('%s is more than a year', (o) => {
    expect(offsetMagnitudeDays(parseOffset(o))).toBeGreaterThan(MAX_OFFSET_DAYS);
  });
  it.each(['-P1Y', '-P366D', '-P52W', '-PT8784H', 'PT0S'])('%s is within a year', (o) => {
    expect(offsetMagnitudeDays(parseOffset(o))).toBeLessThanOrEqual(MAX_OFFSET_DAYS);
  });
});
