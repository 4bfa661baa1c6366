import { describe, expect, it } from 'vitest';
import { DueInstantError } from '@/domain/scheduling/due-instant';
import { applyQuietHours, describeQuietHours, parseQuietHours, QuietHoursError, quietHoursSchema, quietUntil, type QuietHours } from './quiet-hours';

const berlin = 'Europe/Berlin';
const night: QuietHours = { start: '21:00', end: '08:00' };
const at = (iso: string) => new Date(iso);
const apply = (dueAt: string, expiresAt: string, quiet: QuietHours | null = night, zone = berlin) =>
  applyQuietHours({ dueAt: at(dueAt), expiresAt: at(expiresAt), quiet, zone });

function firstError(input: unknown): string | null {
  const r = quietHoursSchema.safeParse(input);
  if (r.success) return null;
  const i = r.error.issues[0];
  const field = i.path.map(String).join('.');
  return field ? `${field}: ${i.message}` : i.message;
}

describe('quietHoursSchema', () => {
  it('accepts overnight and same-day windows', () => {
    expect(quietHoursSchema.parse({ start: '21:00', end: '08:00' })).toEqual({ start: '21:00', end: '08:00' });
    expect(quietHoursSchema.parse({ start: '12:00', end: '14:00' })).toEqual({ start: '12:00', end: '14:00' });
    expect(quietHoursSchema.parse({ start: '00:00', end: '23:59' })).toEqual({ start: '00:00', end: '23:59' });
  });
  it.each([
    [{ start: '9:00', end: '08:00' }, 'start: must be a 24-hour time like 21:00 or 08:00'],
    [{ start: '21:00', end: '24:00' }, 'end: must be a 24-hour time like 21:00 or 08:00'],
    [{ start: '21:00', end: '08:60' }, 'end: must be a 24-hour time like 21:00 or 08:00'],
    [{ start: 2100, end: '08:00' }, 'start: must be a 24-hour time like 21:00'],
    [{ end: '08:00' }, 'start: required: a 24-hour time like 21:00'],
    [{ start: '21:00', end: '21:00' }, 'end: must differ from start (for quiet hours overnight, end before start, e.g. 21:00–08:00)'],
    [{ start: '21:00', end: '08:00', zone: 'UTC' }, 'unknown field "zone" (expected start and end)'],
    ['21:00-08:00', 'must be an object with start and end, e.g. {"start": "21:00", "end": "08:00"}'],
  ])('refuses %j naming the field', (input, message) => {
    expect(firstError(input)).toBe(message);
  });
});

describe('parseQuietHours', () => {
  it.each([
    [{ start: '21:00', end: '08:00' }, night],
    [{ start: '21:00', end: '08:00', extra: 1 }, night],
    ['{"start":"12:00","end":"14:00"}', { start: '12:00', end: '14:00' }],
    [null, null],
    [undefined, null],
    ['nonsense', null],
    [{ start: '21:00' }, null],
    [{ start: '21:00', end: '21:00' }, null],
    [{ start: '25:00', end: '08:00' }, null],
    [{ start: 21, end: 8 }, null],
    [['21:00', '08:00'], null],
  ])('%j → %j', (stored, expected) => {
    expect(parseQuietHours(stored)).toEqual(expected);
  });
});

describe('applyQuietHours', () => {
  it('issue #9: due 07:30 CET inside 21:00–08:00 moves to 08:00 CET when that is before expiry', () => {
    expect(apply('2027-03-10T06:30:00Z', '2027-03-10T09:00:00Z')).toEqual({
      dueAt: at('2027-03-10T07:00:00Z'),
      deferredFrom: at('2027-03-10T06:30:00Z'),
      reason: 'in quiet hours 21:00–08:00 (Europe/Berlin): deferred to 08:00',
    });
  });
  it('issue #9: same, but expiring 06:45Z (before quiet hours end) keeps its due instant', () => {
    expect(apply('2027-03-10T06:30:00Z', '2027-03-10T06:45:00Z')).toEqual({
      dueAt: at('2027-03-10T06:30:00Z'),
      deferredFrom: null,
      reason: 'in quiet hours 21:00–08:00 (Europe/Berlin), which end at 08:00, not before the late-send window closes: sent at its due time',
    });
  });
  it('a window end equal to the expiry instant is not strictly before it: unchanged', () => {
    expect(apply('2027-03-10T06:30:00Z', '2027-03-10T07:00:00Z').dueAt).toEqual(at('2027-03-10T06:30:00Z'));
    expect(apply('2027-03-10T06:30:00Z', '2027-03-10T07:00:00.001Z').dueAt).toEqual(at('2027-03-10T07:00:00Z'));
  });
  it('due 22:00 local moves to 08:00 the next morning', () => {
    const r = apply('2027-03-10T21:00:00Z', '2027-03-11T12:00:00Z');
    expect(r.dueAt).toEqual(at('2027-03-11T07:00:00Z'));
    expect(r.deferredFrom).toEqual(at('2027-03-10T21:00:00Z'));
  });
  it('due just before midnight and just after it end at the same morning', () => {
    expect(apply('2027-03-10T22:59:00Z', '2027-03-12T00:00:00Z').dueAt).toEqual(at('2027-03-11T07:00:00Z'));
    expect(apply('2027-03-10T23:01:00Z', '2027-03-12T00:00:00Z').dueAt).toEqual(at('2027-03-11T07:00:00Z'));
  });
  it('due outside quiet hours: unchanged, no reason', () => {
    expect(apply('2027-03-10T11:00:00Z', '2027-03-10T12:00:00Z')).toEqual({ dueAt: at('2027-03-10T11:00:00Z'), deferredFrom: null, reason: null });
    expect(apply('2027-03-10T19:59:59.999Z', '2027-03-11T12:00:00Z').deferredFrom).toBeNull(); // 20:59:59.999 local
  });
  it('no quiet hours: unchanged (the zone is not even read)', () => {
    expect(apply('2027-03-10T06:30:00Z', '2027-03-10T09:00:00Z', null, 'Not/AZone')).toEqual({ dueAt: at('2027-03-10T06:30:00Z'), deferredFrom: null, reason: null });
  });
  it('due exactly at the end instant: unchanged', () => {
    expect(apply('2027-03-10T07:00:00Z', '2027-03-10T09:00:00Z')).toEqual({ dueAt: at('2027-03-10T07:00:00Z'), deferredFrom: null, reason: null });
    expect(apply('2027-03-10T06:59:59.999Z', '2027-03-10T09:00:00Z').dueAt).toEqual(at('2027-03-10T07:00:00Z'));
  });
  it('due exactly at the start instant: moved', () => {
    expect(apply('2027-03-10T20:00:00Z', '2027-03-11T12:00:00Z').dueAt).toEqual(at('2027-03-11T07:00:00Z'));
  });
  describe('a same-day window 12:00–14:00', () => {
    const lunch: QuietHours = { start: '12:00', end: '14:00' };
    it('inside moves to 14:00 the same day', () => {
      expect(apply('2027-03-10T12:30:00Z', '2027-03-10T18:00:00Z', lunch).dueAt).toEqual(at('2027-03-10T13:00:00Z')); // 13:30 → 14:00 CET
      expect(apply('2027-03-10T11:00:00Z', '2027-03-10T18:00:00Z', lunch).dueAt).toEqual(at('2027-03-10T13:00:00Z')); // at start
    });
    it('before and after it: unchanged', () => {
      expect(apply('2027-03-10T10:59:00Z', '2027-03-10T18:00:00Z', lunch).deferredFrom).toBeNull();
      expect(apply('2027-03-10T13:00:00Z', '2027-03-10T18:00:00Z', lunch).deferredFrom).toBeNull(); // at end
      expect(apply('2027-03-10T22:00:00Z', '2027-03-11T18:00:00Z', lunch).deferredFrom).toBeNull(); // night is not quiet
    });
  });
  describe('DST change days in Europe/Berlin (2027-03-28 02:00→03:00, 2027-10-31 03:00→02:00)', () => {
    it('spring forward: 21:00–08:00 across the night ends at 08:00 CEST (06:00Z), not 08:00 CET', () => {
      expect(apply('2027-03-27T20:00:00Z', '2027-03-28T12:00:00Z').dueAt).toEqual(at('2027-03-28T06:00:00Z')); // 21:00 CET
      expect(apply('2027-03-28T01:30:00Z', '2027-03-28T12:00:00Z').dueAt).toEqual(at('2027-03-28T06:00:00Z')); // 03:30 CEST
      expect(apply('2027-03-28T06:00:00Z', '2027-03-28T12:00:00Z').deferredFrom).toBeNull(); // 08:00 CEST: the end
    });
    it('fall back: 21:00–08:00 across the night ends at 08:00 CET (07:00Z)', () => {
      expect(apply('2027-10-30T19:00:00Z', '2027-10-31T12:00:00Z').dueAt).toEqual(at('2027-10-31T07:00:00Z')); // 21:00 CEST
      expect(apply('2027-10-31T01:30:00Z', '2027-10-31T12:00:00Z').dueAt).toEqual(at('2027-10-31T07:00:00Z')); // 02:30 CET
      expect(apply('2027-10-31T06:59:00Z', '2027-10-31T12:00:00Z').dueAt).toEqual(at('2027-10-31T07:00:00Z'));
    });
    it('an end in the spring-forward gap resolves forward by the gap: 02:30 → 03:30 CEST', () => {
      const q: QuietHours = { start: '22:00', end: '02:30' };
      expect(apply('2027-03-28T00:30:00Z', '2027-03-28T12:00:00Z', q)).toEqual({
        dueAt: at('2027-03-28T01:30:00Z'),
        deferredFrom: at('2027-03-28T00:30:00Z'),
        reason: 'in quiet hours 22:00–02:30 (Europe/Berlin): deferred to 03:30',
      }); // 01:30 CET
      // 03:10 CEST: the clock already shows a time after 02:30, so it is not quiet.
      expect(apply('2027-03-28T01:10:00Z', '2027-03-28T12:00:00Z', q).deferredFrom).toBeNull();
    });
    it('a start in the spring-forward gap: quiet from the moment the clock jumps past it', () => {
      const q: QuietHours = { start: '02:30', end: '06:00' };
      expect(apply('2027-03-28T00:59:00Z', '2027-03-28T12:00:00Z', q).deferredFrom).toBeNull(); // 01:59 CET
      expect(apply('2027-03-28T01:00:00Z', '2027-03-28T12:00:00Z', q).dueAt).toEqual(at('2027-03-28T04:00:00Z')); // 03:00 CEST → 06:00 CEST
    });
    it('an end in the repeated fall-back hour: the earlier 02:30, or the later one when due in the repeat', () => {
      const q: QuietHours = { start: '22:00', end: '02:30' };
      expect(apply('2027-10-31T00:15:00Z', '2027-10-31T12:00:00Z', q).dueAt).toEqual(at('2027-10-31T00:30:00Z')); // 02:15 CEST → 02:30 CEST
      expect(apply('2027-10-31T00:30:00Z', '2027-10-31T12:00:00Z', q).deferredFrom).toBeNull(); // 02:30 CEST: the end
      expect(apply('2027-10-31T00:45:00Z', '2027-10-31T12:00:00Z', q).deferredFrom).toBeNull(); // 02:45 CEST
      expect(apply('2027-10-31T01:15:00Z', '2027-10-31T12:00:00Z', q).dueAt).toEqual(at('2027-10-31T01:30:00Z')); // 02:15 CET → 02:30 CET
    });
  });
  it('reads the wall clock in the given zone', () => {
    // 06:30Z is 01:30 in New York (quiet) but 07:30 in Berlin (quiet) and 15:30 in Tokyo (not quiet).
    expect(apply('2027-03-10T06:30:00Z', '2027-03-10T20:00:00Z', night, 'America/New_York').dueAt).toEqual(at('2027-03-10T13:00:00Z')); // 08:00 EST
    expect(apply('2027-03-10T06:30:00Z', '2027-03-10T20:00:00Z', night, 'Asia/Tokyo').deferredFrom).toBeNull();
  });
  it('throws for malformed quiet hours or an unknown zone', () => {
    expect(() => apply('2027-03-10T06:30:00Z', '2027-03-10T09:00:00Z', { start: '08:00', end: '08:00' })).toThrow(QuietHoursError);
    expect(() => apply('2027-03-10T06:30:00Z', '2027-03-10T09:00:00Z', { start: '8', end: '09:00' })).toThrow(QuietHoursError);
    expect(() => apply('2027-03-10T06:30:00Z', '2027-03-10T09:00:00Z', night, 'Mars/Olympus')).toThrow(DueInstantError);
  });
});

describe('quietUntil', () => {
  it('the end of the window an instant is in, or null', () => {
    expect(quietUntil(at('2027-03-10T06:30:00Z'), night, berlin)).toEqual(at('2027-03-10T07:00:00Z'));
    expect(quietUntil(at('2027-03-10T12:00:00Z'), night, berlin)).toBeNull();
  });
});

describe('describeQuietHours', () => {
  it('names the window and the zone', () => {
    expect(describeQuietHours(night, berlin)).toBe('quiet 21:00–08:00 (Europe/Berlin)');
    expect(describeQuietHours({ start: '12:00', end: '14:00' }, 'UTC')).toBe('quiet 12:00–14:00 (UTC)');
  });
});
