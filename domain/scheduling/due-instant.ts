/**
 * Due-instant arithmetic (invariant 2 in DESIGN §4). Pure: every input is explicit, nothing reads a clock.
 *
 * Rules, applied to an anchor instant and an ISO-8601 duration offset such as `-P1D`, `-PT2H`, `-P1DT30M`:
 *  - The calendar part (years, months, weeks, days) moves the *wall-clock* date in the event's IANA zone and
 *    keeps the local time: "1 day before 11:00" is 11:00 the day before, whatever DST did in between.
 *  - The time part (hours, minutes, seconds) is *elapsed* time: "24 hours before" is exactly 86 400 s earlier.
 *  - The calendar part is applied first, then the time part.
 *  - A local time that does not exist (spring-forward gap) moves forward by the length of the gap
 *    (02:30 on a 02:00→03:00 day becomes 03:30), as RFC 5545 §3.3.5 prescribes for DATE-TIME values.
 *  - A local time that occurs twice (fall-back overlap) takes the earlier instant (RFC 5545 §3.3.5 again).
 */
import { IANAZone } from 'luxon';
import { isValidZone } from '@/domain/zones';

export class DueInstantError extends Error {
  constructor(
    message: string,
    readonly field: 'offset' | 'timeZone' | 'anchor',
  ) {
    super(message);
    this.name = 'DueInstantError';
  }
}

/** A signed ISO-8601 duration split into its calendar and elapsed parts. */
interface ParsedOffset {
  sign: 1 | -1;
  years: number;
  months: number;
  weeks: number;
  days: number;
  /** Elapsed part in milliseconds (hours, minutes, seconds), unsigned. */
  elapsedMs: number;
}

const ISO_DURATION =
  /^([+-])?P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/**
 * Parses a signed ISO-8601 duration (`-P1D`, `PT90M`, `-P1DT2H`, `P0D`). A leading `-` means "before the anchor".
 * @throws DueInstantError(field 'offset') for anything else, including `P` alone or a trailing `T`.
 */
export function parseOffset(offset: string): ParsedOffset {
  const m = ISO_DURATION.exec(offset.trim());
  if (!m || offset.trim().endsWith('T') || /^[+-]?P$/.test(offset.trim())) {
    throw new DueInstantError(
      `offset "${offset}" is not an ISO-8601 duration such as -P1D, -PT2H or -P1DT30M`,
      'offset',
    );
  }
  const n = (s: string | undefined) => (s ? Number(s) : 0);
  const parsed: ParsedOffset = {
    sign: m[1] === '-' ? -1 : 1,
    years: n(m[2]),
    months: n(m[3]),
    weeks: n(m[4]),
    days: n(m[5]),
    elapsedMs: Math.round(n(m[6]) * 3_600_000 + n(m[7]) * 60_000 + n(m[8]) * 1000),
  };
  return parsed;
}

/** Largest offset magnitude a reminder rule may have, in days (about one year). */
export const MAX_OFFSET_DAYS = 366;

/**
 * Upper bound of an offset's magnitude in days (months count 31, years 366). Reminder rules refuse offsets
 * above MAX_OFFSET_DAYS: more than a year from the anchor is a typo, and far-off instants overflow dates.
 */
export function offsetMagnitudeDays(o: ParsedOffset): number {
  return o.years * 366 + o.months * 31 + o.weeks * 7 + o.days + o.elapsedMs / 86_400_000;
}

/** The project's one zone check (domain/zones.ts `isValidZone`): a tz database name this runtime can use. */
const isIanaZone = isValidZone;

/** @throws DueInstantError(field 'timeZone') unless `timeZone` is a valid IANA zone name. */
export function assertZone(timeZone: string): IANAZone {
  if (!isIanaZone(timeZone)) {
    throw new DueInstantError(`time zone "${timeZone}" is not a valid IANA zone name`, 'timeZone');
  }
  return IANAZone.create(timeZone);
}

/** Wall-clock fields, month 1–12. */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** The wall-clock reading of `instant` in `timeZone`. */
export function toLocal(instant: Date, timeZone: string): LocalDateTime {
  const zone = assertZone(timeZone);
  const local = new Date(instant.getTime() + zone.offset(instant.getTime()) * 60_000);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
    millisecond: local.getUTCMilliseconds(),
  };
}

/**
 * The UTC instant of a wall-clock time in `timeZone`: a nonexistent time moves forward by the gap, an
 * ambiguous one resolves to the earlier instant (module rules above).
 */
export function fromLocal(local: LocalDateTime, timeZone: string): Date {
  const zone = assertZone(timeZone);
  return fromLocalWithOffsets(local, (ms) => zone.offset(ms));
}

/**
 * `fromLocal` for a zone given by its offset function (minutes east of UTC at a UTC instant, ms) — e.g. an
 * iCalendar VTIMEZONE's own rules. Same gap and overlap rules.
 */
export function fromLocalWithOffsets(local: LocalDateTime, offsetAt: (utcMs: number) => number): Date {
  const zone = { offset: offsetAt };
  const asUtc = Date.UTC(
    local.year,
    local.month - 1,
    local.day,
    local.hour,
    local.minute,
    local.second,
    local.millisecond,
  );
  const DAY = 86_400_000;
  // The offsets in force a day either side cover any single transition near this wall-clock time.
  const before = zone.offset(asUtc - DAY);
  const after = zone.offset(asUtc + DAY);
  const candidates = [...new Set([before, after])]
    .map((o) => asUtc - o * 60_000)
    .filter((t) => (asUtc - t) / 60_000 === zone.offset(t))
    .sort((a, b) => a - b);
  if (candidates.length > 0) return new Date(candidates[0]);
  // Gap: read the wall clock with the offset in force before the transition, which lands after it,
  // shifted forward by exactly the gap's length.
  return new Date(asUtc - before * 60_000);
}

/** Adds calendar months/days to a wall-clock date, clamping the day to the month's length (Jan 31 + 1M = Feb 28). */
function addCalendar(local: LocalDateTime, sign: 1 | -1, p: ParsedOffset): LocalDateTime {
  const totalMonths = local.year * 12 + (local.month - 1) + sign * (p.years * 12 + p.months);
  const year = Math.floor(totalMonths / 12);
  const month = (totalMonths % 12) + 1;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = Math.min(local.day, daysInMonth);
  const shifted = new Date(Date.UTC(year, month - 1, day) + sign * (p.weeks * 7 + p.days) * 86_400_000);
  return {
    ...local,
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
  };
}

/**
 * The instant `offset` away from `anchor`, computed in `timeZone` by the module rules.
 * @param anchor UTC instant (for an all-day event: the local midnight that starts its day).
 * @throws DueInstantError for a bad offset or zone.
 */
export function applyOffset(anchor: Date, offset: string, timeZone: string): Date {
  if (Number.isNaN(anchor.getTime())) throw new DueInstantError('anchor instant is invalid', 'anchor');
  const p = parseOffset(offset);
  let t = anchor.getTime();
  if (p.years || p.months || p.weeks || p.days) {
    t = fromLocal(addCalendar(toLocal(anchor, timeZone), p.sign, p), timeZone).getTime();
  } else {
    assertZone(timeZone);
  }
  return new Date(t + p.sign * p.elapsedMs);
}
