/**
 * iCalendar invitations (domain/calendar/calendar-invite.ts, issue #9 §6): exact text for the scenario, iTIP
 * sequencing across reschedules and the cancellation, instants read back by an independent parser (ical.js)
 * across DST in several zones, all-day dates, RFC 5545 escaping and folding, and input errors.
 */
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  buildCalendarInvite,
  CALENDAR_INVITE_PRODID,
  calendarInviteFilename,
  CalendarInviteError,
  type CalendarInviteInput,
} from './calendar-invite';
import { zoneNames } from '@/domain/zones';

type Component = InstanceType<typeof ICAL.Component>;
type Property = InstanceType<typeof ICAL.Property>;

const UID = 'booking-7c9e6679-7425-40de-944b-e07fc1f90ae7@punctual.local';

/** The scenario: 2027-07-01 10:00 in Lisbon (WEST, +01:00) = 09:00Z, one hour long. */
const base: CalendarInviteInput = {
  method: 'REQUEST',
  uid: UID,
  sequence: 0,
  title: 'Pottery workshop',
  description: 'Bring an apron.',
  location: 'Rua Augusta 1, Lisboa',
  url: 'https://punctual.example/bookings/7c9e6679',
  startsAt: new Date('2027-07-01T09:00:00Z'),
  endsAt: new Date('2027-07-01T10:00:00Z'),
  allDay: false,
  timeZone: 'Europe/Lisbon',
  organizer: { name: 'Acme Events', email: 'events@acme.example' },
  attendee: { name: 'Ana Silva', email: 'ana@example.com' },
  stamp: new Date('2027-06-15T12:34:56Z'),
};

const invite = (change: Partial<CalendarInviteInput> = {}) => buildCalendarInvite({ ...base, ...change });

/** Unfolded content lines (RFC 5545 §3.1). */
const lines = (ics: string) => ics.replace(/\r\n[ \t]/g, '').split('\r\n');

function parse(ics: string): { cal: Component; vevent: Component } {
  const cal = new ICAL.Component(ICAL.parse(ics));
  const vevents = cal.getAllSubcomponents('vevent');
  expect(vevents).toHaveLength(1);
  return { cal, vevent: vevents[0] };
}

/**
 * The UTC instant a DTSTART/DTEND means, the way a client that follows RFC 5545 reads it: a TZID value through
 * the calendar's own VTIMEZONE of that TZID (which must be there), a `Z` value as UTC.
 */
function instantOf(cal: Component, prop: Property | null): string {
  expect(prop).not.toBeNull();
  const t = prop!.getFirstValue() as InstanceType<typeof ICAL.Time>;
  const tzid = prop!.getParameter('tzid') as string | undefined;
  if (!tzid) {
    expect(t.zone?.tzid).toBe('UTC');
    return new Date(t.toUnixTime() * 1000).toISOString();
  }
  const vtz = cal.getAllSubcomponents('vtimezone').find((c) => c.getFirstPropertyValue('tzid') === tzid);
  expect(vtz, `VTIMEZONE ${tzid}`).toBeDefined();
  const zone = new ICAL.Timezone(vtz!);
  const local = ICAL.Time.fromData({ year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second, isDate: false }, zone);
  return new Date(local.toUnixTime() * 1000).toISOString();
}

const startOf = (ics: string) => {
  const { cal, vevent } = parse(ics);
  return instantOf(cal, vevent.getFirstProperty('dtstart'));
};
const endOf = (ics: string) => {
  const { cal, vevent } = parse(ics);
  return instantOf(cal, vevent.getFirstProperty('dtend'));
};

describe('the issue scenario: 2027-07-01 10:00 Europe/Lisbon, sequence 0', () => {
  const ics = invite();

  it('writes the wall-clock time in the event zone with its VTIMEZONE', () => {
    expect(ics).toContain('\r\nDTSTART;TZID=Europe/Lisbon:20270701T100000\r\n');
    expect(ics).toContain('\r\nDTEND;TZID=Europe/Lisbon:20270701T110000\r\n');
    expect(ics).toContain('\r\nSEQUENCE:0\r\n');
    expect(ics).toContain('\r\nMETHOD:REQUEST\r\n');
    expect(ics).toMatch(/\r\nBEGIN:VTIMEZONE\r\nTZID:Europe\/Lisbon\r\n[\s\S]*?END:VTIMEZONE\r\n/);
    expect(ics.match(/BEGIN:VTIMEZONE/g)).toHaveLength(1);
  });

  it('has the iTIP REQUEST properties (RFC 5546 §3.2.2)', () => {
    const l = lines(ics);
    expect(l[0]).toBe('BEGIN:VCALENDAR');
    expect(l).toContain('VERSION:2.0');
    expect(l).toContain(`PRODID:${CALENDAR_INVITE_PRODID}`);
    expect(CALENDAR_INVITE_PRODID).toContain('Punctual');
    expect(l).toContain(`UID:${UID}`);
    expect(l).toContain('DTSTAMP:20270615T123456Z');
    expect(l).toContain('STATUS:CONFIRMED');
    expect(l).toContain('SUMMARY:Pottery workshop');
    expect(l).toContain('DESCRIPTION:Bring an apron.');
    expect(l).toContain('LOCATION:Rua Augusta 1\\, Lisboa');
    expect(l).toContain('URL;VALUE=URI:https://punctual.example/bookings/7c9e6679');
    expect(l).toContain('ORGANIZER;CN="Acme Events":mailto:events@acme.example');
    expect(l).toContain('ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE;CN="Ana Silva":MAILTO:ana@example.com');
    expect(l.filter((x) => x === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(l.at(-2)).toBe('END:VCALENDAR');
    expect(l.at(-1)).toBe(''); // the text ends with CRLF
  });

  it('uses CRLF for every line break and folds at 75 octets', () => {
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const l of ics.split('\r\n')) expect(Buffer.byteLength(l, 'utf8')).toBeLessThanOrEqual(75);
  });

  it('ical.js reads the start as 09:00Z and the end as 10:00Z', () => {
    expect(startOf(ics)).toBe('2027-07-01T09:00:00.000Z');
    expect(endOf(ics)).toBe('2027-07-01T10:00:00.000Z');
    const { vevent } = parse(ics);
    const event = new ICAL.Event(vevent);
    expect(event.uid).toBe(UID);
    expect(event.sequence).toBe(0);
    expect(event.summary).toBe('Pottery workshop');
    expect(event.location).toBe('Rua Augusta 1, Lisboa');
    const attendee = vevent.getFirstProperty('attendee')!;
    expect(attendee.getFirstValue()).toMatch(/^mailto:ana@example\.com$/i);
    expect(attendee.getParameter('cn')).toBe('Ana Silva');
    expect(attendee.getParameter('role')).toBe('REQ-PARTICIPANT');
    expect(attendee.getParameter('partstat')).toBe('NEEDS-ACTION');
    expect(attendee.getParameter('rsvp')).toBe('FALSE');
    const organizer = vevent.getFirstProperty('organizer')!;
    expect(organizer.getFirstValue()).toBe('mailto:events@acme.example');
    expect(organizer.getParameter('cn')).toBe('Acme Events');
  });

  it('is the same text every time (no clock, no random id)', () => {
    expect(invite()).toBe(ics);
  });
});

describe('reschedules and the cancellation (RFC 5546 §2.1.4: same UID, higher SEQUENCE)', () => {
  const first = invite();
  const moved1 = invite({ sequence: 1, startsAt: new Date('2027-07-02T13:00:00Z'), endsAt: new Date('2027-07-02T14:30:00Z') });
  const moved2 = invite({ sequence: 2, startsAt: new Date('2027-11-05T10:00:00Z'), endsAt: new Date('2027-11-05T11:00:00Z') });
  const cancel = invite({ method: 'CANCEL', sequence: 3, startsAt: new Date('2027-11-05T10:00:00Z'), endsAt: new Date('2027-11-05T11:00:00Z') });

  it('keeps the UID and carries the sequence given', () => {
    for (const [ics, seq] of [[first, 0], [moved1, 1], [moved2, 2], [cancel, 3]] as const) {
      const { vevent } = parse(ics);
      expect(vevent.getFirstPropertyValue('uid')).toBe(UID);
      expect(vevent.getFirstPropertyValue('sequence')).toBe(seq);
      expect(lines(ics)).toContain(`SEQUENCE:${seq}`);
    }
  });

  it('a reschedule is a REQUEST with the new times (summer, then winter time in Lisbon)', () => {
    expect(lines(moved1)).toContain('METHOD:REQUEST');
    expect(lines(moved1)).toContain('DTSTART;TZID=Europe/Lisbon:20270702T140000');
    expect(startOf(moved1)).toBe('2027-07-02T13:00:00.000Z');
    expect(endOf(moved1)).toBe('2027-07-02T14:30:00.000Z');
    expect(lines(moved2)).toContain('DTSTART;TZID=Europe/Lisbon:20271105T100000'); // WET, +00:00
    expect(startOf(moved2)).toBe('2027-11-05T10:00:00.000Z');
  });

  it('the cancellation is METHOD:CANCEL with STATUS:CANCELLED, SEQUENCE:3 and the same UID', () => {
    const l = lines(cancel);
    expect(l).toContain('METHOD:CANCEL');
    expect(l).toContain('STATUS:CANCELLED');
    expect(l).toContain('SEQUENCE:3');
    expect(l).toContain(`UID:${UID}`);
    expect(l).not.toContain('METHOD:REQUEST');
    expect(l).not.toContain('STATUS:CONFIRMED');
    expect(l.some((x) => x.startsWith('ORGANIZER'))).toBe(true);
    expect(l.some((x) => x.startsWith('ATTENDEE'))).toBe(true);
    expect(new ICAL.Component(ICAL.parse(cancel)).getFirstPropertyValue('method')).toBe('CANCEL');
  });

  it('file names follow the method', () => {
    expect(calendarInviteFilename('REQUEST')).toBe('invite.ics');
    expect(calendarInviteFilename('CANCEL')).toBe('cancel.ics');
  });
});

describe('zones across DST, read back by ical.js', () => {
  it.each([
    // zone, UTC start, UTC end, expected DTSTART wall clock, expected DTEND wall clock
    ['Europe/Berlin', '2027-01-15T09:00:00Z', '2027-01-15T10:00:00Z', '20270115T100000', '20270115T110000'], // CET +1
    ['Europe/Berlin', '2027-07-15T08:00:00Z', '2027-07-15T09:00:00Z', '20270715T100000', '20270715T110000'], // CEST +2
    ['Europe/Berlin', '2027-03-28T00:30:00Z', '2027-03-28T01:30:00Z', '20270328T013000', '20270328T033000'], // across spring-forward
    ['Europe/Berlin', '2027-10-30T23:30:00Z', '2027-10-31T02:30:00Z', '20271031T013000', '20271031T033000'], // across fall-back
    ['Australia/Sydney', '2027-01-14T23:00:00Z', '2027-01-15T00:00:00Z', '20270115T100000', '20270115T110000'], // AEDT +11
    ['Australia/Sydney', '2027-07-15T00:00:00Z', '2027-07-15T01:00:00Z', '20270715T100000', '20270715T110000'], // AEST +10
    ['Australia/Sydney', '2027-04-03T14:30:00Z', '2027-04-03T17:30:00Z', '20270404T013000', '20270404T033000'], // across fall-back (AEDT→AEST)
    ['America/New_York', '2027-03-14T06:30:00Z', '2027-03-14T07:30:00Z', '20270314T013000', '20270314T033000'], // across spring-forward
    ['Asia/Kolkata', '2027-07-01T04:30:00Z', '2027-07-01T05:30:00Z', '20270701T100000', '20270701T110000'], // +05:30, no DST
  ])('%s %s', (timeZone, start, end, wallStart, wallEnd) => {
    const ics = invite({ timeZone, startsAt: new Date(start), endsAt: new Date(end) });
    expect(lines(ics)).toContain(`DTSTART;TZID=${timeZone}:${wallStart}`);
    expect(lines(ics)).toContain(`DTEND;TZID=${timeZone}:${wallEnd}`);
    expect(lines(ics)).toContain(`TZID:${timeZone}`);
    expect(startOf(ics)).toBe(new Date(start).toISOString());
    expect(endOf(ics)).toBe(new Date(end).toISOString());
  });

  it.each([
    ['first', '2027-10-31T00:30:00Z', '20271031T003000Z'],
    ['second', '2027-10-31T01:30:00Z', '20271031T013000Z'],
  ])('a repeated wall-clock time (the %s 02:30 of a fall-back night) is written in UTC form', (_which, start, utc) => {
    // 2027-10-31 02:30 in Berlin happens at 00:30Z (CEST) and again at 01:30Z (CET). RFC 5545 reads a TZID time
    // there as the first, ical.js as the second: only a UTC value means one instant to every reader.
    const ics = invite({ timeZone: 'Europe/Berlin', startsAt: new Date(start), endsAt: new Date('2027-10-31T04:00:00Z') });
    expect(lines(ics)).toContain(`DTSTART:${utc}`);
    expect(lines(ics)).toContain('DTEND:20271031T040000Z');
    expect(ics).not.toContain('BEGIN:VTIMEZONE');
    expect(startOf(ics)).toBe(new Date(start).toISOString());
  });

  it('an end at a repeated wall-clock time also means UTC form', () => {
    const ics = invite({ timeZone: 'Europe/Berlin', startsAt: new Date('2027-10-30T22:00:00Z'), endsAt: new Date('2027-10-31T01:15:00Z') });
    expect(lines(ics)).toContain('DTSTART:20271030T220000Z');
    expect(endOf(ics)).toBe('2027-10-31T01:15:00.000Z');
  });

  it('UTC events are written as UTC instants without VTIMEZONE', () => {
    const ics = invite({ timeZone: 'UTC' });
    expect(lines(ics)).toContain('DTSTART:20270701T090000Z');
    expect(lines(ics)).toContain('DTEND:20270701T100000Z');
    expect(ics).not.toContain('VTIMEZONE');
  });

  it('an old zone name is the TZID as given, with the matching VTIMEZONE', () => {
    const ics = invite({ timeZone: 'Europe/Kiev', startsAt: new Date('2027-07-01T07:00:00Z'), endsAt: new Date('2027-07-01T08:00:00Z') });
    expect(lines(ics)).toContain('DTSTART;TZID=Europe/Kiev:20270701T100000');
    expect(lines(ics)).toContain('TZID:Europe/Kiev');
    expect(startOf(ics)).toBe('2027-07-01T07:00:00.000Z');
  });

  it('milliseconds are dropped (iCalendar has whole seconds)', () => {
    const ics = invite({ startsAt: new Date('2027-07-01T09:00:00.999Z'), endsAt: new Date('2027-07-01T10:00:00.500Z') });
    expect(lines(ics)).toContain('DTSTART;TZID=Europe/Lisbon:20270701T100000');
    expect(startOf(ics)).toBe('2027-07-01T09:00:00.000Z');
  });

  it('in every zone the runtime offers, winter and summer, the invitation means the instant given', () => {
    const wrong: string[] = [];
    let withTzid = 0;
    for (const timeZone of zoneNames) {
      for (const start of ['2027-01-15T09:00:00Z', '2027-07-15T09:00:00Z', '2028-03-26T01:15:00Z', '2026-11-01T09:00:00Z']) {
        const startsAt = new Date(start);
        const endsAt = new Date(startsAt.getTime() + 90 * 60_000);
        const ics = invite({ timeZone, startsAt, endsAt });
        if (ics.includes('DTSTART;TZID=')) withTzid++;
        const { cal, vevent } = parse(ics);
        const s = instantOf(cal, vevent.getFirstProperty('dtstart'));
        const e = instantOf(cal, vevent.getFirstProperty('dtend'));
        if (s !== startsAt.toISOString() || e !== endsAt.toISOString()) wrong.push(`${timeZone} ${start}: ${s} – ${e}`);
      }
    }
    expect(wrong).toEqual([]);
    // Almost every zone gets its VTIMEZONE; the UTC form is the exception.
    expect(withTzid).toBeGreaterThan(zoneNames.length * 4 * 0.9);
  }, 60_000);
});

describe('all-day events', () => {
  it('America/New_York: VALUE=DATE local dates, exclusive end, across the DST change', () => {
    // 13–14 March 2027 (DST starts on the 14th): 00:00 EST = 05:00Z, end 15 March 00:00 EDT = 04:00Z.
    const ics = invite({ allDay: true, timeZone: 'America/New_York', startsAt: new Date('2027-03-13T05:00:00Z'), endsAt: new Date('2027-03-15T04:00:00Z') });
    const l = lines(ics);
    expect(l).toContain('DTSTART;VALUE=DATE:20270313');
    expect(l).toContain('DTEND;VALUE=DATE:20270315');
    expect(ics).not.toContain('TZID');
    const { vevent } = parse(ics);
    const event = new ICAL.Event(vevent);
    expect(event.startDate.isDate).toBe(true);
    expect(event.startDate.toString()).toBe('2027-03-13');
    expect(event.endDate.toString()).toBe('2027-03-15');
  });

  it('uses the date in the event zone, not the UTC date', () => {
    // 1 July 2027 00:00 in Auckland (NZST, +12) is 30 June 12:00Z.
    const ics = invite({ allDay: true, timeZone: 'Pacific/Auckland', startsAt: new Date('2027-06-30T12:00:00Z'), endsAt: new Date('2027-07-01T12:00:00Z') });
    expect(lines(ics)).toContain('DTSTART;VALUE=DATE:20270701');
    expect(lines(ics)).toContain('DTEND;VALUE=DATE:20270702');
  });

  it('an end that is not a local midnight ends after its day; an empty span lasts one day', () => {
    const mid = invite({ allDay: true, timeZone: 'America/New_York', startsAt: new Date('2027-07-01T04:00:00Z'), endsAt: new Date('2027-07-02T16:00:00Z') });
    expect(lines(mid)).toContain('DTEND;VALUE=DATE:20270703');
    const empty = invite({ allDay: true, timeZone: 'America/New_York', startsAt: new Date('2027-07-01T04:00:00Z'), endsAt: new Date('2027-07-01T04:00:00Z') });
    expect(lines(empty)).toContain('DTSTART;VALUE=DATE:20270701');
    expect(lines(empty)).toContain('DTEND;VALUE=DATE:20270702');
  });
});

describe('text values (RFC 5545 §3.3.11)', () => {
  it('escapes semicolons, commas, backslashes and newlines, and ical.js reads the original back', () => {
    const title = 'Talk; with, commas \\ and\nnewline';
    const ics = invite({ title, description: 'Line 1\r\nLine 2; a, b \\ c', location: 'Room 3, Floor 2; East' });
    expect(lines(ics)).toContain('SUMMARY:Talk\\; with\\, commas \\\\ and\\nnewline');
    const event = new ICAL.Event(parse(ics).vevent);
    expect(event.summary).toBe(title);
    expect(event.description).toBe('Line 1\nLine 2; a, b \\ c');
    expect(event.location).toBe('Room 3, Floor 2; East');
  });

  it('emoji and non-Latin text survive folding: no fold splits a UTF-8 character', () => {
    const title = 'Sesión de cerámica 🎉🏺 — 陶芸ワークショップ — Гончарная мастерская — ورشة الفخار — ' + '🙂'.repeat(30);
    const ics = invite({ title });
    const bytes = Buffer.from(ics, 'utf8');
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let from = 0;
    for (let i = 0; i < bytes.length - 1; i++) {
      if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a) {
        const line = bytes.subarray(from, i);
        expect(line.length).toBeLessThanOrEqual(75);
        expect(() => decoder.decode(line)).not.toThrow();
        from = i + 2;
      }
    }
    expect(ics.split('\r\n').filter((l) => l.startsWith(' ')).length).toBeGreaterThan(1); // it was folded
    expect(new ICAL.Event(parse(ics).vevent).summary).toBe(title);
  });

  it('drops control characters TEXT cannot hold, keeps TAB, turns a lone surrogate into U+FFFD', () => {
    const ics = invite({ title: 'A\u0000B\u0007C\tD \ud83d' });
    expect(new ICAL.Event(parse(ics).vevent).summary).toBe('ABC\tD \ufffd');
  });

  it('a blank description or location is left out', () => {
    const ics = invite({ description: '  ', location: null, url: null });
    expect(ics).not.toMatch(/\r\n(DESCRIPTION|LOCATION|URL)[;:]/);
  });

  it('names with quotes, carets, backslashes and line breaks stay valid parameter values (RFC 6868)', () => {
    const ics = invite({ attendee: { name: 'Ana "the potter" ^ O\\Neil\nSilva', email: 'ana@example.com' }, organizer: { name: '  ', email: 'events@acme.example' } });
    const { vevent } = parse(ics);
    expect(vevent.getFirstProperty('attendee')!.getParameter('cn')).toBe('Ana "the potter" ^ O/Neil Silva');
    expect(vevent.getFirstProperty('organizer')!.getParameter('cn')).toBe('events@acme.example');
    expect(lines(ics).find((l) => l.startsWith('ATTENDEE'))).toContain(`CN="Ana ^'the potter^' ^^ O/Neil Silva"`);
  });

  it('a URL with commas and semicolons is percent-encoded, never backslash-escaped', () => {
    const ics = invite({ url: 'https://punctual.example/b?x=1,2;y=3' });
    expect(lines(ics)).toContain('URL;VALUE=URI:https://punctual.example/b?x=1%2C2%3By=3');
    expect(parse(ics).vevent.getFirstPropertyValue('url')).toBe('https://punctual.example/b?x=1%2C2%3By=3');
  });
});

describe('input errors', () => {
  it.each<[string, Partial<CalendarInviteInput>, string]>([
    ['unknown zone', { timeZone: 'Mars/Olympus' }, 'timeZone'],
    ['ICU-only zone id', { timeZone: 'AET' }, 'timeZone'],
    ['negative sequence', { sequence: -1 }, 'sequence'],
    ['fractional sequence', { sequence: 1.5 }, 'sequence'],
    ['end before start', { endsAt: new Date('2027-07-01T08:59:59Z') }, 'endsAt'],
    ['invalid date', { stamp: new Date(Number.NaN) }, 'stamp'],
    ['uid with a comma', { uid: 'a,b@punctual.local' }, 'uid'],
    ['empty uid', { uid: '' }, 'uid'],
    ['method', { method: 'PUBLISH' as never }, 'method'],
    ['relative url', { url: '/bookings/1' }, 'url'],
  ])('%s', (_name, change, field) => {
    let err: unknown;
    try {
      invite(change);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CalendarInviteError);
    expect((err as CalendarInviteError).field).toBe(field);
  });

  it.each(['no-at-sign', 'a b@example.com', 'a@example.com\r\nX-EVIL:1', 'a;b@example.com', '"a"@example.com'])('bad address %j', (email) => {
    expect(() => invite({ attendee: { name: 'X', email } })).toThrow(CalendarInviteError);
    expect(() => invite({ organizer: { name: 'X', email } })).toThrow(CalendarInviteError);
  });

  it('a zero-length timed event is allowed', () => {
    const ics = invite({ endsAt: base.startsAt });
    expect(startOf(ics)).toBe(endOf(ics));
  });
});

it('luxon agrees with the scenario arithmetic (guards the fixtures above)', () => {
  expect(DateTime.fromISO('2027-07-01T10:00', { zone: 'Europe/Lisbon' }).toUTC().toISO()).toBe('2027-07-01T09:00:00.000Z');
});
