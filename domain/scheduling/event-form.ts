/**
 * The event form's wall-clock fields → the UTC instants the database stores (pure). Staff type times in the
 * event's own zone (`datetime-local` inputs, `YYYY-MM-DDTHH:mm`); all-day events take dates only
 * (`YYYY-MM-DD`), with an inclusive last day, stored as local midnights [first day 00:00, day after last 00:00).
 * A nonexistent local time moves forward by the gap, an ambiguous one takes the earlier instant
 * (`fromLocal`, RFC 5545 §3.3.5).
 */
import { assertZone, fromLocal, toLocal, type LocalDateTime } from './due-instant';
import { suggestZone } from '@/domain/zones';

export { suggestZone };

export class EventFormError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

const LOCAL_RE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** Parses `YYYY-MM-DD` or `YYYY-MM-DDTHH:mm[:ss]`. @throws EventFormError naming `field`. */
function parseLocal(value: string, field: string, dateOnly: boolean): LocalDateTime {
  const m = LOCAL_RE.exec(value.trim());
  if (!m || (dateOnly ? m[4] !== undefined : m[4] === undefined)) {
    throw new EventFormError(field, dateOnly ? 'must be a date like 2027-06-15' : 'must be a local date and time like 2027-06-15T10:00');
  }
  const l: LocalDateTime = { year: +m[1], month: +m[2], day: +m[3], hour: +(m[4] ?? 0), minute: +(m[5] ?? 0), second: +(m[6] ?? 0), millisecond: 0 };
  const check = new Date(Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute));
  if (check.getUTCMonth() !== l.month - 1 || check.getUTCDate() !== l.day || l.hour > 23 || l.minute > 59 || l.second > 59) throw new EventFormError(field, `${value} is not a real date or time`);
  if (l.year < 1900 || l.year > 2199) throw new EventFormError(field, `${value}: the year must be between 1900 and 2199`);
  return l;
}

export interface EventTimingForm {
  /** `YYYY-MM-DDTHH:mm` (or `YYYY-MM-DD` when allDay), wall-clock time in `timeZone`. */
  start: string;
  end: string;
  timeZone: string;
  allDay: boolean;
}

/**
 * UTC instants for the form's wall-clock fields.
 * @throws EventFormError naming `timeZone` (not an IANA zone), `start` or `end` (malformed, or end before start).
 */
export function timingFromForm(f: EventTimingForm): { startsAt: Date; endsAt: Date; timeZone: string; allDay: boolean } {
  try {
    assertZone(f.timeZone);
  } catch {
    const guess = suggestZone(f.timeZone);
    throw new EventFormError('timeZone', `"${f.timeZone}" is not an IANA time zone such as Europe/Amsterdam${guess ? ` — did you mean ${guess}?` : ''}`);
  }
  const s = parseLocal(f.start, 'start', f.allDay);
  const e = parseLocal(f.end || f.start, 'end', f.allDay);
  const startsAt = fromLocal(s, f.timeZone);
  let endsAt: Date;
  if (f.allDay) {
    const next = new Date(Date.UTC(e.year, e.month - 1, e.day + 1));
    endsAt = fromLocal({ ...e, year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() }, f.timeZone);
  } else {
    endsAt = fromLocal(e, f.timeZone);
  }
  if (endsAt.getTime() < startsAt.getTime()) throw new EventFormError('end', 'must not be before the start');
  return { startsAt, endsAt, timeZone: f.timeZone, allDay: f.allDay };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The form fields for stored instants (inverse of {@link timingFromForm}; all-day end is the inclusive last day). */
export function formFromTiming(t: { startsAt: Date; endsAt: Date; timeZone: string; allDay: boolean }): EventTimingForm {
  const fmt = (l: LocalDateTime, dateOnly: boolean) => `${l.year}-${pad(l.month)}-${pad(l.day)}${dateOnly ? '' : `T${pad(l.hour)}:${pad(l.minute)}`}`;
  const s = toLocal(t.startsAt, t.timeZone);
  if (t.allDay) {
    const lastDay = toLocal(new Date(t.endsAt.getTime() - 1), t.timeZone);
    return { start: fmt(s, true), end: fmt(lastDay, true), timeZone: t.timeZone, allDay: true };
  }
  return { start: fmt(s, false), end: fmt(toLocal(t.endsAt, t.timeZone), false), timeZone: t.timeZone, allDay: false };
}
