/**
 * The event form keeps an event's length when only its start is moved: the end follows the start by the same
 * wall-clock amount, as calendar apps do (Google Calendar, Outlook). Pure: local date-time strings in, out.
 */
import { DateTime } from 'luxon';

/**
 * The end that keeps the length `end − previousStart` after the start moved to `nextStart`.
 * Inputs are the form's local values: `YYYY-MM-DDTHH:mm` (datetime-local) or `YYYY-MM-DD` (all-day dates); the
 * length is counted on the wall clock (a 2-hour class stays 10:00–12:00 across a DST change).
 * @returns the new end in the same form as `end`, or null when any value is not a valid date (or date-time), or when
 *   the old end was before the old start (nothing sensible to keep: the form's own check will say so).
 */
export function endKeepingLength(previousStart: string, nextStart: string, end: string): string | null {
  const read = (v: string) => DateTime.fromISO(v, { zone: 'UTC' });
  const [a, b, e] = [read(previousStart), read(nextStart), read(end)];
  if (!a.isValid || !b.isValid || !e.isValid) return null;
  const length = e.diff(a);
  if (length.as('milliseconds') < 0) return null;
  const next = b.plus(length);
  return end.length === 10 ? next.toFormat('yyyy-LL-dd') : next.toFormat("yyyy-LL-dd'T'HH:mm");
}
