/**
 * Pure formatting of event times for messages (reminder emails, subjects).
 *
 * Everything here takes UTC instants plus IANA zone names and a locale, and returns display strings.
 * Nothing reads the clock or the environment: the same input always gives the same output (the only
 * outside dependency is the ICU/CLDR data shipped with Node).
 *
 * Conventions (issue 8 §5: "the words of an email follow the reader"):
 * - Dates and times follow the reader's locale's own CLDR patterns through `Intl.DateTimeFormat`
 *   (`formatRange` for start–end): field order, punctuation, 12/24-hour clock, range separators and
 *   spacing (ICU writes U+2009 thin spaces around some en dashes and U+202F before "AM"/"PM") are the
 *   runtime's. German reads "Dienstag, 15. Juni 2027, 10:00–11:00 MESZ", American English
 *   "Tuesday, June 15, 2027, 10:00 – 11:00 AM EDT". The calendar is always Gregorian.
 * - ONE normalisation of ICU output, documented here: CLDR's German time-interval pattern ends in
 *   "'Uhr'" ("10:00–11:00 Uhr MESZ") while its single-time pattern does not ("10:00 MESZ"); before a
 *   zone name the word is dropped so a range reads like a single time ("10:00–11:00 MESZ", the value the
 *   issue asks for). It applies only to a literal " Uhr " directly before the zone name in `de` locales.
 * - A zone is labelled with the locale's own short name ("MESZ" in `de`, "CEST" in `nl`, "EDT" in
 *   `en-US`). Only English readers get English abbreviations from other English regions when their own
 *   locale has just an offset (`en` knows "EDT" but not "CEST"; en-GB does), because those abbreviations
 *   are English conventions. When the label is only an offset ("GMT+2", "UTC+2", "غرينتش+2") the IANA
 *   name is appended in parentheses so the reader can tell which zone's rules apply:
 *   "UTC+2 (Europe/Berlin)".
 * - Formatters are cached (`Intl.DateTimeFormat` construction is the expensive part of formatting), and so are
 *   the results of the public functions, by their whole input (they are pure): a send of the same event to many
 *   recipients formats it once. Both caches are bounded.
 */
import { DateTime } from 'luxon';
import { isValidZone } from './zones';

/** An instant: a `Date` or an ISO-8601 string carrying `Z` or an offset. Never a local wall-clock time. */
export type InstantInput = Date | string;

export interface FormatEventTimeInput {
  /** Start instant (UTC instant; for all-day events, any instant on the first day in the event zone). */
  startsAt: InstantInput;
  /** End instant, or null/undefined when unknown. For all-day events the end is read as exclusive. */
  endsAt?: InstantInput | null;
  allDay: boolean;
  /** IANA zone the event is planned in, e.g. "Europe/Amsterdam". */
  eventTimeZone: string;
  /** IANA zone of the recipient, or null/empty when unknown. */
  recipientTimeZone?: string | null;
  /** BCP 47 locale of the reader, e.g. "de", "en-GB". Falls back to "en" when not supported. */
  locale: string;
  /** The words added in parentheses, in the message's language (default English: {@link englishTimeWords}). */
  words?: TimeWords;
}

/**
 * The two words format-time adds to a date in parentheses, in the language of the message around it: after the
 * days of an all-day event ("Monday, 18 October 2027 (all day)") and after the reader's own time ("05:00 EDT (your
 * time)"). The message catalog supplies them (emails/messages/); English by default.
 */
export interface TimeWords {
  allDay: string;
  yourTime: string;
}

/** The English words ("all day", "your time"). */
export const englishTimeWords: TimeWords = { allDay: 'all day', yourTime: 'your time' };

export interface FormattedEventTime {
  /** The event's time in its own zone, e.g. "Sunday 28 March 2027, 11:00–12:00 CEST" (en-GB). */
  eventZoneLine: string;
  /**
   * The same instants in the recipient's zone followed by " (your time)"; null when it would add nothing
   * (no recipient zone, same zone or same offset, all-day event).
   */
  recipientZoneLine: string | null;
}

const FALLBACK_LOCALE = 'en';

/**
 * Returns `locale` when this runtime's Intl supports it, else "en". Pure.
 * Malformed tags (e.g. "not a locale") and unsupported ones (e.g. "xx") both fall back, because Intl would
 * otherwise silently use the process's default locale, which differs between machines.
 */
export function resolveLocale(locale: string | null | undefined): string {
  if (!locale) return FALLBACK_LOCALE;
  let resolved = resolvedLocales.get(locale);
  if (resolved === undefined) {
    try {
      const supported = Intl.DateTimeFormat.supportedLocalesOf([locale]);
      resolved = supported.length > 0 ? supported[0] : FALLBACK_LOCALE;
    } catch {
      resolved = FALLBACK_LOCALE;
    }
    if (resolvedLocales.size >= 1000) resolvedLocales.clear();
    resolvedLocales.set(locale, resolved);
  }
  return resolved;
}

// resolveLocale's answers (ICU's supported locales do not change while the process runs).
const resolvedLocales = new Map<string, string>();

// Date, "T", time, then Z or an offset. A string without Z/offset (or a bare date) would be read as a
// local time of this process, which is not an instant: refuse it.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;

/**
 * True when `value` is an ISO-8601 instant: a date and time carrying `Z` or a UTC offset
 * (e.g. "2027-03-28T09:00:00.000Z", "2027-03-28T11:00+02:00") that luxon parses to a real moment.
 * Bare dates and local times ("2027-03-28T09:00") are not instants. Pure.
 */
export function isIsoInstant(value: string): boolean {
  const trimmed = value.trim();
  return ISO_INSTANT.test(trimmed) && DateTime.fromISO(trimmed).isValid;
}

/**
 * Parses an instant and places it in `zone`.
 * @throws Error naming `field` when the instant is not a valid Date / ISO-8601 string with `Z` or offset,
 *   or when `zone` is not a valid IANA zone (the error then names `zoneField`).
 */
function toZoned(value: InstantInput, field: string, zone: string, zoneField: string): DateTime {
  assertZone(zone, zoneField);
  let dt: DateTime;
  if (value instanceof Date) {
    dt = DateTime.fromJSDate(value);
  } else if (typeof value === 'string') {
    if (!isIsoInstant(value)) {
      throw new Error(`${field}: must be an ISO-8601 instant with Z or an offset, got "${value}"`);
    }
    dt = DateTime.fromISO(value.trim());
  } else {
    throw new Error(`${field}: must be a Date or an ISO-8601 string`);
  }
  if (!dt.isValid) throw new Error(`${field}: not a valid instant (${dt.invalidExplanation ?? dt.invalidReason})`);
  return dt.setZone(zone);
}

function assertZone(zone: string, field: string): void {
  if (typeof zone !== 'string' || !isValidZone(zone)) {
    throw new Error(`${field}: not a valid IANA time zone ("${String(zone)}")`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Formatter cache. Building an Intl.DateTimeFormat loads ICU data and costs far more than formatting with
// one; a send formats a handful of lines, each needing several formatters. Keyed by locale, zone and the
// options; bounded so an unusual mix of locales and zones cannot grow it without limit.

const FORMATTER_CACHE_LIMIT = 500;
const formatterCache = new Map<string, Intl.DateTimeFormat>();

/** A cached `Intl.DateTimeFormat` for `locale` in `timeZone` with `options` (Gregorian calendar). */
function formatter(locale: string, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}|${JSON.stringify(options)}`;
  let f = formatterCache.get(key);
  if (!f) {
    if (formatterCache.size >= FORMATTER_CACHE_LIMIT) formatterCache.clear();
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone, calendar: 'gregory' });
    formatterCache.set(key, f);
  }
  return f;
}

/** Number of cached formatters (for tests and measurements only). */
export function formatterCacheSize(): number {
  return formatterCache.size;
}

// Results of the three public formatting functions, keyed by their whole input. They are pure (the output
// depends only on the input and the runtime's ICU data), so a message that formats the same event for many
// recipients formats it once. Bounded like the formatter cache; errors are not cached (they are thrown again).
const RESULT_CACHE_LIMIT = 2000;
const resultCache = new Map<string, unknown>();

function instantKey(value: InstantInput | null | undefined): string {
  return value instanceof Date ? `D${value.getTime()}` : typeof value === 'string' ? `S${value}` : `-${String(value)}`;
}

function memo<T>(key: string, compute: () => T): T {
  if (resultCache.has(key)) return resultCache.get(key) as T;
  const value = compute();
  if (resultCache.size >= RESULT_CACHE_LIMIT) resultCache.clear();
  resultCache.set(key, value);
  return value;
}

const LONG_DATE: Intl.DateTimeFormatOptions = { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' };
const LONG_DATE_TIME: Intl.DateTimeFormatOptions = {
  ...LONG_DATE,
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
};
const SHORT_DATE: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short' };
const SHORT_DATE_TIME: Intl.DateTimeFormatOptions = { ...SHORT_DATE, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' };
const CLOCK_TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' };

// ---------------------------------------------------------------------------------------------------------
// Zone labels.

const ABBREVIATION_LOCALES = ['en-US', 'en-GB', 'en-IN', 'en-AU', 'en-NZ', 'en-CA', 'en-ZA'];

function zoneNamePart(locale: string, zone: string, at: Date, style: 'short' | 'shortOffset'): string {
  const parts = formatter(locale, zone, { timeZoneName: style }).formatToParts(at);
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? '';
}

function isOffsetOnly(label: string, locale: string, zone: string, at: Date): boolean {
  return label === zoneNamePart(locale, zone, at, 'shortOffset') || /^(GMT|UTC)\u200e?[+\-\u2212]\d/.test(label);
}

function isEnglish(locale: string): boolean {
  return locale.toLowerCase() === 'en' || locale.toLowerCase().startsWith('en-');
}

/**
 * Zone label at `at` in the reader's locale: the locale's own short name ("MESZ", "CEST", "EDT"); for English
 * readers whose region has only an offset, another English region's abbreviation ("CEST" from en-GB, "IST"
 * from en-IN). When only an offset is left: that offset in the reader's locale, plus " (Zone/Name)" when
 * `withIanaName` ("UTC+2 (Europe/Berlin)"; "GMT+3 Europe/Kyiv" when `withIanaName` is "bare", for patterns
 * that already put the zone in parentheses, as `ja` does).
 */
function zoneLabel(locale: string, zone: string, at: Date, withIanaName: boolean | 'bare'): string {
  const own = zoneNamePart(locale, zone, at, 'short');
  if (!isOffsetOnly(own, locale, zone, at)) return own;
  if (isEnglish(locale)) {
    for (const other of ABBREVIATION_LOCALES) {
      const label = zoneNamePart(other, zone, at, 'short');
      if (!isOffsetOnly(label, other, zone, at)) return label;
    }
  }
  if (!withIanaName) return own;
  return withIanaName === 'bare' ? `${own} ${zone}` : `${own} (${zone})`;
}

// ---------------------------------------------------------------------------------------------------------
// Assembling Intl parts.

type Part = { type: string; value: string; source?: string };

/**
 * Joins parts, putting `label` where ICU put the zone name. The German "Uhr" before the zone name is the
 * one documented normalisation (see the module comment).
 */
function joinParts(parts: Part[], locale: string, labelFor: (p: Part, inParentheses: boolean) => string): string {
  const german = /^de(-|$)/i.test(locale);
  return parts
    .map((p, i) => {
      if (p.type === 'timeZoneName') return labelFor(p, /[(（]$/.test(parts[i - 1]?.value ?? ''));
      if (german && p.type === 'literal' && p.value === ' Uhr ' && parts[i + 1]?.type === 'timeZoneName') return ' ';
      return p.value;
    })
    .join('');
}

/** The locale's separator between two fully written instants (CLDR intervalFormatFallback, e.g. " – "). */
function fallbackRangeSeparator(locale: string): string {
  // Two instants a year apart share no field, so ICU writes both in full joined by the fallback pattern.
  const f = formatter(locale, 'UTC', LONG_DATE);
  const parts = f.formatRangeToParts(new Date(Date.UTC(2001, 0, 1)), new Date(Date.UTC(2002, 0, 1))) as Part[];
  const firstEnd = parts.findIndex((p) => p.source === 'endRange');
  const sep = firstEnd > 0 ? parts[firstEnd - 1] : undefined;
  return sep && sep.type === 'literal' && sep.source === 'shared' ? sep.value : ' \u2013 ';
}

/** One instant with date, time and zone: "Dienstag, 15. Juni 2027 um 10:00 MESZ". */
function longInstant(locale: string, zone: string, at: DateTime, withIanaName: boolean): string {
  const d = at.toJSDate();
  const parts = formatter(locale, zone, LONG_DATE_TIME).formatToParts(d);
  return joinParts(parts, locale, (_, inParens) => zoneLabel(locale, zone, d, withIanaName && inParens ? 'bare' : withIanaName));
}

/**
 * "Dienstag, 15. Juni 2027, 10:00–11:00 MESZ" (de), also across midnight ("… um 22:00 MESZ – Mittwoch, …
 * um 01:00 MESZ") and across a change of offset, where each end carries its own label ("01:30 MEZ –
 * … 03:30 MESZ"): ICU's formatRange writes one zone name for the whole range and, at a fall-back, even
 * collapses 01:30 EDT – 01:30 EST into one time, so such ranges are two single instants joined by the
 * locale's fallback separator.
 */
function timedLine(locale: string, zone: string, start: DateTime, end: DateTime | null): string {
  if (!end || end.toMillis() === start.toMillis()) return longInstant(locale, zone, start, true);
  if (start.offset !== end.offset) {
    return `${longInstant(locale, zone, start, true)}${fallbackRangeSeparator(locale)}${longInstant(locale, zone, end, true)}`;
  }
  const s = start.toJSDate();
  const e = end.toJSDate();
  const parts = formatter(locale, zone, LONG_DATE_TIME).formatRangeToParts(s, e) as Part[];
  return joinParts(parts, locale, (p, inParens) => zoneLabel(locale, zone, p.source === 'endRange' ? e : s, inParens ? 'bare' : true));
}

/**
 * Formats an event's time for a message in the reader's locale (CLDR patterns, see the module comment):
 * one line in the event's zone, and one in the recipient's zone when that differs.
 *
 * - Timed event, e.g. for `de` and 2027-06-15T08:00Z–09:00Z in Europe/Berlin:
 *   "Dienstag, 15. Juni 2027, 10:00–11:00 MESZ"; en-GB "Tuesday, 15 June 2027, 10:00–11:00 CEST". An end
 *   on another day or across an offset change writes both ends in full; no end writes one instant.
 * - All-day event: the locale's date (range) of the days in the event zone, then " (all day)" (in the
 *   message's `words`, English by default): "Monday, 18 October 2027 (all day)", "18.–20. Oktober …" style ranges
 *   as CLDR writes them. The end is exclusive (midnight after the last day). `recipientZoneLine` is null.
 * - `recipientZoneLine` is the same range in the recipient's zone plus " (your time)" (an offset-only
 *   label merges: "GMT-3 (America/Sao_Paulo, your time)"), or null when `recipientTimeZone` is null/empty,
 *   equals the event zone, or has the same UTC offset as the event zone at the start and end instants.
 *
 * Pure: no clock reads. `locale` falls back to "en" when unsupported (see {@link resolveLocale}).
 * @throws Error whose message starts with the failing field name ("startsAt: …", "endsAt: …",
 *   "eventTimeZone: …", "recipientTimeZone: …") for an unparseable instant, an instant string without
 *   Z/offset, an invalid IANA zone, or an end before the start.
 */
export function formatEventTime(input: FormatEventTimeInput): FormattedEventTime {
  const key = [
    'E',
    instantKey(input.startsAt),
    instantKey(input.endsAt),
    input.allDay,
    input.eventTimeZone,
    input.recipientTimeZone ?? '',
    input.locale,
    wordsKey(input.words),
  ].join('\u0000');
  // A copy per call: callers get an object they may change without changing the cached one.
  return { ...memo(key, () => computeEventTime(input)) };
}

function wordsKey(words: TimeWords | undefined): string {
  return words ? `${words.allDay}\u0001${words.yourTime}` : '';
}

function computeEventTime(input: FormatEventTimeInput): FormattedEventTime {
  const locale = resolveLocale(input.locale);
  const words = input.words ?? englishTimeWords;
  const zone = input.eventTimeZone;
  const start = toZoned(input.startsAt, 'startsAt', zone, 'eventTimeZone');
  const end = input.endsAt == null ? null : toZoned(input.endsAt, 'endsAt', zone, 'eventTimeZone');
  if (end && end < start) throw new Error('endsAt: is before startsAt');
  const recipientZone = input.recipientTimeZone ? input.recipientTimeZone : null;
  if (recipientZone) assertZone(recipientZone, 'recipientTimeZone');

  if (input.allDay) {
    // The end of an all-day event is exclusive (midnight after the last day), as in iCalendar.
    const lastDay = end && end > start ? end.minus({ milliseconds: 1 }) : start;
    const f = formatter(locale, zone, LONG_DATE);
    const days = start.hasSame(lastDay, 'day')
      ? f.format(start.toJSDate())
      : f.formatRange(start.toJSDate(), lastDay.toJSDate());
    return { eventZoneLine: `${days} (${words.allDay})`, recipientZoneLine: null };
  }

  const eventZoneLine = timedLine(locale, zone, start, end);
  if (!recipientZone || recipientZone === zone) return { eventZoneLine, recipientZoneLine: null };

  const rStart = start.setZone(recipientZone);
  const rEnd = end ? end.setZone(recipientZone) : null;
  const sameOffset = rStart.offset === start.offset && (!end || !rEnd || rEnd.offset === end.offset);
  if (sameOffset) return { eventZoneLine, recipientZoneLine: null };

  const line = timedLine(locale, recipientZone, rStart, rEnd);
  // Offset-only label already ends in "(Zone/Name)": merge rather than stack two parentheses.
  const merged = /^(.*)\(([^()]+)\)$/s.exec(line);
  const recipientZoneLine = merged ? `${merged[1]}(${merged[2]}, ${words.yourTime})` : `${line} (${words.yourTime})`;
  return { eventZoneLine, recipientZoneLine };
}

export interface FormatInstantInput {
  /** The instant to show (UTC instant). */
  at: InstantInput;
  /** IANA zone to show it in. */
  timeZone: string;
  /** BCP 47 locale; falls back to "en" when unsupported. */
  locale: string;
}

/**
 * Compact date and time for subject lines, in `timeZone` and the locale's CLDR pattern:
 * en-GB "Sun 28 Mar, 11:00 CEST", de "So., 28. März, 11:00 MESZ" (offset-only zones stay bare:
 * "Sun 28 Mar, 11:00 GMT-3"), or "Mon 18 Oct (all day)" when `allDay`. Pure.
 * @throws Error naming "at" or "timeZone" for an invalid instant or zone.
 */
export function formatShortWhen(input: FormatInstantInput & { allDay: boolean; words?: TimeWords }): string {
  const key = ['W', instantKey(input.at), input.timeZone, input.locale, input.allDay, wordsKey(input.words)].join('\u0000');
  return memo(key, () => computeShortWhen(input));
}

function computeShortWhen(input: FormatInstantInput & { allDay: boolean; words?: TimeWords }): string {
  const locale = resolveLocale(input.locale);
  const dt = toZoned(input.at, 'at', input.timeZone, 'timeZone');
  const d = dt.toJSDate();
  if (input.allDay) return `${formatter(locale, input.timeZone, SHORT_DATE).format(d)} (${(input.words ?? englishTimeWords).allDay})`;
  const parts = formatter(locale, input.timeZone, SHORT_DATE_TIME).formatToParts(d);
  return joinParts(parts, locale, () => zoneLabel(locale, input.timeZone, d, false));
}

/**
 * Clock time with zone label in `timeZone` and the locale's CLDR pattern, for "opens at …" phrases:
 * en-GB "10:30 CEST", en "10:30 AM CEST" (offset-only zones stay bare: "10:30 GMT-3"). Pure.
 * @throws Error naming "at" or "timeZone" for an invalid instant or zone.
 */
export function formatClockTime(input: FormatInstantInput): string {
  const key = ['C', instantKey(input.at), input.timeZone, input.locale].join('\u0000');
  return memo(key, () => computeClockTime(input));
}

function computeClockTime(input: FormatInstantInput): string {
  const locale = resolveLocale(input.locale);
  const dt = toZoned(input.at, 'at', input.timeZone, 'timeZone');
  const d = dt.toJSDate();
  const parts = formatter(locale, input.timeZone, CLOCK_TIME).formatToParts(d);
  return joinParts(parts, locale, () => zoneLabel(locale, input.timeZone, d, false));
}
