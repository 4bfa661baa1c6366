/**
 * A contact's quiet hours (issue #9): a daily window of local wall-clock time in which non-essential messages
 * are held back until the window ends. Pure: every instant is an argument, nothing reads a clock.
 *
 * Rules:
 * - `start` and `end` are 'HH:MM' 24-hour LOCAL times in the contact's IANA zone (the caller passes the
 *   tenant's zone when the contact has none). `start > end` is an overnight window (21:00–08:00 runs from 21:00
 *   to 08:00 the next morning); `start == end` is refused (no length, or a whole day: not quiet hours).
 * - Membership is read on the wall clock: an instant is quiet when its local time of day in the zone is in
 *   [start, end) — the start minute is quiet, the end minute is not. So on a DST change day a window behaves as
 *   the person's clock shows it: 02:30–06:00 on a 02:00→03:00 day is quiet from 03:00 (the clock never shows
 *   02:30); 22:00–02:30 on a 03:00→02:00 day is quiet again during the repeated 02:00–02:30.
 * - The window's end instant is the end time on its local date (the next day for an overnight window entered
 *   before midnight), resolved like every other local time in Punctual (due-instant.ts `fromLocal`, RFC 5545
 *   §3.3.5): a time that does not exist (spring-forward gap) moves FORWARD by the gap's length — 02:30 on a
 *   02:00→03:00 day is 03:30 — which is also luxon's default for a gap; a time that occurs twice (fall-back)
 *   is its earlier occurrence, or the later one when the message is due in the repeated hour after the earlier
 *   one has passed (the end is always after the due instant). Luxon's `DateTime.fromObject` is not used for
 *   this: it resolves a repeated time by the offset in force TODAY (a clock read), so the answer would depend
 *   on the date the code runs.
 * - {@link applyQuietHours}: a message due inside the window moves to the window's end instant when that is
 *   strictly before the message's expiry instant (its late-send window); otherwise it keeps its due instant —
 *   a message sent during quiet hours beats one that never arrives. Whether a message respects quiet hours at
 *   all (essential notifications do not) is the caller's decision.
 */
import { z } from 'zod';
import { assertZone, fromLocal, toLocal } from '@/domain/scheduling/due-instant';

/** Quiet hours: 'HH:MM' 24-hour local times in the contact's zone; `start > end` is overnight; never equal. */
export interface QuietHours {
  start: string;
  end: string;
}

/** Thrown by {@link applyQuietHours} for a window that is not valid quiet hours (a caller bug: read with {@link parseQuietHours}). */
export class QuietHoursError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QuietHoursError';
  }
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

const timeSchema = z
  .string({ error: (iss) => (iss.input === undefined ? 'required: a 24-hour time like 21:00' : 'must be a 24-hour time like 21:00') })
  .regex(HHMM, 'must be a 24-hour time like 21:00 or 08:00');

/**
 * zod schema for quiet hours sent to the API: `{ start: 'HH:MM', end: 'HH:MM' }`, no other keys. Issues name
 * the field (`start: must be a 24-hour time like 21:00 or 08:00`, `end: must differ from start …`) in the
 * `fromZodError` style of server/platform/errors.ts. To clear quiet hours, an API takes `quietHoursSchema.nullable()`.
 */
export const quietHoursSchema = z
  .strictObject(
    { start: timeSchema, end: timeSchema },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? `unknown ${iss.keys.length === 1 ? 'field' : 'fields'} ${iss.keys.map((k) => JSON.stringify(k)).join(', ')} (expected start and end)`
          : 'must be an object with start and end, e.g. {"start": "21:00", "end": "08:00"}',
    },
  )
  .refine((q) => q.start !== q.end, {
    path: ['end'],
    message: 'must differ from start (for quiet hours overnight, end before start, e.g. 21:00–08:00)',
  });

/**
 * Reads quiet hours stored in a jsonb column: `{ start, end }` valid 'HH:MM' times that differ → that window
 * (other keys ignored); `null`, missing or anything else → null (no quiet hours). A JSON string (double-encoded
 * jsonb) is decoded first. Never throws.
 */
export function parseQuietHours(stored: unknown): QuietHours | null {
  let value = stored;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (value === null || typeof value !== 'object') return null;
  const { start, end } = value as { start?: unknown; end?: unknown };
  if (typeof start !== 'string' || typeof end !== 'string' || !HHMM.test(start) || !HHMM.test(end) || start === end) return null;
  return { start, end };
}

const DAY_MS = 86_400_000;
const minutesMs = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h * 60 + m) * 60_000;
};

function assertQuietHours(q: QuietHours): void {
  if (!HHMM.test(q.start) || !HHMM.test(q.end)) throw new QuietHoursError(`quiet hours ${q.start}–${q.end}: times must be 24-hour HH:MM`);
  if (q.start === q.end) throw new QuietHoursError(`quiet hours ${q.start}–${q.end}: start and end must differ`);
}

/**
 * The end instant of the quiet window that `at` falls in, or null when `at` is not in quiet hours (module rules:
 * wall-clock membership in [start, end), end resolved by `fromLocal`, always after `at`).
 * @throws QuietHoursError for malformed quiet hours; DueInstantError (due-instant.ts) for a zone that is not an IANA name.
 */
export function quietUntil(at: Date, quiet: QuietHours, zone: string): Date | null {
  assertQuietHours(quiet);
  assertZone(zone);
  const local = toLocal(at, zone);
  const t = ((local.hour * 60 + local.minute) * 60 + local.second) * 1000 + local.millisecond;
  const start = minutesMs(quiet.start);
  const end = minutesMs(quiet.end);
  const overnight = start > end;
  const inside = overnight ? t >= start || t < end : t >= start && t < end;
  if (!inside) return null;
  // The window ends on the local date of `at`, or the next day when an overnight window was entered before midnight.
  const endDay = new Date(Date.UTC(local.year, local.month - 1, local.day + (overnight && t >= start ? 1 : 0)));
  const resolved = fromLocal(
    { year: endDay.getUTCFullYear(), month: endDay.getUTCMonth() + 1, day: endDay.getUTCDate(), hour: end / 3_600_000, minute: (end % 3_600_000) / 60_000, second: 0, millisecond: 0 },
    zone,
  );
  if (resolved.getTime() > at.getTime()) return resolved;
  // Only in a repeated (fall-back) hour, after the end's earlier occurrence: its later occurrence is the wall-clock
  // distance ahead (no other transition lies within the hour).
  return new Date(at.getTime() + ((end - t + DAY_MS) % DAY_MS));
}

const hhmmOf = (instant: Date, zone: string) => {
  const l = toLocal(instant, zone);
  return `${String(l.hour).padStart(2, '0')}:${String(l.minute).padStart(2, '0')}`;
};

/**
 * Holds a message back until the contact's quiet hours end (module rules).
 * @param input.dueAt the message's due instant (UTC).
 * @param input.expiresAt its expiry instant (UTC): the end of its late-send window.
 * @param input.quiet the contact's quiet hours, or null for none.
 * @param input.zone IANA zone the quiet hours are read in: the contact's, else the tenant's.
 * @returns `dueAt` — the window's end instant when `dueAt` is in quiet hours and that end is strictly before
 *   `expiresAt`, else the given `dueAt`; `deferredFrom` — the original due instant when it moved, else null;
 *   `reason` — null when `dueAt` is not in quiet hours (or there are none), else why it moved ("in quiet hours
 *   21:00–08:00 (Europe/Berlin): deferred to 08:00") or why it did not ("…, which end at 08:00, not before the
 *   late-send window closes: sent at its due time").
 * @throws QuietHoursError for malformed quiet hours; DueInstantError for a zone that is not an IANA name.
 */
export function applyQuietHours(input: { dueAt: Date; expiresAt: Date; quiet: QuietHours | null; zone: string }): {
  dueAt: Date;
  deferredFrom: Date | null;
  reason: string | null;
} {
  const { dueAt, expiresAt, quiet, zone } = input;
  if (!quiet) return { dueAt, deferredFrom: null, reason: null };
  const until = quietUntil(dueAt, quiet, zone);
  if (!until) return { dueAt, deferredFrom: null, reason: null };
  const window = `in quiet hours ${quiet.start}–${quiet.end} (${zone})`;
  if (until.getTime() < expiresAt.getTime()) {
    return { dueAt: until, deferredFrom: dueAt, reason: `${window}: deferred to ${hhmmOf(until, zone)}` };
  }
  return { dueAt, deferredFrom: null, reason: `${window}, which end at ${hhmmOf(until, zone)}, not before the late-send window closes: sent at its due time` };
}

/** Quiet hours read back for staff and contacts: "quiet 21:00–08:00 (Europe/Berlin)". */
export function describeQuietHours(q: QuietHours, zone: string): string {
  return `quiet ${q.start}–${q.end} (${zone})`;
}
