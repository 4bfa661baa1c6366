/**
 * The rule editor's friendly offset ("amount + unit + before/after") ↔ the ISO-8601 duration a reminder rule
 * stores (`reminder_rules.offset`). Pure.
 *
 * Units follow the planning rules in due-instant.ts:
 *  - `days` and `weeks` are CALENDAR units: "1 day before 11:00" is 11:00 the day before in the event's zone,
 *    whatever DST did in between (`-P1D`, `-P1W`);
 *  - `hours` and `minutes` are ELAPSED time: "2 hours before" is exactly 7 200 s earlier (`-PT2H`, `-PT30M`).
 *
 * Examples: 1 day before → `-P1D`; 2 hours before → `-PT2H`; 30 minutes after → `PT30M`; at the anchor → `PT0S`.
 *
 * An offset that does not fit one unit (`-P1DT2H`, `P1M`, `PT90S`) has no parts (`offsetToParts` → null): the
 * editor then edits the ISO-8601 text itself.
 */
import { parseOffset } from '@/domain/scheduling/due-instant';

/** Units the editor offers, smallest first. `days`/`weeks` keep the local time; `hours`/`minutes` are elapsed. */
const offsetUnits = ['minutes', 'hours', 'days', 'weeks'] as const;
export type OffsetUnit = (typeof offsetUnits)[number];

/** `at`: exactly at the anchor (amount and unit are ignored). */
const offsetDirections = ['before', 'at', 'after'] as const;
export type OffsetDirection = (typeof offsetDirections)[number];

/** The editor's fields. `amount` is a whole number ≥ 0 of `unit`; 0 means "at the anchor" like `at`. */
export interface OffsetParts {
  amount: number;
  unit: OffsetUnit;
  direction: OffsetDirection;
}

/** Largest amount per unit: a year from the anchor (MAX_OFFSET_DAYS in domain/scheduling/due-instant.ts). */
export const MAX_OFFSET_AMOUNT: Record<OffsetUnit, number> = { minutes: 366 * 24 * 60, hours: 366 * 24, days: 366, weeks: 52 };

/** A part that cannot become an offset; `field` names the editor field. */
export class OffsetPartsError extends Error {
  constructor(
    readonly field: 'amount' | 'unit' | 'direction',
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'OffsetPartsError';
  }
}

/**
 * The ISO-8601 duration for the editor's parts: `-P1D`, `-PT2H`, `PT30M`, `P1W`; `PT0S` at the anchor.
 * @throws OffsetPartsError when `amount` is not a whole number in 0…MAX_OFFSET_AMOUNT[unit] (a year) or unit/direction is unknown.
 */
export function partsToOffset(p: OffsetParts): string {
  if (!offsetDirections.includes(p.direction)) throw new OffsetPartsError('direction', `must be one of ${offsetDirections.join(', ')}`);
  if (p.direction === 'at') return 'PT0S';
  if (!offsetUnits.includes(p.unit)) throw new OffsetPartsError('unit', `must be one of ${offsetUnits.join(', ')}`);
  if (!Number.isInteger(p.amount) || p.amount < 0) throw new OffsetPartsError('amount', 'must be a whole number, 0 or more');
  if (p.amount > MAX_OFFSET_AMOUNT[p.unit]) throw new OffsetPartsError('amount', `must be at most ${MAX_OFFSET_AMOUNT[p.unit]} ${p.unit} (a year from the anchor)`);
  if (p.amount === 0) return 'PT0S';
  const sign = p.direction === 'before' ? '-' : '';
  const body = { minutes: `T${p.amount}M`, hours: `T${p.amount}H`, days: `${p.amount}D`, weeks: `${p.amount}W` }[p.unit];
  return `${sign}P${body}`;
}

/**
 * The editor's parts for a stored offset, or null when it does not fit one unit (mixed calendar and elapsed
 * parts, months or years, seconds that are not whole minutes, several calendar units) or is not ISO-8601.
 * Elapsed time is given in hours when it is a whole number of hours (`PT60M` → 1 hour), else in minutes
 * (`PT1H30M` → 90 minutes); every zero duration (`P0D`, `-PT0S`) is `at`.
 * Round trip: `partsToOffset(offsetToParts(o))` is an offset meaning the same as `o`.
 */
export function offsetToParts(offset: string): OffsetParts | null {
  let p;
  try {
    p = parseOffset(offset);
  } catch {
    return null;
  }
  const direction: OffsetDirection = p.sign < 0 ? 'before' : 'after';
  const calendar = [p.years, p.months, p.weeks, p.days].filter((n) => n > 0).length;
  if (calendar === 0 && p.elapsedMs === 0) return { amount: 0, unit: 'minutes', direction: 'at' };
  if (p.years > 0 || p.months > 0) return null;
  if (calendar > 1 || (calendar === 1 && p.elapsedMs > 0)) return null;
  if (p.weeks > 0) return { amount: p.weeks, unit: 'weeks', direction };
  if (p.days > 0) return { amount: p.days, unit: 'days', direction };
  if (p.elapsedMs % 3_600_000 === 0) return { amount: p.elapsedMs / 3_600_000, unit: 'hours', direction };
  if (p.elapsedMs % 60_000 === 0) return { amount: p.elapsedMs / 60_000, unit: 'minutes', direction };
  return null;
}
