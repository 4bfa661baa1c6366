/**
 * Pure formatting of event times for messages (reminder emails, subjects).
 *
 * Everything here takes UTC instants plus IANA zone names and a locale, and returns display strings.
 * Nothing reads the clock or the environment: the same input always gives the same output (the only
 * outside dependency is the ICU data shipped with Node, which supplies weekday/month names and zone
 * abbreviations).
 *
 * Conventions:
 * - Times are 24-hour `HH:mm`; dates read "Sunday 28 March 2027" with weekday/month names from the locale.
 * - A zone is labelled with its short name (luxon `ZZZZ`, e.g. "CEST", "EDT"). Whether ICU has a name
 *   depends on the locale ("en-GB" knows "CEST", "en-US" only US names), so the reader's locale is tried
 *   first and then English regional locales. When every label is only an offset ("GMT+2", "UTC+5:30"), the IANA name is appended in parentheses so the
 *   reader can still tell which zone is meant: "GMT+2 (Europe/Amsterdam)".
 */
import { DateTime, IANAZone } from 'luxon';

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
  /** BCP 47 locale for weekday/month names, e.g. "en-GB". Falls back to "en" when not supported. */
  locale: string;
}

export interface FormattedEventTime {
  /** The event's time in its own zone, e.g. "Sunday 28 March 2027, 11:00–12:00 CEST". */
  eventZoneLine: string;
  /**
   * The same instants in the recipient's zone, e.g. "Sunday 28 March 2027, 05:00–06:00 EDT (your time)";
   * null when it would add nothing (no recipient zone, same zone or same offset, all-day event).
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
  try {
    const supported = Intl.DateTimeFormat.supportedLocalesOf([locale]);
    return supported.length > 0 ? supported[0] : FALLBACK_LOCALE;
  } catch {
    return FALLBACK_LOCALE;
  }
}

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
function toZoned(
  value: InstantInput,
  field: string,
  zone: string,
  zoneField: string,
  locale: string,
): DateTime {
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
  // Gregorian years regardless of a `-u-ca-` extension in the locale.
  return dt.setZone(zone).setLocale(locale).reconfigure({ outputCalendar: 'gregory' });
}

function assertZone(zone: string, field: string): void {
  if (typeof zone !== 'string' || !IANAZone.isValidZone(zone)) {
    throw new Error(`${field}: not a valid IANA time zone ("${String(zone)}")`);
  }
}

function timeZoneNamePart(dt: DateTime, style: 'short' | 'shortOffset'): string {
  const parts = new Intl.DateTimeFormat(dt.locale ?? FALLBACK_LOCALE, {
    timeZone: dt.zoneName ?? 'UTC',
    timeZoneName: style,
  }).formatToParts(dt.toJSDate());
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? '';
}

/**
 * Zone label of `dt` in its locale: "CEST", "EDT", "UTC"; or, when the locale only has an offset for this
 * zone, "GMT+2 (Europe/Amsterdam)" (or the bare offset when `withIanaName` is false, for short subjects).
 */
function zoneLabel(dt: DateTime, withIanaName: boolean): string {
  const isOffsetOnly = (label: string, probe: DateTime) =>
    label === timeZoneNamePart(probe, 'shortOffset') || /^(GMT|UTC)[+\-\u2212]\d/.test(label);
  // ICU names a zone only in locales where it is customary ("CEST" in en-GB, "EDT" in en-US, "IST" in
  // en-IN). Abbreviations are English-derived conventions, so try the reader's locale, then English
  // regions, before falling back to the offset.
  for (const locale of [dt.locale ?? FALLBACK_LOCALE, ...ABBREVIATION_LOCALES]) {
    const probe = dt.setLocale(locale);
    const label = probe.toFormat('ZZZZ');
    if (!isOffsetOnly(label, probe)) return label;
  }
  const short = dt.toFormat('ZZZZ');
  return withIanaName ? `${short} (${dt.zoneName})` : short;
}

const ABBREVIATION_LOCALES = ['en-US', 'en-GB', 'en-IN', 'en-AU', 'en-NZ', 'en-CA', 'en-ZA'];

const LONG_DATE = 'cccc d LLLL yyyy';
const SHORT_DATE = 'ccc d LLL';
const TIME = 'HH:mm';

/** "Sunday 28 March 2027, 11:00–12:00 CEST", also across midnight and across a DST change. */
function timedLine(start: DateTime, end: DateTime | null, labelExtra: string | null): string {
  const startLabel = zoneLabel(start, true);
  const suffix = (label: string) => (labelExtra ? `${label} ${labelExtra}` : label);
  let body: string;
  if (!end || end.toMillis() === start.toMillis()) {
    body = `${start.toFormat(LONG_DATE)}, ${start.toFormat(TIME)} ${suffix(startLabel)}`;
  } else {
    const endLabel = zoneLabel(end, true);
    const sameDay = start.hasSame(end, 'day');
    const startPart = `${start.toFormat(LONG_DATE)}, ${start.toFormat(TIME)}`;
    const endPart = sameDay ? end.toFormat(TIME) : `${end.toFormat(LONG_DATE)}, ${end.toFormat(TIME)}`;
    const sep = sameDay ? '\u2013' : ' \u2013 ';
    // When the event spans a DST change the two ends have different labels: show both.
    body =
      endLabel === startLabel
        ? `${startPart}${sep}${endPart} ${suffix(startLabel)}`
        : `${startPart} ${startLabel} \u2013 ${endPart} ${suffix(endLabel)}`;
  }
  return body;
}

/**
 * Formats an event's time for a message: one line in the event's zone, and one in the recipient's zone
 * when that differs.
 *
 * - Timed event: "Sunday 28 March 2027, 11:00–12:00 CEST" (end on another day: "… 22:00 – Monday 29 March
 *   2027, 01:00 CEST"; no end: "Sunday 28 March 2027, 11:00 CEST").
 * - All-day event: "Monday 18 October 2027 (all day)" — the date of `startsAt` in the event zone, no time,
 *   no zone; with an (exclusive) end on a later day: "Monday 18 October 2027 – Wednesday 20 October 2027
 *   (all day)". `recipientZoneLine` is always null for all-day events.
 * - `recipientZoneLine` is "… 05:00–06:00 EDT (your time)" (offset-only labels become
 *   "GMT-4 (America/New_York, your time)"), or null when `recipientTimeZone` is null/empty, equals the
 *   event zone, or has the same UTC offset as the event zone at the start and end instants.
 *
 * Pure: no clock reads. `locale` falls back to "en" when unsupported (see {@link resolveLocale}).
 * @throws Error whose message starts with the failing field name ("startsAt: …", "endsAt: …",
 *   "eventTimeZone: …", "recipientTimeZone: …") for an unparseable instant, an instant string without
 *   Z/offset, an invalid IANA zone, or an end before the start.
 */
export function formatEventTime(input: FormatEventTimeInput): FormattedEventTime {
  const locale = resolveLocale(input.locale);
  const zone = input.eventTimeZone;
  const start = toZoned(input.startsAt, 'startsAt', zone, 'eventTimeZone', locale);
  const end =
    input.endsAt == null ? null : toZoned(input.endsAt, 'endsAt', zone, 'eventTimeZone', locale);
  if (end && end < start) throw new Error('endsAt: is before startsAt');
  const recipientZone = input.recipientTimeZone ? input.recipientTimeZone : null;
  if (recipientZone) assertZone(recipientZone, 'recipientTimeZone');

  if (input.allDay) {
    // The end of an all-day event is exclusive (midnight after the last day), as in iCalendar.
    const lastDay = end && end > start ? end.minus({ milliseconds: 1 }) : start;
    const days = start.hasSame(lastDay, 'day')
      ? start.toFormat(LONG_DATE)
      : `${start.toFormat(LONG_DATE)} \u2013 ${lastDay.toFormat(LONG_DATE)}`;
    return { eventZoneLine: `${days} (all day)`, recipientZoneLine: null };
  }

  const eventZoneLine = timedLine(start, end, null);
  if (!recipientZone || recipientZone === zone) return { eventZoneLine, recipientZoneLine: null };

  const rStart = start.setZone(recipientZone);
  const rEnd = end ? end.setZone(recipientZone) : null;
  const sameOffset = rStart.offset === start.offset && (!end || !rEnd || rEnd.offset === end.offset);
  if (sameOffset) return { eventZoneLine, recipientZoneLine: null };

  let recipientZoneLine = timedLine(rStart, rEnd, '(your time)');
  // Offset-only label already ends in "(Zone/Name)": merge rather than stack two parentheses.
  recipientZoneLine = recipientZoneLine.replace(/\(([^()]+)\) \(your time\)$/, '($1, your time)');
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
 * Compact date and time for subject lines, in `timeZone`: "Sun 28 Mar, 11:00 CEST" (offset-only zones
 * stay bare: "Sun 28 Mar, 11:00 GMT+2"), or "Mon 18 Oct (all day)" when `allDay`. Pure.
 * @throws Error naming "at" or "timeZone" for an invalid instant or zone.
 */
export function formatShortWhen(input: FormatInstantInput & { allDay: boolean }): string {
  const dt = toZoned(input.at, 'at', input.timeZone, 'timeZone', resolveLocale(input.locale));
  if (input.allDay) return `${dt.toFormat(SHORT_DATE)} (all day)`;
  return `${dt.toFormat(SHORT_DATE)}, ${dt.toFormat(TIME)} ${zoneLabel(dt, false)}`;
}

/**
 * Clock time with zone label in `timeZone`, for "opens at …" phrases: "10:30 CEST" (offset-only zones stay
 * bare: "10:30 GMT+2"). Pure.
 * @throws Error naming "at" or "timeZone" for an invalid instant or zone.
 */
export function formatClockTime(input: FormatInstantInput): string {
  const dt = toZoned(input.at, 'at', input.timeZone, 'timeZone', resolveLocale(input.locale));
  return `${dt.toFormat(TIME)} ${zoneLabel(dt, false)}`;
}
