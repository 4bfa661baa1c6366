/**
 * Pre-flight checks of an RRULE value (RFC 5545 §3.3.10) before ical.js's RecurIterator is asked for it.
 *
 * ical.js's `RecurIterator.next()` loops internally until a candidate passes the BYxxx filters, and steps a
 * DAILY interval one day at a time; a rule that can never match, or an astronomically large INTERVAL, makes
 * it run for ever. These checks catch, exactly, the cases we can reason about without iterating:
 *  - an empty rule, a missing/unknown FREQ, an INTERVAL that is not a positive integer (§3.3.10);
 *  - BYMONTH × BYMONTHDAY with no month among BYMONTH (all twelve when absent) that has any of the days
 *    (February counted with 29 days; negative days count from the month's end);
 *  - BYMONTH × BYYEARDAY with no year day falling in any BYMONTH month, in a leap or a common year;
 *  - an INTERVAL so large that the second period begins after `lastWallMs`: then, for a rule without BYxxx
 *    parts, only DTSTART can occur ("dtstart-only"); with BYxxx parts it is refused (the first period could
 *    expand, but ical.js cannot be asked for it safely).
 * Pure: no clock, no I/O. Times are wall-clock readings encoded as UTC milliseconds (Date.UTC of the fields).
 */

type RruleVerdict =
  | { kind: 'ok' }
  /** Only DTSTART occurs before `lastWallMs`: do not expand the rule. */
  | { kind: 'dtstart-only' }
  /** The rule is refused; `detail` is one line for the user ("RRULE can never occur: February has no day 30"). */
  | { kind: 'refuse'; detail: string };

const FREQS = ['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;
type Freq = (typeof FREQS)[number];

/** Shortest possible length of one period per FREQ on the wall clock, ms (a month ≥ 28 days, a year ≥ 365). */
const MIN_PERIOD_MS: Record<Freq, number> = {
  SECONDLY: 1_000,
  MINUTELY: 60_000,
  HOURLY: 3_600_000,
  DAILY: 86_400_000,
  WEEKLY: 7 * 86_400_000,
  MONTHLY: 28 * 86_400_000,
  YEARLY: 365 * 86_400_000,
};

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** Longest length of each month (February in a leap year). */
const MAX_MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Splits an RRULE value ("FREQ=DAILY;INTERVAL=2") into upper-case part names → raw values.
 * @returns null when a part is not NAME=VALUE or a name repeats.
 */
function rruleParts(value: string): Map<string, string> | null {
  const parts = new Map<string, string>();
  for (const p of value.trim().split(';')) {
    const eq = p.indexOf('=');
    if (eq <= 0) return null;
    const name = p.slice(0, eq).trim().toUpperCase();
    if (parts.has(name)) return null;
    parts.set(name, p.slice(eq + 1).trim());
  }
  return parts;
}

function intList(v: string | undefined): number[] | null {
  if (v === undefined) return null;
  const out = v.split(',').map((s) => (/^[+-]?\d{1,3}$/.test(s.trim()) ? Number(s) : NaN));
  return out.some((n) => Number.isNaN(n)) ? [] : out;
}

/** Month (1–12) of year day `d` (1..366 or -366..-1) in a year of `len` days; null when the year lacks it. */
function monthOfYearDay(d: number, len: 365 | 366): number | null {
  const n = d > 0 ? d : len + 1 + d;
  if (n < 1 || n > len) return null;
  const days = [31, len === 366 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  let left = n;
  for (let m = 0; m < 12; m++) {
    if (left <= days[m]) return m + 1;
    left -= days[m];
  }
  return null;
}

/**
 * Judges one RRULE value. `dtstartWallMs` is DTSTART's wall clock (Date.UTC of its fields); `lastWallMs` the
 * first wall-clock instant no occurrence may reach (Punctual: Date.UTC(2200, 0, 1), events live in 1900–2199).
 * Malformed parts other than those named above are left to ical.js (which reports them).
 */
export function checkRrule(value: string, dtstartWallMs: number, lastWallMs: number): RruleVerdict {
  if (value.trim() === '') return { kind: 'refuse', detail: 'RRULE is empty (expected e.g. RRULE:FREQ=WEEKLY, RFC 5545 §3.3.10)' };
  const parts = rruleParts(value);
  if (!parts) return { kind: 'refuse', detail: `RRULE "${value.slice(0, 60)}" is not a list of NAME=VALUE parts (RFC 5545 §3.3.10)` };
  const freq = parts.get('FREQ')?.toUpperCase();
  if (freq === undefined) return { kind: 'refuse', detail: 'RRULE has no FREQ (RFC 5545 §3.3.10: FREQ is required)' };
  if (!(FREQS as readonly string[]).includes(freq)) return { kind: 'refuse', detail: `RRULE FREQ "${freq.slice(0, 20)}" is not one of ${FREQS.join(', ')}` };

  let interval = 1;
  const rawInterval = parts.get('INTERVAL');
  if (rawInterval !== undefined) {
    if (!/^\+?\d+$/.test(rawInterval) || !(Number(rawInterval) >= 1)) {
      return { kind: 'refuse', detail: `RRULE INTERVAL=${rawInterval.slice(0, 20)} is not a positive integer (RFC 5545 §3.3.10)` };
    }
    interval = Number(rawInterval);
  }

  const byMonth = intList(parts.get('BYMONTH'));
  const months = byMonth ? byMonth.filter((m) => m >= 1 && m <= 12) : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  if (byMonth && months.length !== byMonth.length) return { kind: 'refuse', detail: `RRULE BYMONTH=${parts.get('BYMONTH')!.slice(0, 30)} is not a list of months 1–12` };

  const monthDays = intList(parts.get('BYMONTHDAY'));
  if (monthDays && monthDays.length > 0) {
    const possible = months.some((m) => monthDays.some((d) => d !== 0 && Math.abs(d) <= MAX_MONTH_DAYS[m - 1]));
    if (!possible) {
      const days = monthDays.join(', ');
      const detail = byMonth
        ? `${months.map((m) => MONTHS[m - 1]).join(', ')} ${months.length === 1 ? 'has' : 'have'} no day ${days}`
        : `no month has day ${days}`;
      return { kind: 'refuse', detail: `RRULE can never occur: ${detail}` };
    }
  }

  const yearDays = intList(parts.get('BYYEARDAY'));
  if (yearDays && yearDays.length > 0) {
    const possible = yearDays.some((d) => ([365, 366] as const).some((len) => {
      const m = monthOfYearDay(d, len);
      return m !== null && months.includes(m);
    }));
    if (!possible) {
      const where = byMonth ? ` in ${months.map((m) => MONTHS[m - 1]).join(', ')}` : '';
      return { kind: 'refuse', detail: `RRULE can never occur: no year has day ${yearDays.join(', ')}${where}` };
    }
  }

  if (dtstartWallMs + interval * MIN_PERIOD_MS[freq as Freq] >= lastWallMs) {
    const by = [...parts.keys()].filter((k) => k.startsWith('BY'));
    if (by.length === 0) return { kind: 'dtstart-only' };
    return { kind: 'refuse', detail: `RRULE INTERVAL=${rawInterval} with ${by.join(', ')}: every period after the first begins after 2199 (not supported)` };
  }
  return { kind: 'ok' };
}

/**
 * A VTIMEZONE observance's RRULE must recur at most MONTHLY: real zones change offset yearly (RFC 5545 §3.6.5
 * examples), and a SECONDLY observance would need millions of onsets per year.
 * @returns a one-line reason, or null when the FREQ is MONTHLY or YEARLY (or cannot be read: left to ical.js).
 */
export function checkObservanceRrule(value: string): string | null {
  const freq = rruleParts(value)?.get('FREQ')?.toUpperCase();
  if (freq === undefined || freq === 'MONTHLY' || freq === 'YEARLY') return null;
  return `VTIMEZONE observance RRULE FREQ=${freq.slice(0, 20)} is finer than MONTHLY (time zones change at most a few times a year)`;
}
