/**
 * Instants in text for STAFF (issue #12: "staff-facing text never shows a raw ISO instant"). The staff UI shows
 * every instant as wall-clock time in an explicit IANA zone with the zone's abbreviation — "Sun 29 Nov 2026,
 * 17:52 CET" — (components/ui/ZonedTime.tsx adds the viewer's own zone on hover). Texts made on the server and read
 * outside the UI (alert emails and Slack posts, API error messages) use the same words through
 * {@link formatStaffTime}; stored free texts that still hold an ISO-8601 instant (reasons written before this
 * rule, a provider's words) are split with {@link splitInstants} so the UI renders each instant with
 * components/ui/TimesInText.tsx, or rewritten with {@link humanizeInstants} where only plain text fits (a `title`).
 *
 * Pure: no clock reads, no I/O; the same output on the server and in the browser (luxon with ICU's zone names).
 */
import { DateTime } from 'luxon';
import { isIsoInstant } from './format-time';

/** An instant: a `Date` or an ISO-8601 string with `Z` or an offset. */
type StaffInstant = Date | string;

/** ICU names zones per locale; these together know most common letter abbreviations ("CEST", "EDT", "IST", "JST"). */
const abbreviationLocales = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-SG', 'ja-JP'];

function toDateTime(instant: StaffInstant, zone: string): DateTime {
  const dt = instant instanceof Date ? DateTime.fromJSDate(instant) : DateTime.fromISO(instant);
  return dt.setZone(zone);
}

/**
 * Short name of `zone` at `instant` ("CEST", "EDT", "JST"); "UTC+5:30" style when no locale has a letter
 * abbreviation for it; the zone name itself when the instant or zone is invalid.
 */
export function staffZoneAbbreviation(instant: StaffInstant, zone: string): string {
  const dt = toDateTime(instant, zone);
  if (!dt.isValid) return zone;
  for (const locale of abbreviationLocales) {
    const name = dt.setLocale(locale).toFormat('ZZZZ');
    if (!/^(GMT|UTC)[+-]/.test(name)) return name;
  }
  return `UTC${dt.toFormat('Z')}`;
}

/**
 * `instant` as wall-clock time in `zone` (IANA) with the zone's abbreviation, as the staff UI writes it:
 * "Sun 29 Nov 2026, 17:52 CET"; with `seconds`, "Sun 29 Nov 2026, 17:52:05 CET". "invalid time" for an
 * unparseable instant or zone (never throws: it is used inside texts that must still be written).
 */
export function formatStaffTime(instant: StaffInstant, zone: string, opts: { seconds?: boolean } = {}): string {
  const dt = toDateTime(instant, zone);
  if (!dt.isValid) return 'invalid time';
  return `${dt.setLocale('en-GB').toFormat(opts.seconds ? 'ccc d LLL yyyy, HH:mm:ss' : 'ccc d LLL yyyy, HH:mm')} ${staffZoneAbbreviation(instant, zone)}`;
}

// An ISO-8601 date and time with `Z` or an offset, as `Date#toISOString`, PostgreSQL's to_char and most APIs
// write it ("2026-11-29T16:52:00.000Z", "2027-03-01T12:00:05Z", "2027-03-28T11:00+02:00"). Bounded on both
// sides so digits glued to it (an id) do not make it one.
const ISO_IN_TEXT = /(?<![\dA-Za-z])\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)(?![\dA-Za-z])/g;

/** One piece of a text: plain words, or an instant (`iso` exactly as it stood in the text). */
type TextPiece = { kind: 'text'; text: string } | { kind: 'instant'; iso: string };

/**
 * `text` cut into plain pieces and the ISO-8601 instants in it (with `Z` or an offset, and a real moment:
 * domain/format-time.ts isIsoInstant), in order; joining the pieces back gives `text`. Dates without a time
 * ("2027-03-01") and local times without a zone ("2027-03-01T12:00") are not instants and stay text.
 * @example splitInstants('expiry 2026-11-29T16:52:00.000Z has passed')
 *   → [{ text: 'expiry ' }, { instant: '2026-11-29T16:52:00.000Z' }, { text: ' has passed' }]
 */
export function splitInstants(text: string): TextPiece[] {
  const out: TextPiece[] = [];
  let last = 0;
  for (const m of text.matchAll(ISO_IN_TEXT)) {
    if (!isIsoInstant(m[0])) continue;
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    out.push({ kind: 'instant', iso: m[0] });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

/**
 * `text` with every ISO-8601 instant in it written as {@link formatStaffTime} in `zone` (seconds kept when the
 * instant had non-zero seconds), for places that take plain text only (a `title` attribute, an email).
 * @example humanizeInstants('expiry 2026-11-29T16:52:00.000Z', 'Europe/Amsterdam') → 'expiry Sun 29 Nov 2026, 17:52 CET'
 */
export function humanizeInstants(text: string, zone: string): string {
  return splitInstants(text)
    .map((p) => (p.kind === 'text' ? p.text : formatStaffTime(p.iso, zone, { seconds: hasSeconds(p.iso) })))
    .join('');
}

/** Whether an ISO instant names a non-zero second (then the staff text keeps the seconds). */
function hasSeconds(iso: string): boolean {
  const dt = DateTime.fromISO(iso);
  return dt.isValid && (dt.second !== 0 || dt.millisecond !== 0);
}
