/**
 * The front desk's "today" view (`/today`, issue #13): which calendar day "today" is, and the small decisions the
 * page makes about it — what is happening now and next, how a planned message's state reads at the desk, the
 * reminder windows offered, and the words of its empty states and truncations.
 *
 * "Today" is the calendar day in the TENANT's zone (not the viewer's, not UTC): [local midnight, next local
 * midnight) as UTC instants. A day is 24 hours except on DST changes (23 hours on spring-forward, 25 on
 * fall-back) and on a few zone changes (e.g. 2011-12-30 did not exist in Pacific/Apia).
 *
 * Pure: no I/O, no clock reads (`now` is an argument). Instants are UTC `Date`s; zones are IANA names.
 */
import { DateTime } from 'luxon';
import type { DeliveryStatus, EventStatus, ReminderStatus } from '@/domain/vocabulary';

/** One calendar day in a zone: [start, end) as UTC instants. */
interface DayWindow {
  /** The first instant of the day in `zone` (its local midnight; where midnight does not exist, the first instant that does). */
  start: Date;
  /** The first instant of the next day in `zone` (exclusive). */
  end: Date;
  /** The local date, `YYYY-MM-DD`. */
  date: string;
  /** Length of the day in hours (23, 24 or 25 on DST days; 23.5/24.5 where the change is 30 minutes). */
  hours: number;
  zone: string;
}

/**
 * The calendar day in `zone` that contains `instant`, as [start, end) UTC instants.
 * @throws Error naming the zone when `zone` is not an IANA zone this runtime knows, or when `instant` is invalid.
 * @example dayWindow('Europe/London', new Date('2027-03-28T12:00:00Z'))
 *   → start 2027-03-28T00:00Z, end 2027-03-28T23:00Z (23 hours: clocks go forward at 01:00 GMT)
 */
export function dayWindow(zone: string, instant: Date): DayWindow {
  const local = DateTime.fromJSDate(instant, { zone });
  if (!local.isValid) throw new Error(`dayWindow: ${local.invalidExplanation ?? 'invalid instant or zone'} (zone "${zone}")`);
  const start = local.startOf('day');
  const end = start.plus({ days: 1 }).startOf('day');
  return {
    start: start.toJSDate(),
    end: end.toJSDate(),
    date: start.toISODate()!,
    hours: (end.toMillis() - start.toMillis()) / 3_600_000,
    zone,
  };
}

/**
 * The page heading for a day: "Tuesday 1 December · Europe/Amsterdam" (weekday, day, month in English, then the
 * zone name the day is counted in).
 */
export function todayHeading(day: Pick<DayWindow, 'start' | 'zone'>): string {
  return `${DateTime.fromJSDate(day.start, { zone: day.zone }).setLocale('en-GB').toFormat('cccc d LLLL')} · ${day.zone}`;
}

/** The windows the reminders section offers, in hours. */
export const reminderWindowHours = [1, 3, 6, 12] as const;
export type ReminderWindowHours = (typeof reminderWindowHours)[number];
/** The window shown when none (or an unknown one) is asked for. */
const DEFAULT_REMINDER_WINDOW_HOURS: ReminderWindowHours = 3;

/** `?hours=` from the query string: one of {@link reminderWindowHours}, else the default (3). */
export function parseReminderWindowHours(raw: string | null | undefined): ReminderWindowHours {
  const n = Number(raw);
  return (reminderWindowHours as readonly number[]).includes(n) ? (n as ReminderWindowHours) : DEFAULT_REMINDER_WINDOW_HOURS;
}

/**
 * How far back the reminders section looks (minutes): what fell due just now is listed too, so the desk sees
 * it go from "waiting" to "claimed" to "sent" instead of watching it vanish at its due instant.
 */
const RECENT_MINUTES = 15;

/**
 * [now − {@link RECENT_MINUTES}, now + hours) as UTC instants: the reminders section's window (elapsed time,
 * not wall-clock: a DST change inside it does not stretch it).
 */
export function reminderWindow(now: Date, hours: ReminderWindowHours): { from: Date; to: Date } {
  return { from: new Date(now.getTime() - RECENT_MINUTES * 60_000), to: new Date(now.getTime() + hours * 3_600_000) };
}

/**
 * How a planned message reads at the front desk:
 *   waiting — planned, not taken by the scheduler yet (`scheduled`);
 *   claimed — the scheduler took it (`dispatched`) or its delivery is claimed, sending or retrying;
 *   sent    — a provider accepted it (delivery `accepted`/`delivered`, or a report came back later);
 *   not sent — it ended without going out (reminder or delivery cancelled, expired, failed, suppressed, dead…);
 *   unknown — the provider's answer was lost (delivery `unknown`): a person decides.
 */
export type DeskStatus = 'waiting' | 'claimed' | 'sent' | 'not sent' | 'unknown';

/** The desk status of a reminder (`status`) and its delivery's status (null when none was claimed yet). */
export function deskStatus(reminder: ReminderStatus, delivery: DeliveryStatus | null): DeskStatus {
  if (delivery) {
    switch (delivery) {
      case 'claimed':
      case 'sending':
      case 'retrying':
        return 'claimed';
      case 'accepted':
      case 'delivered':
      case 'soft_bounced':
      case 'bounced':
      case 'complained':
        return 'sent';
      case 'unknown':
        return 'unknown';
      default:
        return 'not sent';
    }
  }
  if (reminder === 'scheduled') return 'waiting';
  if (reminder === 'dispatched' || reminder === 'done') return 'claimed';
  return 'not sent';
}

/** What "happening now" and "next up" need of an event. */
interface DeskEvent {
  id: string;
  startsAt: Date;
  endsAt: Date;
  status: EventStatus;
}

/**
 * Today's events split for the top card: `now` = those not cancelled with start ≤ now < end (in start order),
 * `next` = the first not cancelled that starts after now (null when none is left today).
 * `events` must be in start order.
 */
export function nowAndNext<E extends DeskEvent>(events: E[], now: Date): { now: E[]; next: E | null } {
  const t = now.getTime();
  const live = events.filter((e) => e.status !== 'cancelled');
  return {
    now: live.filter((e) => e.startsAt.getTime() <= t && t < e.endsAt.getTime()),
    next: live.find((e) => e.startsAt.getTime() > t) ?? null,
  };
}

/** "and 1,950 more — open the event": the line under a truncated participant list; null when nothing was left out. */
export function moreParticipants(shown: number, total: number): string | null {
  const more = total - shown;
  return more > 0 ? `and ${more.toLocaleString('en')} more — open the event` : null;
}

/** The title of the events section's empty state: "No events today in Europe/Amsterdam." */
export function noEventsTitle(zone: string): string {
  return `No events today in ${zone}.`;
}

/**
 * What the reminders section counts: "1 message due between 15 minutes ago and 1 hour from now" /
 * "12 messages due between 15 minutes ago and 3 hours from now".
 */
export function remindersDueText(count: number, hours: ReminderWindowHours): string {
  return `${count.toLocaleString('en')} ${count === 1 ? 'message' : 'messages'} due between ${RECENT_MINUTES} minutes ago and ${hours === 1 ? '1 hour' : `${hours} hours`} from now`;
}

/**
 * How long until `start`, for "Next up": "now" (under a minute), "in 25 min", "in 2 h", "in 2 h 5 min".
 * Elapsed time, rounded down to the minute.
 */
export function startsIn(now: Date, start: Date): string {
  const min = Math.floor((start.getTime() - now.getTime()) / 60_000);
  if (min < 1) return 'now';
  const h = Math.floor(min / 60);
  const m = min % 60;
  return h === 0 ? `in ${m} min` : m === 0 ? `in ${h} h` : `in ${h} h ${m} min`;
}

/** How a booking role reads beside a participant's name at the desk. */
export const deskRoleLabels: Record<'attendee' | 'external' | 'host', string> = { attendee: 'attendee', external: 'guest of another tenant', host: 'host' };
