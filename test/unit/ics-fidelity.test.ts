/**
 * Issue 8 §1 at the parser level (domain/calendar/ics.ts, no database): the file's VTIMEZONE governs its TZID,
 * unfolding happens on bytes before decoding, every RRULE and RDATE counts (checked against the independent
 * `rrule` package), identities do not depend on position, and a VEVENT without UID is read.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import { RRule, RRuleSet } from 'rrule';
import { describe, expect, it } from 'vitest';
import { IcsError, readIcs, type ParseIcsOptions } from '@/domain/calendar/ics';

/** The events of one read (domain/calendar/ics.ts `readIcs`), without its counts. */
const eventsOf = (input: string | Uint8Array, opts: ParseIcsOptions) => readIcs(input, opts).events;

const extra = (name: string) => readFileSync(path.resolve(process.cwd(), 'test/fixtures/ics-extra', name));

const opts = (over: Partial<ParseIcsOptions> = {}): ParseIcsOptions => ({
  defaultTimeZone: 'America/New_York',
  horizonStart: new Date('2026-01-01T00:00:00Z'),
  horizonEnd: new Date('2028-01-01T00:00:00Z'),
  ...over,
});

function cal(events: string[][], extraLines: string[] = []): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//punctual//test//EN', ...extraLines];
  for (const e of events) lines.push('BEGIN:VEVENT', ...e, 'END:VEVENT');
  lines.push('END:VCALENDAR');
  return lines.join('\r\n') + '\r\n';
}

function parseError(input: string | Uint8Array, o = opts()): IcsError {
  try {
    eventsOf(input, o);
  } catch (e) {
    expect(e).toBeInstanceOf(IcsError);
    return e as IcsError;
  }
  throw new Error('expected an IcsError');
}

describe('a VTIMEZONE in the file governs its TZID', () => {
  it('TZID:GMT with British summer rules: 2027-07-22 10:20 is 09:20Z, 2027-01-14 10:20 is 10:20Z, planned in Europe/London', () => {
    const evs = eventsOf(extra('gmt-with-bst.ics'), opts()); // tenant zone New York: the zone comes from the search
    expect(evs.map((e) => [e.title, e.startsAt.toISOString(), e.endsAt.toISOString(), e.timeZone])).toEqual([
      ['Summer session', '2027-07-22T09:20:00.000Z', '2027-07-22T10:20:00.000Z', 'Europe/London'],
      ['Winter session', '2027-01-14T10:20:00.000Z', '2027-01-14T11:20:00.000Z', 'Europe/London'],
    ]);
    // The planned zone reproduces the file's wall clock.
    for (const e of evs) expect(DateTime.fromJSDate(e.startsAt, { zone: e.timeZone }).toFormat('HH:mm')).toBe('10:20');
  });

  it('TZID:GMT without a VTIMEZONE is UTC (the name is trusted when the file says nothing else)', () => {
    const [e] = eventsOf(cal([['UID:g', 'DTSTART;TZID=GMT:20270722T102000']]), opts());
    expect(e.startsAt.toISOString()).toBe('2027-07-22T10:20:00.000Z');
    expect(e.timeZone).toBe('America/New_York');
  });

  it('an IANA TZID whose VTIMEZONE agrees keeps the IANA zone', () => {
    const text = extra('gmt-with-bst.ics').toString('utf8').replaceAll('GMT:', 'Europe/London:').replace('TZID:GMT', 'TZID:Europe/London');
    const [e] = eventsOf(text, opts());
    expect([e.startsAt.toISOString(), e.timeZone]).toEqual(['2027-07-22T09:20:00.000Z', 'Europe/London']);
  });

  it('an IANA TZID whose VTIMEZONE disagrees (Europe/Berlin named, British rules given): the rules win', () => {
    const text = extra('gmt-with-bst.ics').toString('utf8').replaceAll('GMT:', 'Europe/Berlin:').replace('TZID:GMT', 'TZID:Europe/Berlin');
    const [e] = eventsOf(text, opts());
    expect([e.startsAt.toISOString(), e.timeZone]).toEqual(['2027-07-22T09:20:00.000Z', 'Europe/London']);
  });

  it.each([
    ['TZOFFSETTO:+9999', 'TZOFFSETTO:+0000', 10, /^line 10: TZOFFSETTO "\+9999" is not a possible UTC offset/],
    ['TZOFFSETFROM:-1900', 'TZOFFSETFROM:+0100', 9, /^line 9: TZOFFSETFROM "-1900" is not a possible UTC offset/],
    ['TZOFFSETTO:+0160', 'TZOFFSETTO:+0100', 17, /^line 17: TZOFFSETTO "\+0160"/],
  ])('an impossible offset %s is refused naming its line', (bad, good, line, message) => {
    const text = extra('gmt-with-bst.ics').toString('utf8').replace(good, bad);
    const err = parseError(text);
    expect(err.message).toMatch(message);
    expect(err.message).not.toContain('\n');
    expect(err.line).toBe(line);
  });
});

describe('unfold before decoding', () => {
  const title = 'Öffnungszeiten für Fortgeschrittene – Stadtführung am Nachmittag';

  /** A calendar whose SUMMARY is folded between the two bytes of the first `ü` (C3 | CRLF SP | BC). */
  function splitInsideU(lineBreak: string): Buffer {
    const head = Buffer.from(`BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:fold-1\r\nDTSTART:20270301T100000Z\r\n`);
    const summary = Buffer.from(`SUMMARY:${title}`);
    const cut = summary.indexOf(Buffer.from('ü')) + 1; // after C3, before BC
    expect(summary.subarray(cut - 1, cut + 1)).toEqual(Buffer.from([0xc3, 0xbc]));
    const tail = Buffer.from(`\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`);
    return Buffer.concat([head, summary.subarray(0, cut), Buffer.from(`${lineBreak} `), summary.subarray(cut), tail]);
  }

  it.each([['CRLF', '\r\n'], ['LF', '\n']])('a fold (%s + space) inside the two bytes of ü keeps ü', (_n, br) => {
    const [e] = eventsOf(splitInsideU(br), opts());
    expect(e.title).toBe(title);
    expect(e.title).not.toContain('\uFFFD');
  });

  it('a tab also folds; a BOM is dropped', () => {
    const b = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(cal([['UID:t', 'DTSTART:20270301T100000Z', 'SUMMARY:Ab\r\n\tcd']]))]);
    expect(eventsOf(b, opts())[0].title).toBe('Abcd');
  });

  it('a file that is not UTF-8 (Latin-1 é) is refused naming the line; no replacement character', () => {
    const text = cal([['UID:l1', 'DTSTART:20270301T100000Z', 'SUMMARY:Caf\u00e9']]);
    const latin1 = Buffer.from(text, 'latin1');
    const err = parseError(latin1);
    expect(err.message).toMatch(/^line 7: not valid UTF-8 \(byte 0xE9\)/);
    expect(err.line).toBe(7);
    expect(err.message).not.toContain('\n');
  });

  it('the bad byte on a continuation line names that physical line', () => {
    const text = Buffer.from(cal([['UID:l2', 'DTSTART:20270301T100000Z', 'SUMMARY:first part\r\n second pXrt']]));
    text[text.indexOf('pXrt') + 1] = 0xff;
    expect(parseError(text).line).toBe(8);
  });
});

describe('every recurrence rule counts', () => {
  it('two RRULEs (weekly Mondays, monthly Sundays) until 28 March 2027 in Los Angeles: exactly 8 occurrences', () => {
    const evs = eventsOf(
      cal([
        [
          'UID:two-rules',
          'SUMMARY:Two rules',
          'DTSTART;TZID=America/Los_Angeles:20270301T110000',
          'DTEND;TZID=America/Los_Angeles:20270301T120000',
          'RRULE:FREQ=WEEKLY;UNTIL=20270329T065959Z',
          'RRULE:FREQ=MONTHLY;BYDAY=SU;UNTIL=20270329T065959Z',
        ],
      ]),
      opts(),
    );
    const local = evs.map((e) => DateTime.fromJSDate(e.startsAt, { zone: 'America/Los_Angeles' }).toFormat('ccc d LLL HH:mm'));
    expect(local).toEqual([
      'Mon 1 Mar 11:00',
      'Sun 7 Mar 11:00',
      'Mon 8 Mar 11:00',
      'Sun 14 Mar 11:00',
      'Mon 15 Mar 11:00',
      'Sun 21 Mar 11:00',
      'Mon 22 Mar 11:00',
      'Sun 28 Mar 11:00',
    ]);
    expect(evs).toHaveLength(8);
    expect(evs[7].uid).toBe('two-rules#2027-03-28T18:00:00Z');
  });

  /**
   * Independent expansion with the `rrule` package: its rules run on "floating" wall-clock dates (UTC fields),
   * UNTIL is converted to the series' wall clock first, and each wall-clock occurrence becomes an instant in
   * the zone with luxon (a nonexistent time moves forward by the gap, like fromLocal).
   */
  function independent(zone: string, dtstart: string, rules: string[], rdates: string[], exdates: string[]): string[] {
    const wall = (s: string) => {
      const d = DateTime.fromFormat(s, "yyyyMMdd'T'HHmmss", { zone: 'UTC' });
      return d.toJSDate();
    };
    const set = new RRuleSet();
    for (const r of rules) {
      const o = RRule.parseString(r.replace(/UNTIL=(\d{8}T\d{6})Z/, (_m, u: string) => `UNTIL=${DateTime.fromFormat(u, "yyyyMMdd'T'HHmmss", { zone: 'UTC' }).setZone(zone).toFormat("yyyyMMdd'T'HHmmss")}Z`));
      set.rrule(new RRule({ ...o, dtstart: wall(dtstart) }));
    }
    set.rdate(wall(dtstart));
    for (const r of rdates) set.rdate(wall(r));
    for (const x of exdates) set.exdate(wall(x));
    return set
      .all()
      .map((d) => DateTime.fromObject({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes() }, { zone }).toUTC().toISO({ suppressMilliseconds: true })!)
      .map((s) => s.replace('.000', ''));
  }

  it.each<[string, string, string, string[], string[], string[]]>([
    ['weekly + monthly Sundays (the issue)', 'America/Los_Angeles', '20270301T110000', ['FREQ=WEEKLY;UNTIL=20270329T065959Z', 'FREQ=MONTHLY;BYDAY=SU;UNTIL=20270329T065959Z'], [], []],
    ['two COUNT rules overlapping, one EXDATE', 'Europe/Amsterdam', '20270104T093000', ['FREQ=DAILY;COUNT=10', 'FREQ=WEEKLY;BYDAY=MO,FR;COUNT=8'], [], ['20270106T093000']],
    ['across spring-forward with RDATEs (one duplicating a rule instance)', 'Europe/Berlin', '20270320T083000', ['FREQ=WEEKLY;BYDAY=SA,SU;COUNT=6'], ['20270401T140000', '20270327T083000'], ['20270328T083000']],
    ['monthly by month day and yearly rule, UNTIL in UTC', 'Australia/Sydney', '20270131T190000', ['FREQ=MONTHLY;BYMONTHDAY=31;UNTIL=20271231T000000Z', 'FREQ=YEARLY;BYMONTH=2,6;BYMONTHDAY=1;COUNT=3'], [], ['20270531T190000']],
  ])('%s: the union equals an independent expansion', (_name, zone, dtstart, rules, rdates, exdates) => {
    const lines = [`UID:u`, `DTSTART;TZID=${zone}:${dtstart}`, ...rules.map((r) => `RRULE:${r}`)];
    for (const r of rdates) lines.push(`RDATE;TZID=${zone}:${r}`);
    for (const x of exdates) lines.push(`EXDATE;TZID=${zone}:${x}`);
    const got = eventsOf(cal([lines]), opts({ horizonStart: new Date('2027-01-01T00:00:00Z'), horizonEnd: new Date('2029-01-01T00:00:00Z') }));
    const want = independent(zone, dtstart, rules, rdates, exdates);
    expect(want.length).toBeGreaterThan(3);
    expect(got.map((e) => e.startsAt.toISOString().replace('.000', ''))).toEqual(want);
  });

  it('counts what lies outside the window', () => {
    const { events, stats } = readIcs(
      cal([['UID:d', 'DTSTART:20250101T090000Z', 'RRULE:FREQ=DAILY;COUNT=10'], ['UID:f', 'DTSTART:20250101T090000Z', 'RRULE:FREQ=YEARLY']]),
      opts(),
    );
    expect(events.map((e) => e.uid)).toEqual(['f#2026-01-01T09:00:00Z', 'f#2027-01-01T09:00:00Z']);
    expect(stats).toMatchObject({ vevents: 2, beforeWindow: 11, afterWindow: 0, seriesContinuing: 1, occurrences: 13 });
  });
});

describe('identity', () => {
  const sessions = [
    ['UID:rep', 'DTSTART:20270301T100000Z', 'SUMMARY:Talk A', 'LOCATION:Room 1'],
    ['UID:rep', 'DTSTART:20270301T110000Z', 'SUMMARY:Talk B', 'LOCATION:Room 2'],
    ['UID:solo', 'DTSTART:20270301T120000Z', 'SUMMARY:Solo'],
  ];

  it('a repeated UID: content identities, the same whatever the order; a unique UID keeps the plain UID', () => {
    const a = eventsOf(cal(sessions), opts());
    const b = eventsOf(cal([sessions[2], sessions[1], sessions[0]]), opts());
    const byTitle = (evs: typeof a) => Object.fromEntries(evs.map((e) => [e.title, e.uid]));
    expect(byTitle(a)).toEqual(byTitle(b));
    expect(byTitle(a)['Talk A']).toMatch(/^rep#c-[0-9a-f]{12}$/);
    expect(byTitle(a)['Talk A']).not.toBe(byTitle(a)['Talk B']);
    expect(byTitle(a).Solo).toBe('solo');
  });

  it('a VEVENT without UID gets a stable derived identity; the stats count it; an exact repeat is a duplicate', () => {
    const noUid = ['DTSTART:20270301T100000Z', 'SUMMARY:No UID', 'LOCATION:Hall'];
    const r1 = readIcs(cal([noUid, ['DTSTART:20270302T100000Z', 'SUMMARY:Other'], noUid]), opts());
    const r2 = readIcs(cal([['DTSTART:20270302T100000Z', 'SUMMARY:Other'], noUid]), opts());
    expect(r1.events.map((e) => e.uid)).toHaveLength(2);
    expect(r1.events[0].uid).toMatch(/^nouid:[0-9a-f]{16}$/);
    expect(new Set(r1.events.map((e) => e.uid))).toEqual(new Set(r2.events.map((e) => e.uid)));
    expect(r1.stats).toMatchObject({ vevents: 3, withoutUid: 3, duplicates: 1, occurrences: 3 });
  });
});
