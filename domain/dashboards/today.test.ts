import { describe, expect, it } from 'vitest';
import {
  dayWindow,
  deskStatus,
  moreParticipants,
  noEventsTitle,
  nowAndNext,
  parseReminderWindowHours,
  reminderWindow,
  remindersDueText,
  startsIn,
  todayHeading,
} from './today';

const iso = (d: Date) => d.toISOString();

describe('dayWindow: the calendar day in a zone as [start, end) UTC instants', () => {
  it.each<[string, string, string, string, string, number]>([
    // zone, an instant in the day, local date, start, end, hours
    ['Europe/Amsterdam', '2027-06-15T12:00:00Z', '2027-06-15', '2027-06-14T22:00:00.000Z', '2027-06-15T22:00:00.000Z', 24],
    // Spring forward (last Sunday of March, 01:00 UTC): 23 hours.
    ['Europe/London', '2027-03-28T12:00:00Z', '2027-03-28', '2027-03-28T00:00:00.000Z', '2027-03-28T23:00:00.000Z', 23],
    ['Europe/Amsterdam', '2027-03-28T12:00:00Z', '2027-03-28', '2027-03-27T23:00:00.000Z', '2027-03-28T22:00:00.000Z', 23],
    // Fall back (last Sunday of October): 25 hours.
    ['Europe/London', '2027-10-31T12:00:00Z', '2027-10-31', '2027-10-30T23:00:00.000Z', '2027-11-01T00:00:00.000Z', 25],
    ['Europe/Amsterdam', '2027-10-31T12:00:00Z', '2027-10-31', '2027-10-30T22:00:00.000Z', '2027-10-31T23:00:00.000Z', 25],
    // Quarter-hour offsets: Kathmandu +05:45 all year; Chatham +12:45 / +13:45, back on the first Sunday of April.
    ['Asia/Kathmandu', '2027-06-15T12:00:00Z', '2027-06-15', '2027-06-14T18:15:00.000Z', '2027-06-15T18:15:00.000Z', 24],
    ['Pacific/Chatham', '2027-06-15T00:00:00Z', '2027-06-15', '2027-06-14T11:15:00.000Z', '2027-06-15T11:15:00.000Z', 24],
    ['Pacific/Chatham', '2027-04-04T00:00:00Z', '2027-04-04', '2027-04-03T10:15:00.000Z', '2027-04-04T11:15:00.000Z', 25],
    // A half-hour DST change: Lord Howe goes back 30 minutes on the first Sunday of April.
    ['Australia/Lord_Howe', '2027-04-04T00:00:00Z', '2027-04-04', '2027-04-03T13:00:00.000Z', '2027-04-04T13:30:00.000Z', 24.5],
  ])('%s around %s is %s: [%s, %s), %d h', (zone, at, date, start, end, hours) => {
    const d = dayWindow(zone, new Date(at));
    expect({ date: d.date, start: iso(d.start), end: iso(d.end), hours: d.hours, zone: d.zone }).toEqual({ date, start, end, hours, zone });
  });

  it('the day is not the UTC day: 00:30 UTC is already tomorrow in Amsterdam, still yesterday in New York', () => {
    expect(dayWindow('Europe/Amsterdam', new Date('2027-06-15T00:30:00Z')).date).toBe('2027-06-15');
    expect(dayWindow('America/New_York', new Date('2027-06-15T00:30:00Z')).date).toBe('2027-06-14');
  });

  it('start is inclusive, end exclusive: the last millisecond belongs to the day, the next midnight to the next day', () => {
    const d = dayWindow('Asia/Kathmandu', new Date('2027-06-15T12:00:00Z'));
    expect(dayWindow('Asia/Kathmandu', d.start).date).toBe('2027-06-15');
    expect(dayWindow('Asia/Kathmandu', new Date(d.end.getTime() - 1)).date).toBe('2027-06-15');
    expect(dayWindow('Asia/Kathmandu', d.end).date).toBe('2027-06-16');
  });

  it('every instant of a DST day maps to the same window (00:30 and 23:30 local on the Amsterdam fall-back day)', () => {
    const early = dayWindow('Europe/Amsterdam', new Date('2027-10-30T22:30:00Z')); // 00:30 CEST
    const late = dayWindow('Europe/Amsterdam', new Date('2027-10-31T22:30:00Z')); // 23:30 CET
    expect(iso(early.start)).toBe(iso(late.start));
    expect(early.date).toBe('2027-10-31');
    expect(dayWindow('Europe/Amsterdam', new Date('2027-10-30T21:59:00Z')).date).toBe('2027-10-30'); // 23:59 the day before
  });

  it('a day whose midnight does not exist starts at its first instant (Santiago, DST at 24:00)', () => {
    const d = dayWindow('America/Santiago', new Date('2027-09-05T12:00:00Z'));
    expect(d.date).toBe('2027-09-05');
    expect(iso(d.start)).toBe('2027-09-05T04:00:00.000Z'); // 01:00 −03, the first local time of that day
    expect(d.hours).toBe(23);
  });

  it('an unknown zone is an error naming it', () => {
    expect(() => dayWindow('Mars/Olympus', new Date('2027-06-15T12:00:00Z'))).toThrow(/Mars\/Olympus/);
  });
});

describe('todayHeading', () => {
  it('weekday, day and month in the tenant zone, then the zone', () => {
    expect(todayHeading(dayWindow('Europe/Amsterdam', new Date('2026-12-01T08:00:00Z')))).toBe('Tuesday 1 December · Europe/Amsterdam');
    // 23:30 UTC on 30 Nov is already 1 December in Amsterdam.
    expect(todayHeading(dayWindow('Europe/Amsterdam', new Date('2026-11-30T23:30:00Z')))).toBe('Tuesday 1 December · Europe/Amsterdam');
  });
});

describe('reminder windows', () => {
  it('1/3/6/12 hours; anything else is the default 3', () => {
    expect([1, 3, 6, 12].map((h) => parseReminderWindowHours(String(h)))).toEqual([1, 3, 6, 12]);
    expect(parseReminderWindowHours(null)).toBe(3);
    expect(parseReminderWindowHours('24')).toBe(3);
    expect(parseReminderWindowHours('abc')).toBe(3);
  });
  it('the window is elapsed time: 15 minutes back (just sent), N hours ahead — across a DST change too', () => {
    // 2027-03-28 00:30 UTC: Amsterdam springs forward at 01:00 UTC inside the window; it stays 3 h of elapsed time.
    const w = reminderWindow(new Date('2027-03-28T00:30:00Z'), 3);
    expect([iso(w.from), iso(w.to)]).toEqual(['2027-03-28T00:15:00.000Z', '2027-03-28T03:30:00.000Z']);
    expect(iso(reminderWindow(new Date('2027-03-28T00:30:00Z'), 12).to)).toBe('2027-03-28T12:30:00.000Z');
  });
  it('the count line says what it counts', () => {
    expect(remindersDueText(1, 1)).toBe('1 message due between 15 minutes ago and 1 hour from now');
    expect(remindersDueText(12, 3)).toBe('12 messages due between 15 minutes ago and 3 hours from now');
  });
});

describe('deskStatus', () => {
  it.each<[Parameters<typeof deskStatus>[0], Parameters<typeof deskStatus>[1], string]>([
    ['scheduled', null, 'waiting'],
    ['dispatched', null, 'claimed'],
    ['done', 'claimed', 'claimed'],
    ['done', 'sending', 'claimed'],
    ['done', 'retrying', 'claimed'],
    ['done', 'accepted', 'sent'],
    ['done', 'delivered', 'sent'],
    ['done', 'unknown', 'unknown'],
    ['done', 'dead', 'not sent'],
    ['done', 'suppressed', 'not sent'],
    ['expired', null, 'not sent'],
    ['cancelled', null, 'not sent'],
  ])('%s with delivery %s → %s', (r, d, want) => {
    expect(deskStatus(r, d)).toBe(want);
  });
});

describe('nowAndNext', () => {
  const ev = (id: string, start: string, end: string, status: 'scheduled' | 'cancelled' = 'scheduled') => ({
    id,
    startsAt: new Date(start),
    endsAt: new Date(end),
    status,
  });
  const day = [
    ev('breakfast', '2027-06-15T07:00:00Z', '2027-06-15T08:00:00Z'),
    ev('talk', '2027-06-15T09:00:00Z', '2027-06-15T10:00:00Z'),
    ev('workshop', '2027-06-15T09:30:00Z', '2027-06-15T12:00:00Z'),
    ev('cancelled', '2027-06-15T10:30:00Z', '2027-06-15T11:00:00Z', 'cancelled'),
    ev('lunch', '2027-06-15T12:00:00Z', '2027-06-15T13:00:00Z'),
  ];
  it('what runs now (start inclusive, end exclusive) and the next start; cancelled ones are neither', () => {
    const r = nowAndNext(day, new Date('2027-06-15T09:45:00Z'));
    expect(r.now.map((e) => e.id)).toEqual(['talk', 'workshop']);
    expect(r.next?.id).toBe('lunch');
    expect(nowAndNext(day, new Date('2027-06-15T10:00:00Z')).now.map((e) => e.id)).toEqual(['workshop']);
  });
  it('nothing left today', () => {
    expect(nowAndNext(day, new Date('2027-06-15T13:00:00Z'))).toEqual({ now: [], next: null });
  });
});

describe('texts', () => {
  it('truncated participant list', () => {
    expect(moreParticipants(50, 2000)).toBe('and 1,950 more — open the event');
    expect(moreParticipants(12, 12)).toBeNull();
  });
  it('empty events', () => {
    expect(noEventsTitle('Europe/Amsterdam')).toBe('No events today in Europe/Amsterdam.');
  });
});

describe('startsIn', () => {
  const now = new Date('2027-06-15T09:00:00Z');
  it.each<[string, string]>([
    ['2027-06-15T09:00:30Z', 'now'],
    ['2027-06-15T09:25:59Z', 'in 25 min'],
    ['2027-06-15T11:00:00Z', 'in 2 h'],
    ['2027-06-15T11:05:00Z', 'in 2 h 5 min'],
  ])('%s → %s', (start, want) => {
    expect(startsIn(now, new Date(start))).toBe(want);
  });
});
