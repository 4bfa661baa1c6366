/**
 * readIcs (domain/calendar/ics.ts) without a database: the fixtures, zones, all-day and DURATION rules, recurrence
 * expansion inside the horizon, and malformed files reported by line or component.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { IcsError, readIcs, resolveTzid, windowsZones, type IcsEvent, type ParseIcsOptions } from '@/domain/calendar/ics';

/** The events of one read (domain/calendar/ics.ts `readIcs`), without its counts. */
const eventsOf = (input: string | Uint8Array, opts: ParseIcsOptions) => readIcs(input, opts).events;

const fixtures = path.resolve(process.cwd(), 'test/fixtures/ics');
const fixture = (name: string) => readFileSync(path.join(fixtures, name), 'utf8');

const opts = (over: Partial<ParseIcsOptions> = {}): ParseIcsOptions => ({
  defaultTimeZone: 'Europe/Amsterdam',
  horizonStart: new Date('2012-07-01T00:00:00Z'),
  horizonEnd: new Date('2013-01-01T00:00:00Z'),
  ...over,
});

/** A calendar with the given VEVENT bodies (lines without BEGIN/END:VEVENT) and extra calendar lines. */
function cal(events: string[][], extra: string[] = []): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//punctual//test//EN', ...extra];
  for (const e of events) lines.push('BEGIN:VEVENT', ...e, 'END:VEVENT');
  lines.push('END:VCALENDAR');
  return lines.join('\r\n') + '\r\n';
}

const iso = (e: IcsEvent) => [e.startsAt.toISOString(), e.endsAt.toISOString()];

function parseError(text: string, o = opts()): IcsError {
  try {
    eventsOf(text, o);
  } catch (e) {
    expect(e).toBeInstanceOf(IcsError);
    return e as IcsError;
  }
  throw new Error('expected an IcsError');
}

describe('fixtures', () => {
  it.each([
    ['icaljs-blank_description.ics', 1],
    ['icaljs-daily_recur.ics', 153], // 1 Aug … 31 Dec 2012
    ['icaljs-duration_instead_of_dtend.ics', 1],
    ['icaljs-minimal.ics', 1],
    ['icaljs-only_dtstart_date.ics', 1],
    ['icaljs-recur_instances_finite.ics', 5],
    ['icaljs-tz-new-york.ics', 0], // a VTIMEZONE only
    ['pyconuk-2015-schedule.ics', 162],
  ])('%s → %i events', (name, count) => {
    expect(eventsOf(fixture(name), opts())).toHaveLength(count);
  });

  it('covers every fixture file', () => {
    expect(readdirSync(fixtures).filter((f) => f.endsWith('.ics'))).toHaveLength(8);
  });

  it('minimal: TZID America/Los_Angeles is the event zone; the instants follow PDT', () => {
    const [e] = eventsOf(fixture('icaljs-minimal.ics'), opts());
    expect(e).toMatchObject({
      uid: 'dn4vrfmfn5p05roahsopg57h48@google.com',
      title: 'Really long event name thing',
      timeZone: 'America/Los_Angeles',
      allDay: false,
      cancelled: false,
    });
    expect(iso(e)).toEqual(['2012-06-30T13:00:00.000Z', '2012-06-30T14:00:00.000Z']);
  });

  it('blank DESCRIPTION and LOCATION → null', () => {
    const [e] = eventsOf(fixture('icaljs-blank_description.ics'), opts());
    expect(e.description).toBeNull();
    expect(e.location).toBeNull();
  });

  it('DURATION:P1D instead of DTEND ends one (nominal) day later', () => {
    const [e] = eventsOf(fixture('icaljs-duration_instead_of_dtend.ics'), opts());
    expect(iso(e)).toEqual(['2012-06-30T13:00:00.000Z', '2012-07-01T13:00:00.000Z']);
  });

  it('DATE-only DTSTART without DTEND: all-day, one day, local midnights in the default zone', () => {
    const [e] = eventsOf(fixture('icaljs-only_dtstart_date.ics'), opts());
    expect(e.allDay).toBe(true);
    expect(e.timeZone).toBe('Europe/Amsterdam');
    expect(iso(e)).toEqual(['2012-06-29T22:00:00.000Z', '2012-06-30T22:00:00.000Z']);
  });

  it('daily recurrence keeps 05:00 Los Angeles across the November DST change; ids carry the occurrence', () => {
    const evs = eventsOf(fixture('icaljs-daily_recur.ics'), opts());
    const byDay = (d: string) => evs.find((e) => e.startsAt.toISOString().startsWith(d))!;
    expect(byDay('2012-11-03').startsAt.toISOString()).toBe('2012-11-03T12:00:00.000Z');
    expect(byDay('2012-11-05').startsAt.toISOString()).toBe('2012-11-05T13:00:00.000Z');
    expect(evs[0].uid).toBe('tgh9qho17b07pk2n2ji3gluans@google.com#2012-08-01T12:00:00Z');
    expect(new Set(evs.map((e) => e.uid)).size).toBe(evs.length);
    expect(evs.every((e) => e.endsAt.getTime() - e.startsAt.getTime() === 3_600_000)).toBe(true);
  });

  it('daily recurrence is bounded by the horizon and by maxOccurrencesPerEvent', () => {
    const within = eventsOf(
      fixture('icaljs-daily_recur.ics'),
      opts({ horizonStart: new Date('2012-08-10T00:00:00Z'), horizonEnd: new Date('2012-08-20T00:00:00Z') }),
    );
    expect(within.map((e) => e.startsAt.toISOString().slice(0, 10))).toEqual([
      '2012-08-10', '2012-08-11', '2012-08-12', '2012-08-13', '2012-08-14',
      '2012-08-15', '2012-08-16', '2012-08-17', '2012-08-18', '2012-08-19',
    ]);
    expect(eventsOf(fixture('icaljs-daily_recur.ics'), opts({ maxOccurrencesPerEvent: 7 }))).toHaveLength(7);
    const late = opts({ horizonStart: new Date('2030-01-01T00:00:00Z'), horizonEnd: new Date('2030-01-31T00:00:00Z') });
    expect(eventsOf(fixture('icaljs-daily_recur.ics'), late)).toHaveLength(30); // 1–30 Jan at 13:00Z
  });

  it('finite monthly recurrence with RDATEs: UNTIL respected, RDATEs merged in order', () => {
    const evs = eventsOf(fixture('icaljs-recur_instances_finite.ics'), opts());
    expect(evs.map((e) => e.startsAt.toISOString())).toEqual([
      '2012-10-02T17:00:00.000Z', // 1st Tuesday, PDT
      '2012-11-05T18:00:00.000Z', // RDATE, PST
      '2012-11-06T18:00:00.000Z',
      '2012-11-10T18:00:00.000Z', // RDATE
      '2012-12-04T18:00:00.000Z',
    ]);
    expect(evs[0]).toMatchObject({ description: 'IAM FOO', location: 'PLACE', timeZone: 'America/Los_Angeles' });
  });

  it('pyconuk: UTC times keep their instant and take the default zone; escapes and folds undone', () => {
    const evs = eventsOf(fixture('pyconuk-2015-schedule.ics'), opts({ defaultTimeZone: 'Europe/London' }));
    expect(evs[0]).toMatchObject({
      uid: '20160417T070217Z-32078@testing-worker-linux-docker-3ee836b9-3394-linux-5',
      title: 'Registration / Breakfast',
      location: 'Cafeteria',
      timeZone: 'Europe/London',
    });
    expect(iso(evs[0])).toEqual(['2015-09-18T07:00:00.000Z', '2015-09-18T08:30:00.000Z']);
    expect(evs.some((e) => e.title === 'Real-Time Data + Django = Fun,Growth + Profit (talk by Speaker 3)')).toBe(true);
    // The file repeats one UID for two different talks: both are kept, each with a content identity
    // (UID#c-<hash of start, title, location>) rather than a position (UID#2).
    const dup = '20160417T070217Z-58703@testing-worker-linux-docker-3ee836b9-3394-linux-5';
    expect(evs.filter((e) => e.uid.startsWith(dup)).map((e) => [e.uid, e.title, e.group])).toEqual([
      [`${dup}#c-2d8987dc2552`, 'Open Space', dup],
      [`${dup}#c-b28017173be6`, 'Power: Python in Astronomy (talk by Speaker 59)', dup],
    ]);
    expect(new Set(evs.map((e) => e.uid)).size).toBe(162);
  });

  it('the New York VTIMEZONE serves a VEVENT that names it', () => {
    const text = fixture('icaljs-tz-new-york.ics').replace(
      'END:VCALENDAR',
      ['BEGIN:VEVENT', 'UID:ny-1', 'SUMMARY:Standup', 'DTSTART;TZID=America/New_York:20121105T090000', 'DURATION:PT15M', 'END:VEVENT', 'END:VCALENDAR'].join('\r\n'),
    );
    const [e] = eventsOf(text, opts());
    expect(e.timeZone).toBe('America/New_York');
    expect(iso(e)).toEqual(['2012-11-05T14:00:00.000Z', '2012-11-05T14:15:00.000Z']);
  });
});

describe('times and zones', () => {
  const one = (lines: string[], o = opts()) => eventsOf(cal([['UID:x', 'SUMMARY:S', ...lines]]), o)[0];

  it('floating time is read in the default zone', () => {
    expect(iso(one(['DTSTART:20270615T090000', 'DTEND:20270615T100000']))).toEqual([
      '2027-06-15T07:00:00.000Z',
      '2027-06-15T08:00:00.000Z',
    ]);
  });

  it('a DATE-TIME without DTEND or DURATION ends when it starts (RFC 5545 §3.6.1)', () => {
    const e = one(['DTSTART:20270615T090000Z']);
    expect(e.endsAt.getTime()).toBe(e.startsAt.getTime());
    expect(e.timeZone).toBe('Europe/Amsterdam');
  });

  it('all-day with an exclusive DTEND spans whole local days', () => {
    const e = one(['DTSTART;VALUE=DATE:20270327', 'DTEND;VALUE=DATE:20270329']);
    expect(e.allDay).toBe(true);
    expect(iso(e)).toEqual(['2027-03-26T23:00:00.000Z', '2027-03-28T22:00:00.000Z']); // DST began on the 28th
  });

  it('DURATION: days are nominal, hours exact, across a DST change', () => {
    const e1 = one(['DTSTART;TZID=Europe/Amsterdam:20270327T120000', 'DURATION:P1D']);
    expect(e1.endsAt.toISOString()).toBe('2027-03-28T10:00:00.000Z'); // 12:00 local the next day (23 h)
    const e2 = one(['DTSTART;TZID=Europe/Amsterdam:20270327T120000', 'DURATION:PT24H']);
    expect(e2.endsAt.toISOString()).toBe('2027-03-28T11:00:00.000Z');
  });

  it('a nonexistent local time moves forward by the gap', () => {
    expect(one(['DTSTART;TZID=Europe/Amsterdam:20270328T023000']).startsAt.toISOString()).toBe('2027-03-28T01:30:00.000Z');
  });

  it.each([
    ['/mozilla.org/20050126_1/America/New_York', 'America/New_York'],
    ['/softwarestudio.org/Olson_20011030_5/Europe/Paris', 'Europe/Paris'],
    ['W. Europe Standard Time', 'Europe/Berlin'],
    ['eastern standard time', 'America/New_York'],
    ['america/chicago', 'America/Chicago'],
    ['Etc/UTC', 'UTC'],
    ['Mars/Olympus', null],
  ])('resolveTzid(%s) → %s', (tzid, zone) => {
    expect(resolveTzid(tzid)).toBe(zone);
  });

  it('a TZID in UTC plans the event in the default zone', () => {
    expect(one(['DTSTART;TZID=UTC:20270615T090000']).timeZone).toBe('Europe/Amsterdam');
  });

  // Changed with issue 8: a VTIMEZONE governs its TZID. These two tests used a one-observance stub; the name
  // (X-LIC-LOCATION) is now trusted only when the VTIMEZONE agrees with it.
  const lisbonRules = (tzid: string) => [
    'BEGIN:VTIMEZONE', `TZID:${tzid}`, 'X-LIC-LOCATION:Europe/Lisbon',
    'BEGIN:STANDARD', 'DTSTART:19701025T020000', 'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0000', 'END:STANDARD',
    'BEGIN:DAYLIGHT', 'DTSTART:19700329T010000', 'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU', 'TZOFFSETFROM:+0000', 'TZOFFSETTO:+0100', 'END:DAYLIGHT',
    'END:VTIMEZONE',
  ];

  it('X-LIC-LOCATION names the zone of a custom TZID when its VTIMEZONE agrees', () => {
    const [e] = eventsOf(cal([['UID:x', 'DTSTART;TZID=Custom 1:20270615T090000']], lisbonRules('Custom 1')), opts());
    expect(e.timeZone).toBe('Europe/Lisbon');
    expect(e.startsAt.toISOString()).toBe('2027-06-15T08:00:00.000Z');
  });

  it('X-LIC-LOCATION that the VTIMEZONE contradicts: the VTIMEZONE wins (fixed +00:00 → 09:00Z, planned in Etc/UTC)', () => {
    const vtz = ['BEGIN:VTIMEZONE', 'TZID:Custom 1', 'X-LIC-LOCATION:Europe/Lisbon', 'BEGIN:STANDARD', 'DTSTART:19700101T000000', 'TZOFFSETFROM:+0000', 'TZOFFSETTO:+0000', 'END:STANDARD', 'END:VTIMEZONE'];
    const [e] = eventsOf(cal([['UID:x', 'DTSTART;TZID=Custom 1:20270615T090000']], vtz), opts());
    expect(e.startsAt.toISOString()).toBe('2027-06-15T09:00:00.000Z');
    expect(e.timeZone).toBe('Etc/UTC');
  });

  it('an unmappable TZID with a VTIMEZONE uses its offsets; planned in an IANA zone with the same offsets', () => {
    const vtz = ['BEGIN:VTIMEZONE', 'TZID:Office Time', 'BEGIN:STANDARD', 'DTSTART:19700101T000000', 'TZOFFSETFROM:+0530', 'TZOFFSETTO:+0530', 'END:STANDARD', 'END:VTIMEZONE'];
    const [e] = eventsOf(cal([['UID:x', 'DTSTART;TZID=Office Time:20270615T090000', 'DURATION:PT1H']], vtz), opts());
    expect(e.timeZone).toBe('Asia/Kolkata'); // India Standard Time: the first +05:30 zone of the Windows table
    expect(iso(e)).toEqual(['2027-06-15T03:30:00.000Z', '2027-06-15T04:30:00.000Z']);
  });

  it('a VTIMEZONE no IANA zone matches: its offsets, planned in the default zone', () => {
    const vtz = ['BEGIN:VTIMEZONE', 'TZID:Odd', 'BEGIN:STANDARD', 'DTSTART:19700101T000000', 'TZOFFSETFROM:+0317', 'TZOFFSETTO:+0317', 'END:STANDARD', 'END:VTIMEZONE'];
    const [e] = eventsOf(cal([['UID:x', 'DTSTART;TZID=Odd:20270615T090000']], vtz), opts());
    expect(e.timeZone).toBe('Europe/Amsterdam');
    expect(e.startsAt.toISOString()).toBe('2027-06-15T05:43:00.000Z');
  });

  it('every Windows zone in the table is a valid IANA zone', () => {
    const bad = Object.entries(windowsZones).filter(([, z]) => !IANAZone.isValidZone(z));
    expect(bad).toEqual([]);
  });

  it('a missing SUMMARY gets a title; STATUS:CANCELLED is flagged', () => {
    const [e] = eventsOf(cal([['UID:x', 'DTSTART:20270615T090000Z', 'STATUS:CANCELLED']]), opts());
    expect(e.title).toBe('Untitled event');
    expect(e.cancelled).toBe(true);
  });

  it('a non-recurring event outside the horizon is still returned', () => {
    expect(eventsOf(cal([['UID:x', 'DTSTART:19990101T090000Z']]), opts())).toHaveLength(1);
  });

  it('several VCALENDARs in one file are all read', () => {
    const text = cal([['UID:a', 'DTSTART:20270615T090000Z']]) + cal([['UID:b', 'DTSTART:20270616T090000Z']]);
    expect(eventsOf(text, opts()).map((e) => e.uid)).toEqual(['a', 'b']);
  });
});

describe('recurrence', () => {
  const horizon = opts({ horizonStart: new Date('2027-01-01T00:00:00Z'), horizonEnd: new Date('2027-12-31T00:00:00Z') });

  it('EXDATE removes an instance; RECURRENCE-ID moves one and cancels another', () => {
    const text = cal([
      ['UID:w', 'SUMMARY:Weekly', 'DTSTART;TZID=Europe/Amsterdam:20270104T100000', 'DTEND;TZID=Europe/Amsterdam:20270104T110000', 'RRULE:FREQ=WEEKLY;COUNT=5', 'EXDATE;TZID=Europe/Amsterdam:20270111T100000'],
      ['UID:w', 'RECURRENCE-ID;TZID=Europe/Amsterdam:20270118T100000', 'SUMMARY:Weekly (moved)', 'DTSTART;TZID=Europe/Amsterdam:20270119T150000', 'DTEND;TZID=Europe/Amsterdam:20270119T170000'],
      ['UID:w', 'RECURRENCE-ID;TZID=Europe/Amsterdam:20270125T100000', 'DTSTART;TZID=Europe/Amsterdam:20270125T100000', 'STATUS:CANCELLED'],
    ]);
    const evs = eventsOf(text, horizon);
    expect(evs.map((e) => [e.uid, e.title, e.startsAt.toISOString(), e.endsAt.toISOString(), e.cancelled])).toEqual([
      ['w#2027-01-04T09:00:00Z', 'Weekly', '2027-01-04T09:00:00.000Z', '2027-01-04T10:00:00.000Z', false],
      ['w#2027-01-18T09:00:00Z', 'Weekly (moved)', '2027-01-19T14:00:00.000Z', '2027-01-19T16:00:00.000Z', false],
      ['w#2027-01-25T09:00:00Z', 'Weekly', '2027-01-25T09:00:00.000Z', '2027-01-25T09:00:00.000Z', true],
      ['w#2027-02-01T09:00:00Z', 'Weekly', '2027-02-01T09:00:00.000Z', '2027-02-01T10:00:00.000Z', false],
    ]);
  });

  it('all-day recurrences are keyed by date', () => {
    const evs = eventsOf(cal([['UID:d', 'DTSTART;VALUE=DATE:20270301', 'RRULE:FREQ=DAILY;COUNT=2']]), horizon);
    expect(evs.map((e) => [e.uid, e.allDay, ...iso(e)])).toEqual([
      ['d#2027-03-01', true, '2027-02-28T23:00:00.000Z', '2027-03-01T23:00:00.000Z'],
      ['d#2027-03-02', true, '2027-03-01T23:00:00.000Z', '2027-03-02T23:00:00.000Z'],
    ]);
  });

  it('an override without its master in the file stands alone', () => {
    const evs = eventsOf(cal([['UID:o', 'RECURRENCE-ID:20270301T090000Z', 'DTSTART:20270302T090000Z']]), horizon);
    expect(evs.map((e) => e.uid)).toEqual(['o#2027-03-01T09:00:00Z']);
  });

  it('a recurrence too dense to reach the horizon is an error naming the VEVENT', () => {
    const err = parseError(cal([['UID:m', 'DTSTART:19700101T000000Z', 'RRULE:FREQ=MINUTELY']]), horizon);
    expect(err.message).toMatch(/^line \d+, VEVENT #1 \(UID m\): the recurrence has more than/);
  });
});

describe('malformed files name the line or the component', () => {
  const minimal = fixture('icaljs-minimal.ics');

  it.each<[string, string, RegExp]>([
    ['garbage', 'this is not\nan iCalendar file\n', /^line 1: not an iCalendar file/],
    ['binary data', '\u0000\u0001PNG\nBEGIN:VCALENDAR\n', /^line 1: NUL character/],
    ['a vCard', 'BEGIN:VCARD\nVERSION:3.0\nEND:VCARD\n', /^line 1: not an iCalendar file: expected BEGIN:VCALENDAR, found "BEGIN:VCARD"/],
    ['truncated', minimal.slice(0, minimal.indexOf('SEQUENCE')), /^line 25: BEGIN:VEVENT is never closed .*truncated/],
    ['missing END:VCALENDAR', minimal.replace(/END:VCALENDAR\s*$/, ''), /^line 1: BEGIN:VCALENDAR is never closed \(missing END:VCALENDAR/],
    ['END mismatch', minimal.replace('END:VEVENT', 'END:VTODO'), /^line 38: END:VTODO does not close BEGIN:VEVENT \(opened at line 25\)/],
    ['a line without a colon', minimal.replace('DTSTAMP:', 'DTSTAMP'), /^line 28: invalid content line/],
    ['bad parameters', minimal.replace('DTSTAMP:', 'X-FOO;BAR:1\r\nDTSTAMP:'), /^line 28: Invalid parameters/],
    ['junk after the calendar', `${minimal}\nrandom junk\n`, /^line 41: "random junk" after END:VCALENDAR/],
    ['a VEVENT without DTSTART', minimal.replace(/DTSTART;[^\r\n]*\r?\n/, ''), /^line 25, VEVENT #1 \(UID dn4vrfmfn5p05roahsopg57h48@google\.com\): missing DTSTART$/],
    ['an impossible date', minimal.replace('20120630T060000', '20121340T060000'), /^line 26, VEVENT #1 .*invalid DTSTART value "20121340T060000"/],
    ['DTEND before DTSTART', minimal.replace('20120630T070000', '20120630T050000'), /^line 27, VEVENT #1 .*DTEND is before DTSTART/],
    ['an unknown TZID', minimal.replace(/America\/Los_Angeles:2012/g, 'Mars/Olympus:2012'), /^line 26, VEVENT #1 .*unknown time zone TZID "Mars\/Olympus"/],
  ])('%s', (_name, text, message) => {
    const err = parseError(text);
    expect(err.message).toMatch(message);
    expect(err.line).toBeTypeOf('number');
  });

  it('an empty file', () => {
    expect(parseError('  \n\n').message).toMatch(/^empty file: not an iCalendar file/);
  });

  it('the second VEVENT is named by its number', () => {
    const err = parseError(cal([['UID:a', 'DTSTART:20270615T090000Z'], ['UID:b', 'SUMMARY:Second']]));
    expect(err.component).toBe('VEVENT #2 (UID b)');
    expect(err.line).toBe(8);
  });
});

describe('hostile input (from the adversarial review)', () => {
  it('a 1 MB UID is an error naming UID and its line, not a database failure', () => {
    const e = parseError(cal([[`UID:${'x'.repeat(1_000_000)}`, 'DTSTART:20120801T100000Z', 'SUMMARY:a']]));
    expect(e.message).toContain('UID is 1,000,000 characters long; at most 512 are accepted');
    expect(e.line).toBe(5);
  });

  it('control characters are removed from titles', () => {
    const [ev] = eventsOf(cal([['UID:c1', 'DTSTART:20120801T100000Z', 'SUMMARY:Hello\u001b[31m there\u0007']]), opts());
    expect(ev.title).toBe('Hello[31m there');
  });

  it('a DURATION that ends beyond any calendar is an error naming the range', () => {
    const e = parseError(cal([['UID:dh', 'DTSTART:20120801T100000Z', 'DURATION:P99999999W', 'SUMMARY:x']]));
    expect(e.message).toContain('outside the years 1900–2199');
  });

  it('a 02:30–03:00 event on the spring-forward day is kept (the start moves to 03:30), with no length', () => {
    const [ev] = eventsOf(
      cal([['UID:gap', 'DTSTART;TZID=Europe/Amsterdam:20120325T023000', 'DTEND;TZID=Europe/Amsterdam:20120325T030000', 'SUMMARY:gap']]),
      opts({ horizonStart: new Date('2012-01-01T00:00:00Z') }),
    );
    expect(iso(ev)).toEqual(['2012-03-25T01:30:00.000Z', '2012-03-25T01:30:00.000Z']);
  });
});

describe('hostile recurrences are refused or bounded before ical.js loops for ever (domain/calendar/rrule-guard.ts)', () => {
  const year2027 = opts({ horizonStart: new Date('2027-01-01T00:00:00Z'), horizonEnd: new Date('2027-12-31T00:00:00Z') });
  const ev = (rrule: string) => cal([['UID:h', 'DTSTART:20270115T100000Z', rrule]]);
  // cal(): line 4 BEGIN:VEVENT, 5 UID, 6 DTSTART, 7 the RRULE.

  it.each<[string, string]>([
    ['RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30', 'RRULE can never occur: February has no day 30'],
    ['RRULE:FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30', 'RRULE can never occur: February has no day 30'],
    ['RRULE:FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30', 'RRULE can never occur: February has no day 30'],
    ['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', 'RRULE can never occur: February has no day 30'],
    ['RRULE:FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=31;BYDAY=MO', 'RRULE can never occur: February has no day 31'],
    ['RRULE:FREQ=SECONDLY;BYMONTH=2;BYYEARDAY=366', 'RRULE can never occur: no year has day 366 in February'],
    ['RRULE:FREQ=DAILY;INTERVAL=0', 'RRULE INTERVAL=0 is not a positive integer (RFC 5545 §3.3.10)'],
    ['RRULE:FREQ=DAILY;INTERVAL=-1', 'RRULE INTERVAL=-1 is not a positive integer (RFC 5545 §3.3.10)'],
    ['RRULE:', 'RRULE is empty (expected e.g. RRULE:FREQ=WEEKLY, RFC 5545 §3.3.10)'],
  ])('%s → one-line error naming line 7', (rrule, detail) => {
    const err = parseError(ev(rrule), year2027);
    expect(err.message).toBe(`line 7, VEVENT #1 (UID h): ${detail}`);
    expect(err.line).toBe(7);
  });

  it('a rule whose parts can never match again, in a way no pattern check sees, ends with a clear error instead of looping', () => {
    // DTSTART is a Friday; every 7th day is a Friday again, so BYDAY=MO never matches (ical.js's next() would spin).
    const err = parseError(cal([['UID:h', 'DTSTART:20270115T100000Z', 'RRULE:FREQ=DAILY;INTERVAL=7;BYDAY=MO;BYMONTHDAY=15']]), year2027);
    expect(err.message).toMatch(/^line 7, VEVENT #1 \(UID h\): cannot expand the recurrence: no further instance within \d+ steps/);
  });

  it('the second RRULE of a VEVENT is named by its own line', () => {
    const err = parseError(cal([['UID:h', 'DTSTART:20270115T100000Z', 'RRULE:FREQ=WEEKLY;COUNT=2', 'RRULE:FREQ=DAILY;BYMONTH=4;BYMONTHDAY=31']]), year2027);
    expect(err.message).toBe('line 8, VEVENT #1 (UID h): RRULE can never occur: April has no day 31');
  });

  it.each(['RRULE:FREQ=DAILY;INTERVAL=1000000', 'RRULE:FREQ=DAILY;INTERVAL=999999999999'])(
    '%s: the second occurrence would be after 2199, so only DTSTART occurs',
    (rrule) => {
      const evs = eventsOf(ev(rrule), year2027);
      expect(evs.map((e) => [e.uid, e.startsAt.toISOString()])).toEqual([['h#2027-01-15T10:00:00Z', '2027-01-15T10:00:00.000Z']]);
    },
  );

  it('a large INTERVAL that still lands before 2199 is expanded (INTERVAL=100 days)', () => {
    const evs = eventsOf(ev('RRULE:FREQ=DAILY;INTERVAL=100'), year2027);
    expect(evs.map((e) => e.startsAt.toISOString().slice(0, 10))).toEqual(['2027-01-15', '2027-04-25', '2027-08-03', '2027-11-11']);
  });

  /** A VTIMEZONE "Foo" with `n` observances, each with `rrule`, and an event in it. */
  const tzFile = (n: number, rrule: string) => {
    const tz = ['BEGIN:VTIMEZONE', 'TZID:Foo'];
    for (let i = 0; i < n; i++) {
      tz.push('BEGIN:STANDARD', `DTSTART:${1970 + (i % 100)}0101T000000`, rrule, 'TZOFFSETFROM:+0000', 'TZOFFSETTO:+0100', 'END:STANDARD');
    }
    tz.push('END:VTIMEZONE');
    return cal([['UID:z', 'DTSTART;TZID=Foo:20270615T090000']], tz);
  };

  it('a VTIMEZONE observance RRULE finer than MONTHLY is refused naming its line', () => {
    const err = parseError(tzFile(3000, 'RRULE:FREQ=SECONDLY'), year2027);
    expect(err.message).toBe('line 8: VTIMEZONE observance RRULE FREQ=SECONDLY is finer than MONTHLY (time zones change at most a few times a year)');
  });

  it('a VTIMEZONE with more than 200 observances is refused naming the 201st', () => {
    // lines: 1–3 calendar head, 4 BEGIN:VTIMEZONE, 5 TZID, then 6 lines per observance.
    const err = parseError(tzFile(201, 'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU'), year2027);
    expect(err.message).toBe(`line ${6 + 200 * 6}: VTIMEZONE has more than 200 STANDARD/DAYLIGHT observances (real time zones have a few dozen)`);
  });

  it('200 YEARLY observances are still read', () => {
    expect(eventsOf(tzFile(200, 'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU'), year2027)).toHaveLength(1);
  });
});
