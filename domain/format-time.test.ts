import { describe, expect, it } from 'vitest';
import {
  formatClockTime,
  formatEventTime,
  formatShortWhen,
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

describe('formatEventTime', () => {
  const cases: Array<{ name: string; input: Partial<FormatEventTimeInput>; expected: FormattedEventTime }> = [
    {
      name: 'Amsterdam on the spring-forward day (CEST), recipient in New York: en-GB falls back to en-US for EDT',
      input: { recipientTimeZone: 'America/New_York' },
      expected: {
        eventZoneLine: 'Sunday 28 March 2027, 11:00–12:00 CEST',
        recipientZoneLine: 'Sunday 28 March 2027, 05:00–06:00 EDT (your time)',
      },
    },
    {
      name: 'locale en: EDT is named, CEST is found via en-GB',
      input: { recipientTimeZone: 'America/New_York', locale: 'en' },
      expected: {
        eventZoneLine: 'Sunday 28 March 2027, 11:00–12:00 CEST',
        recipientZoneLine: 'Sunday 28 March 2027, 05:00–06:00 EDT (your time)',
      },
    },
    {
      name: 'event spanning the Amsterdam spring-forward gap shows both labels',
      input: { startsAt: '2027-03-28T00:30:00.000Z', endsAt: '2027-03-28T01:30:00.000Z' },
      expected: { eventZoneLine: 'Sunday 28 March 2027, 01:30 CET – 03:30 CEST', recipientZoneLine: null },
    },
    {
      name: 'New York fall-back: the repeated 01:30 is told apart by EDT/EST',
      input: {
        startsAt: '2027-11-07T05:30:00.000Z',
        endsAt: '2027-11-07T06:30:00.000Z',
        eventTimeZone: 'America/New_York',
        locale: 'en-US',
      },
      expected: { eventZoneLine: 'Sunday 7 November 2027, 01:30 EDT – 01:30 EST', recipientZoneLine: null },
    },
    {
      name: 'New York after fall-back (EST), Amsterdam recipient: en-US falls back to en-GB for CET',
      input: {
        startsAt: '2027-11-07T15:00:00.000Z',
        endsAt: '2027-11-07T16:30:00.000Z',
        eventTimeZone: 'America/New_York',
        recipientTimeZone: 'Europe/Amsterdam',
        locale: 'en-US',
      },
      expected: {
        eventZoneLine: 'Sunday 7 November 2027, 10:00–11:30 EST',
        recipientZoneLine: 'Sunday 7 November 2027, 16:00–17:30 CET (your time)',
      },
    },
    {
      name: 'Asia/Kolkata: locale en has only an offset, en-IN names it IST',
      input: { eventTimeZone: 'Asia/Kolkata', endsAt: null, recipientTimeZone: 'UTC', locale: 'en' },
      expected: {
        eventZoneLine: 'Sunday 28 March 2027, 14:30 IST',
        recipientZoneLine: 'Sunday 28 March 2027, 09:00 UTC (your time)',
      },
    },
    {
      name: 'America/Sao_Paulo has no abbreviation in any English locale: offset plus IANA name',
      input: { eventTimeZone: 'America/Sao_Paulo', endsAt: null, recipientTimeZone: 'UTC', locale: 'en' },
      expected: {
        eventZoneLine: 'Sunday 28 March 2027, 06:00 GMT-3 (America/Sao_Paulo)',
        recipientZoneLine: 'Sunday 28 March 2027, 09:00 UTC (your time)',
      },
    },
    {
      name: 'all-day: date in the event zone, no time, no zone, no recipient line',
      input: {
        startsAt: '2027-10-17T22:00:00.000Z',
        endsAt: '2027-10-18T22:00:00.000Z',
        allDay: true,
        recipientTimeZone: 'America/New_York',
        locale: 'en',
      },
      expected: { eventZoneLine: 'Monday 18 October 2027 (all day)', recipientZoneLine: null },
    },
    {
      name: 'all-day over three days (exclusive end), Dutch names',
      input: {
        startsAt: '2027-10-17T22:00:00.000Z',
        endsAt: '2027-10-20T22:00:00.000Z',
        allDay: true,
        locale: 'nl',
      },
      expected: { eventZoneLine: 'maandag 18 oktober 2027 – woensdag 20 oktober 2027 (all day)', recipientZoneLine: null },
    },
    {
      name: 'crossing midnight repeats the date',
      input: { startsAt: '2027-03-28T20:00:00.000Z', endsAt: '2027-03-28T23:00:00.000Z' },
      expected: {
        eventZoneLine: 'Sunday 28 March 2027, 22:00 – Monday 29 March 2027, 01:00 CEST',
        recipientZoneLine: null,
      },
    },
    {
      name: 'recipient in another zone with the same offset: no recipient line',
      input: { recipientTimeZone: 'Europe/Berlin' },
      expected: { eventZoneLine: 'Sunday 28 March 2027, 11:00–12:00 CEST', recipientZoneLine: null },
    },
    {
      name: 'recipient in the event zone: no recipient line',
      input: { recipientTimeZone: 'Europe/Amsterdam' },
      expected: { eventZoneLine: 'Sunday 28 March 2027, 11:00–12:00 CEST', recipientZoneLine: null },
    },
    {
      name: 'empty recipient zone and no end',
      input: { recipientTimeZone: '', endsAt: null },
      expected: { eventZoneLine: 'Sunday 28 March 2027, 11:00 CEST', recipientZoneLine: null },
    },
    {
      name: 'Date inputs, German names and abbreviation',
      input: {
        startsAt: new Date('2027-03-28T09:00:00.000Z'),
        endsAt: new Date('2027-03-28T10:00:00.000Z'),
        locale: 'de',
      },
      expected: { eventZoneLine: 'Sonntag 28 März 2027, 11:00–12:00 MESZ', recipientZoneLine: null },
    },
    {
      name: 'unsupported locale falls back to en',
      input: { locale: 'not a locale', eventTimeZone: 'UTC' },
      expected: { eventZoneLine: 'Sunday 28 March 2027, 09:00–10:00 UTC', recipientZoneLine: null },
    },
    {
      name: 'start given with an offset is the same instant',
      input: { startsAt: '2027-03-28T11:00:00+02:00' },
      expected: { eventZoneLine: 'Sunday 28 March 2027, 11:00–12:00 CEST', recipientZoneLine: null },
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
    { at: '2027-03-28T09:00:00.000Z', timeZone: 'Europe/Amsterdam', locale: 'en', allDay: false, expected: 'Sun 28 Mar, 11:00 CEST' },
    { at: '2027-11-07T06:30:00.000Z', timeZone: 'America/New_York', locale: 'en', allDay: false, expected: 'Sun 7 Nov, 01:30 EST' },
    { at: '2027-10-17T22:00:00.000Z', timeZone: 'Europe/Amsterdam', locale: 'en', allDay: true, expected: 'Mon 18 Oct (all day)' },
  ])('formatShortWhen $at $timeZone $locale', ({ expected, ...input }) => {
    expect(formatShortWhen(input)).toBe(expected);
  });

  it.each([
    { at: '2027-03-28T08:30:00.000Z', timeZone: 'Europe/Amsterdam', locale: 'en-GB', expected: '10:30 CEST' },
    { at: '2027-03-28T08:30:00.000Z', timeZone: 'Asia/Kolkata', locale: 'en', expected: '14:00 IST' },
    { at: '2027-03-28T08:30:00.000Z', timeZone: 'America/Sao_Paulo', locale: 'en', expected: '05:30 GMT-3' },
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
