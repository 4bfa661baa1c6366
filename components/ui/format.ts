/**
 * Time formatting for the staff UI. Every instant is shown in an explicit IANA zone together with that
 * zone's abbreviation ("Sun 28 Mar 2027, 11:00 CEST"), never in the viewer's implicit local zone.
 * Pure functions of their inputs: the same output on the server and in the browser.
 */
import { DateTime } from 'luxon';
import { formatStaffTime, staffZoneAbbreviation } from '@/domain/staff-time';

type Instant = string | Date;

function toDateTime(instant: Instant, zone: string): DateTime {
  const dt = instant instanceof Date ? DateTime.fromJSDate(instant) : DateTime.fromISO(instant);
  return dt.setZone(zone);
}

/**
 * Short name of `zone` at `instant` ("CEST", "EDT", "JST"); "UTC+5:30" style when no locale has a
 * letter abbreviation for it. (domain/staff-time.ts: server texts use the same names.)
 */
export function zoneAbbreviation(instant: Instant, zone: string): string {
  return staffZoneAbbreviation(instant, zone);
}

/** "Sun 28 Mar 2027, 11:00 CEST": `instant` as wall-clock time in `zone` with the zone's abbreviation (domain/staff-time.ts). */
export function formatInZone(instant: Instant, zone: string): string {
  return formatStaffTime(instant, zone);
}

/**
 * An all-day span in its zone: "Thu 3 Dec 2026 (all day)", or "Thu 3 – Fri 4 Dec 2026 (all day)" for several
 * days. `end` is exclusive (the local midnight after the last day), as in iCalendar.
 */
export function formatAllDayInZone(start: Instant, end: Instant, zone: string): string {
  const s = toDateTime(start, zone);
  const last = toDateTime(end, zone).minus({ milliseconds: 1 });
  if (!s.isValid || !last.isValid) return 'invalid time';
  const fmt = (d: typeof s) => d.setLocale('en-GB').toFormat('ccc d LLL yyyy');
  return last.hasSame(s, 'day') || last < s ? `${fmt(s)} (all day)` : `${fmt(s)} – ${fmt(last)} (all day)`;
}

/** "11:00 CEST": time of day only, for a second instant on the same day as one already shown. */
export function formatTimeInZone(instant: Instant, zone: string): string {
  const dt = toDateTime(instant, zone);
  if (!dt.isValid) return 'invalid time';
  return `${dt.toFormat('HH:mm')} ${zoneAbbreviation(instant, zone)}`;
}

/** "11:00:03 CEST": time of day with seconds, for fast-moving values such as "last updated". */
export function formatClockInZone(instant: Instant, zone: string): string {
  const dt = toDateTime(instant, zone);
  if (!dt.isValid) return 'invalid time';
  return `${dt.toFormat('HH:mm:ss')} ${zoneAbbreviation(instant, zone)}`;
}

/** "2027-03-28 09:00:00 UTC": the exact instant, for title attributes next to a zoned display. */
export function formatUtc(instant: Instant): string {
  const dt = toDateTime(instant, 'UTC');
  if (!dt.isValid) return 'invalid time';
  return dt.toFormat("yyyy-LL-dd HH:mm:ss 'UTC'");
}

/** True when both instants fall on the same calendar day in `zone`. */
export function sameDayInZone(a: Instant, b: Instant, zone: string): boolean {
  return toDateTime(a, zone).hasSame(toDateTime(b, zone), 'day');
}

// Moved to domain/dashboards/log-filters.ts (issue #13: the log pages and their CSV exports parse the same filters there).
export { localMidnight, searchText } from '@/domain/dashboards/log-filters';

/**
 * A byte count for people: "826 bytes", "1 byte", "1.2 KB", "3.4 MB" (binary units: 1 KB = 1024 bytes; one
 * decimal below 10, none above).
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB'];
  let v = bytes / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}
