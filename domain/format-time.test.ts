import { describe, expect, it } from 'vitest';
import {
  formatClockTime,
  formatEventTime,
  formatShortWhen,
  formatterCacheSize,
  isIsoInstant,
  resolveLocale,
  type FormatEventTimeInput,
  type FormattedEventTime,
} from './format-time';

const base: FormatEventTimeInput = {
  startsAt: '2027-03-28T09:00:00.000Z',
  endsAt: '2027-03-28T10:00:00.000Z',
  allDay: false,
  eventTimeZone: 'Europe/Amsterdam',
  recipientTimeZone: null,
  locale: 'en-GB',
};

const THIN = '\u2009'; // ICU writes thin spaces around the en dash of some range patterns
const NNBSP = '\u202f'; // and a narrow no-break space before AM/PM

describe('formatEventTime: the issue\'s exact German value', () => {
  it('de, 2027-06-15T08:00Z–09:00Z in Europe/Berlin', () => {
    expect(
      formatEventTime({
        startsAt: '2027-06-15T08:00:00Z',
        endsAt: '2027-06-15T09:00:00Z',
        allDay: false,
        eventTimeZone: 'Europe/Berlin',
        recipientTimeZone: null,
        locale: 'de',
      }).eventZoneLine,
    ).toBe('Dienstag, 15. Juni 2027, 10:00–11:00 MESZ');
  });
});

/**
 * The runtime's own CLDR output, built here straight from Intl with options written out independently of
 * the implementation, then the documented adjustments: the zone name becomes the label rule's choice
 * (English readers: en-GB's abbreviation; an offset-only label gets the IANA name), and German drops the
 * "Uhr" of its interval pattern before the zone name.
 */
function cldrRange(locale: string, zone: string, start: string, end: string): string {
  const fmt = new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    weekday: 'long',
    hour: 'numeric',
    minute: 'numeric',
    timeZoneName: 'short',
    timeZone: zone,
  });
  const raw = fmt.formatRange(new Date(start), new Date(end));
  const ownZone = fmt.formatToParts(new Date(start)).find((p) => p.type === 'timeZoneName')!.value;
  const offset = new Intl.DateTimeFormat(locale, { timeZoneName: 'shortOffset', timeZone: zone })
    .formatToParts(new Date(start))
    .find((p) => p.type === 'timeZoneName')!.value;
  let label = ownZone;
  if (ownZone === offset) {
    label = locale.startsWith('en')
      ? new Intl.DateTimeFormat('en-GB', { timeZoneName: 'short', timeZone: zone }).formatToParts(new Date(start)).find((p) => p.type === 'timeZoneName')!.value
      : raw.includes(`(${ownZone})`) ? `${ownZone} ${zone}` : `${ownZone} (${zone})`;
  }
  let expected = raw.replace(ownZone, label);
  if (locale === 'de') expected = expected.replace(` Uhr ${label}`, ` ${label}`);
  return expected;
}

describe('formatEventTime follows the reader\'s CLDR patterns (runtime Intl)', () => {
  const start = '2027-06-15T08:00:00Z';
  const end = '2027-06-15T09:00:00Z';
  it.each(['en', 'de', 'fr', 'nl', 'he', 'ar', 'ja', 'zh'])('%s', (locale) => {
    const line = formatEventTime({ startsAt: start, endsAt: end, allDay: false, eventTimeZone: 'Europe/Berlin', locale }).eventZoneLine;
    expect(line).toBe(cldrRange(locale, 'Europe/Berlin', start, end));
    // Not a fixed English order: the day number comes where the locale puts it.
    const dayFirst = /15\.? (Juni|juin|juni|ביוני|يونيو)/.test(line);
    expect(dayFirst).toBe(['de', 'fr', 'nl', 'he', 'ar'].includes(locale));
  });

  it('the German runtime pattern really has "Uhr" (the one documented normalisation)', () => {
    const raw = new Intl.DateTimeFormat('de', { hour: 'numeric', minute: 'numeric', timeZoneName: 'short', timeZone: 'Europe/Berlin' }).formatRange(
      new Date(start),
      new Date(end),
    );
    expect(raw).toMatch(/Uhr/);
  });

  it('all-day ranges use the locale\'s date-interval pattern', () => {
    const days = new Intl.DateTimeFormat('de', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Berlin' }).formatRange(
      new Date('2027-10-18T12:00:00Z'),
      new Date('2027-10-20T12:00:00Z'),
    );
    expect(
      formatEventTime({ startsAt: '2027-10-17T22:00:00Z', endsAt: '2027-10-20T22:00:00Z', allDay: true, eventTimeZone: 'Europe/Berlin', locale: 'de' }).eventZoneLine,
    ).toBe(`${days} (all day)`);
  });
});

describe('formatEventTime', () => {
  const cases: Array<{ name: string; input: Partial<FormatEventTimeInput>; expected: FormattedEventTime }> = [
    {
      name: 'Amsterdam on the spring-forward day (CEST), recipient in New York: en-GB falls back to en-US for EDT',
      input: { recipientTimeZone: 'America/New_York' },
      expected: {
        eventZoneLine: 'Sunday, 28 March 2027, 11:00–12:00 CEST',
        recipientZoneLine: 'Sunday, 28 March 2027, 05:00–06:00 EDT (your time)',
      },
    },
    {
      name: 'locale en: 12-hour clock as CLDR en has it; EDT is named, CEST is found via en-GB',
      input: { recipientTimeZone: 'America/New_York', locale: 'en' },
      expected: {
        eventZoneLine: `Sunday, March 28, 2027, 11:00${NNBSP}AM${THIN}–${THIN}12:00${NNBSP}PM CEST`,
        recipientZoneLine: `Sunday, March 28, 2027, 5:00${THIN}–${THIN}6:00${NNBSP}AM EDT (your time)`,
      },
    },
    {
      name: 'event spanning the Amsterdam spring-forward gap shows both labels',
      input: { startsAt: '2027-03-28T00:30:00.000Z', endsAt: '2027-03-28T01:30:00.000Z' },
      expected: {
        eventZoneLine: `Sunday, 28 March 2027 at 01:30 CET${THIN}–${THIN}Sunday, 28 March 2027 at 03:30 CEST`,
        recipientZoneLine: null,
      },
    },
    {
      name: 'New York fall-back: the repeated 01:30 is told apart by EDT/EST (ICU formatRange would collapse it)',
      input: {
        startsAt: '2027-11-07T05:30:00.000Z',
        endsAt: '2027-11-07T06:30:00.000Z',
        eventTimeZone: 'America/New_York',
        locale: 'en-US',
      },
      expected: {
        eventZoneLine: `Sunday, November 7, 2027 at 1:30${NNBSP}AM EDT${THIN}–${THIN}Sunday, November 7, 2027 at 1:30${NNBSP}AM EST`,
        recipientZoneLine: null,
      },
    },
    {
      name: 'New York after fall-back (EST), Amsterdam recipient: en-GB names both',
      input: {
        startsAt: '2027-11-07T15:00:00.000Z',
        endsAt: '2027-11-07T16:30:00.000Z',
        eventTimeZone: 'America/New_York',
        recipientTimeZone: 'Europe/Amsterdam',
      },
      expected: {
        eventZoneLine: 'Sunday, 7 November 2027, 10:00–11:30 EST',
        recipientZoneLine: 'Sunday, 7 November 2027, 16:00–17:30 CET (your time)',
      },
    },
    {
      name: 'Asia/Kolkata: en-GB has only an offset, en-IN names it IST',
      input: { eventTimeZone: 'Asia/Kolkata', endsAt: null, recipientTimeZone: 'UTC' },
      expected: {
        eventZoneLine: 'Sunday, 28 March 2027 at 14:30 IST',
        recipientZoneLine: 'Sunday, 28 March 2027 at 09:00 UTC (your time)',
      },
    },
    {
      name: 'America/Sao_Paulo has no abbreviation in any English locale: offset plus IANA name',
      input: { eventTimeZone: 'America/Sao_Paulo', endsAt: null, recipientTimeZone: 'UTC' },
      expected: {
        eventZoneLine: 'Sunday, 28 March 2027 at 06:00 GMT-3 (America/Sao_Paulo)',
        recipientZoneLine: 'Sunday, 28 March 2027 at 09:00 UTC (your time)',
      },
    },
    {
      name: 'the reader\'s own zone line merges an offset-only label: French reader in Kolkata',
      input: { recipientTimeZone: 'Asia/Kolkata', locale: 'fr' },
      expected: {
        eventZoneLine: `dimanche 28 mars 2027, 11:00${THIN}–${THIN}12:00 UTC+2 (Europe/Amsterdam)`,
        recipientZoneLine: `dimanche 28 mars 2027, 14:30${THIN}–${THIN}15:30 UTC+5:30 (Asia/Kolkata, your time)`,
      },
    },
    {
      name: 'current zone name Europe/Kyiv formats (ICU knows it as an alias of Europe/Kiev)',
      input: { eventTimeZone: 'Europe/Kyiv', locale: 'de' },
      expected: { eventZoneLine: 'Sonntag, 28. März 2027, 12:00–13:00 OESZ', recipientZoneLine: null },
    },
    {
      name: 'all-day: date in the event zone, no time, no zone, no recipient line',
      input: {
        startsAt: '2027-10-17T22:00:00.000Z',
        endsAt: '2027-10-18T22:00:00.000Z',
        allDay: true,
        recipientTimeZone: 'America/New_York',
      },
      expected: { eventZoneLine: 'Monday, 18 October 2027 (all day)', recipientZoneLine: null },
    },
    {
      name: 'all-day over three days (exclusive end), Dutch date interval',
      input: {
        startsAt: '2027-10-17T22:00:00.000Z',
        endsAt: '2027-10-20T22:00:00.000Z',
        allDay: true,
        locale: 'nl',
      },
      expected: { eventZoneLine: `maandag 18${THIN}–${THIN}woensdag 20 oktober 2027 (all day)`, recipientZoneLine: null },
    },
    {
      name: 'crossing midnight writes both days in full',
      input: { startsAt: '2027-03-28T20:00:00.000Z', endsAt: '2027-03-28T23:00:00.000Z' },
      expected: {
        eventZoneLine: `Sunday, 28 March 2027 at 22:00 CEST${THIN}–${THIN}Monday, 29 March 2027 at 01:00 CEST`,
        recipientZoneLine: null,
      },
    },
    {
      name: 'recipient in another zone with the same offset: no recipient line',
      input: { recipientTimeZone: 'Europe/Berlin' },
      expected: { eventZoneLine: 'Sunday, 28 March 2027, 11:00–12:00 CEST', recipientZoneLine: null },
    },
    {
      name: 'recipient in the event zone: no recipient line',
      input: { recipientTimeZone: 'Europe/Amsterdam' },
      expected: { eventZoneLine: 'Sunday, 28 March 2027, 11:00–12:00 CEST', recipientZoneLine: null },
    },
    {
      name: 'empty recipient zone and no end',
      input: { recipientTimeZone: '', endsAt: null },
      expected: { eventZoneLine: 'Sunday, 28 March 2027 at 11:00 CEST', recipientZoneLine: null },
    },
    {
      name: 'Date inputs, German pattern and abbreviation',
      input: {
        startsAt: new Date('2027-03-28T09:00:00.000Z'),
        endsAt: new Date('2027-03-28T10:00:00.000Z'),
        locale: 'de',
      },
      expected: { eventZoneLine: 'Sonntag, 28. März 2027, 11:00–12:00 MESZ', recipientZoneLine: null },
    },
    {
      name: 'unsupported locale falls back to en',
      input: { locale: 'not a locale', eventTimeZone: 'UTC' },
      expected: { eventZoneLine: `Sunday, March 28, 2027, 9:00${THIN}–${THIN}10:00${NNBSP}AM UTC`, recipientZoneLine: null },
    },
    {
      name: 'start given with an offset is the same instant',
      input: { startsAt: '2027-03-28T11:00:00+02:00' },
      expected: { eventZoneLine: 'Sunday, 28 March 2027, 11:00–12:00 CEST', recipientZoneLine: null },
    },
  ];

  it.each(cases)('$name', ({ input, expected }) => {
    expect(formatEventTime({ ...base, ...input })).toEqual(expected);
  });

  const errors: Array<{ name: string; input: Partial<FormatEventTimeInput>; message: RegExp }> = [
    { name: 'invalid event zone', input: { eventTimeZone: 'Mars/Olympus' }, message: /^eventTimeZone:/ },
    { name: 'invalid recipient zone', input: { recipientTimeZone: 'Nowhere' }, message: /^recipientTimeZone:/ },
    { name: 'unparseable start', input: { startsAt: 'tomorrow' }, message: /^startsAt:/ },
    { name: 'bare date is not an instant', input: { startsAt: '2027-03-28' }, message: /^startsAt:/ },
    { name: 'local time is not an instant', input: { startsAt: '2027-03-28T09:00' }, message: /^startsAt:/ },
    { name: 'invalid Date', input: { startsAt: new Date('nope') }, message: /^startsAt:/ },
    { name: 'unparseable end', input: { endsAt: '2027-13-01T00:00:00Z' }, message: /^endsAt:/ },
    { name: 'end before start', input: { endsAt: '2027-03-28T08:00:00.000Z' }, message: /^endsAt:/ },
  ];

  it.each(errors)('throws naming the field: $name', ({ input, message }) => {
    expect(() => formatEventTime({ ...base, ...input })).toThrow(message);
  });
});

describe('formatShortWhen / formatClockTime', () => {
  it.each([
    { at: '2027-03-28T09:00:00.000Z', timeZone: 'Europe/Amsterdam', locale: 'en-GB', allDay: false, expected: 'Sun 28 Mar, 11:00 CEST' },
    { at: '2027-03-28T09:00:00.000Z', timeZone: 'Europe/Amsterdam', locale: 'en', allDay: false, expected: `Sun, Mar 28, 11:00${NNBSP}AM CEST` },
    { at: '2027-11-07T06:30:00.000Z', timeZone: 'America/New_York', locale: 'en-GB', allDay: false, expected: 'Sun 7 Nov, 01:30 EST' },
    { at: '2027-10-17T22:00:00.000Z', timeZone: 'Europe/Amsterdam', locale: 'en-GB', allDay: true, expected: 'Mon 18 Oct (all day)' },
    { at: '2027-03-28T09:00:00.000Z', timeZone: 'Europe/Amsterdam', locale: 'de', allDay: false, expected: 'So., 28. März, 11:00 MESZ' },
  ])('formatShortWhen $at $timeZone $locale', ({ expected, ...input }) => {
    expect(formatShortWhen(input)).toBe(expected);
  });

  it.each([
    { at: '2027-03-28T08:30:00.000Z', timeZone: 'Europe/Amsterdam', locale: 'en-GB', expected: '10:30 CEST' },
    { at: '2027-03-28T08:30:00.000Z', timeZone: 'Asia/Kolkata', locale: 'en-GB', expected: '14:00 IST' },
    { at: '2027-03-28T08:30:00.000Z', timeZone: 'America/Sao_Paulo', locale: 'en-GB', expected: '05:30 GMT-3' },
    { at: '2027-03-28T08:30:00.000Z', timeZone: 'America/Sao_Paulo', locale: 'en', expected: `5:30${NNBSP}AM GMT-3` },
  ])('formatClockTime $at $timeZone $locale', ({ expected, ...input }) => {
    expect(formatClockTime(input)).toBe(expected);
  });

  it('throws naming the field', () => {
    expect(() => formatClockTime({ at: 'x', timeZone: 'UTC', locale: 'en' })).toThrow(/^at:/);
    expect(() => formatShortWhen({ at: '2027-03-28T08:30:00Z', timeZone: 'X/Y', locale: 'en', allDay: false })).toThrow(
      /^timeZone:/,
    );
  });
});

describe('isIsoInstant / resolveLocale', () => {
  it.each([
    ['2027-03-28T09:00:00.000Z', true],
    ['2027-03-28T11:00+02:00', true],
    ['2027-03-28T09:00:00', false],
    ['2027-03-28', false],
    ['2027-02-30T09:00:00Z', false],
    ['', false],
  ])('isIsoInstant(%j) = %s', (value, expected) => {
    expect(isIsoInstant(value)).toBe(expected);
  });

  it.each([
    ['nl-NL', 'nl-NL'],
    ['xx', 'en'],
    ['not a locale', 'en'],
    ['', 'en'],
    [null, 'en'],
  ])('resolveLocale(%j) = %s', (value, expected) => {
    expect(resolveLocale(value)).toBe(expected);
  });
});

describe('formatter cache', () => {
  it('a second identical send builds no new Intl.DateTimeFormat', () => {
    const input = { ...base, locale: 'nl', recipientTimeZone: 'Asia/Tokyo', eventTimeZone: 'Europe/Brussels' };
    formatEventTime(input);
    formatShortWhen({ at: base.startsAt, timeZone: 'Europe/Brussels', locale: 'nl', allDay: false });
    const size = formatterCacheSize();
    expect(size).toBeGreaterThan(0);
    formatEventTime(input);
    formatShortWhen({ at: base.startsAt, timeZone: 'Europe/Brussels', locale: 'nl', allDay: false });
    expect(formatterCacheSize()).toBe(size);
  });
});

describe('the words in parentheses come in the message\'s language', () => {
  const nl = { allDay: 'hele dag', yourTime: 'jouw tijd' };
  it('all day, the reader\'s own time, and an offset-only label merged with the zone name', () => {
    expect(formatEventTime({ ...base, locale: 'nl', allDay: true, words: nl }).eventZoneLine).toBe('zondag 28 maart 2027 (hele dag)');
    expect(formatEventTime({ ...base, locale: 'nl', recipientTimeZone: 'America/New_York', words: nl }).recipientZoneLine).toBe(
      'zondag 28 maart 2027, 05:00\u201306:00 EDT (jouw tijd)',
    );
    expect(formatEventTime({ ...base, locale: 'de', recipientTimeZone: 'America/New_York', words: { allDay: 'ganztägig', yourTime: 'Ihre Ortszeit' } }).recipientZoneLine).toBe(
      'Sonntag, 28. März 2027, 05:00\u201306:00 GMT-4 (America/New_York, Ihre Ortszeit)',
    );
    expect(formatShortWhen({ at: base.startsAt, timeZone: 'Europe/Amsterdam', locale: 'nl', allDay: true, words: nl })).toBe('zo 28 mrt (hele dag)');
  });
  it('English without words, and the cache keeps the languages apart', () => {
    expect(formatShortWhen({ at: base.startsAt, timeZone: 'Europe/Amsterdam', locale: 'nl', allDay: true })).toBe('zo 28 mrt (all day)');
    expect(formatEventTime({ ...base, allDay: true }).eventZoneLine).toBe('Sunday, 28 March 2027 (all day)');
  });
});
