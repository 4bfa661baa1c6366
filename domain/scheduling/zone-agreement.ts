/**
 * Do two time zones agree? Pure: offsets are functions of a UTC instant, the period is an input.
 *
 * Used by the iCalendar import (domain/calendar/ics.ts): a TZID that names a known IANA zone is trusted only when the
 * file's own VTIMEZONE gives the same UTC offsets over the period the file uses; otherwise the VTIMEZONE wins,
 * and the event is planned in an IANA zone whose offsets match the VTIMEZONE's (`findMatchingZone`).
 *
 * How offsets are compared (`offsetsAgree`): at every 00:00 and 12:00 UTC of the period (plus one day either
 * side), and — wherever either zone's offset changes between two such samples — every 15 minutes in between,
 * so transitions on the same day but at a different hour are told apart. Offsets are minutes east of UTC.
 */
import { IANAZone } from 'luxon';

/** UTC offset in minutes east of UTC at a UTC instant (ms since the epoch). */
export type OffsetAt = (utcMs: number) => number;

const HALF_DAY = 43_200_000;
const QUARTER_HOUR = 900_000;
const DAY = 86_400_000;

/** `offsetAt` of an IANA zone (luxon / the runtime's tz database). @throws Error for an invalid zone. */
export function ianaOffsetAt(zone: string): OffsetAt {
  const z = IANAZone.create(zone);
  if (!z.isValid) throw new Error(`ianaOffsetAt: "${zone}" is not an IANA zone`);
  return (ms) => z.offset(ms);
}

/**
 * True when `a` and `b` give the same offset throughout [fromMs, toMs] (UTC instants), sampled as described
 * in the module comment.
 */
export function offsetsAgree(a: OffsetAt, b: OffsetAt, fromMs: number, toMs: number): boolean {
  const start = Math.floor((fromMs - DAY) / HALF_DAY) * HALF_DAY;
  const end = toMs + DAY;
  let prevA = a(start);
  let prevB = b(start);
  if (prevA !== prevB) return false;
  for (let t = start + HALF_DAY; t <= end; t += HALF_DAY) {
    const ca = a(t);
    const cb = b(t);
    if (ca !== cb) return false;
    if (ca !== prevA || cb !== prevB) {
      // A transition in (t − 12 h, t]: compare every quarter hour in between.
      for (let u = t - HALF_DAY + QUARTER_HOUR; u < t; u += QUARTER_HOUR) if (a(u) !== b(u)) return false;
    }
    prevA = ca;
    prevB = cb;
  }
  return true;
}

/** Instants for a cheap first filter: the 15th of every third month at noon UTC, within the period. */
function probes(fromMs: number, toMs: number): number[] {
  const out: number[] = [];
  const y0 = new Date(fromMs).getUTCFullYear();
  const y1 = new Date(toMs).getUTCFullYear();
  for (let y = y0; y <= y1; y++) for (const m of [0, 3, 6, 9]) out.push(Date.UTC(y, m, 15, 12));
  return out.filter((t) => t >= fromMs && t <= toMs);
}

/**
 * The first zone of `candidates` (in order: put the preferred ones first) whose offsets agree with `target`
 * over [fromMs, toMs], or null when none does. Invalid zone names are skipped.
 */
export function findMatchingZone(target: OffsetAt, fromMs: number, toMs: number, candidates: readonly string[]): string | null {
  const ps = probes(fromMs, toMs);
  const want = ps.map(target);
  const seen = new Set<string>();
  for (const zone of candidates) {
    if (seen.has(zone)) continue;
    seen.add(zone);
    const z = IANAZone.create(zone);
    if (!z.isValid) continue;
    if (ps.some((p, i) => z.offset(p) !== want[i])) continue;
    if (offsetsAgree(target, (ms) => z.offset(ms), fromMs, toMs)) return zone;
  }
  return null;
}
