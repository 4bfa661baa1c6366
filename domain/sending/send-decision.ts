/**
 * The last re-read before a send (invariant 4): given what the database says *now*, should this reminder
 * still go out? Pure; the caller reads the rows under a row lock and applies the decision in the same
 * transaction.
 */
import { formatShortWhen } from '@/domain/format-time';
import type { BookingStatus, DomainEventType, EventStatus, ReminderKind, ReminderStatus } from '@/domain/vocabulary';

export interface SendSnapshot {
  /** `kind` nudge: a staff member's manual send — no rule to check, and not tied to a schedule version. */
  reminder: { status: ReminderStatus; scheduleVersion: number; expiresAt: Date; kind?: ReminderKind; notificationType?: DomainEventType | null };
  /** `timeZone` (IANA) is only used to word reasons in the event's local time. */
  event: { status: EventStatus; scheduleVersion: number; timeZone?: string };
  /** `attendance`: whether the person said they will come (domain/scheduling/attendance.ts); absent = unknown. */
  booking: { status: BookingStatus; attendance?: string };
  /**
   * `pendingGoOut`: the rule was deactivated with "let its pending reminders go out" (issue #13): reminders it
   * planned while active still go out. Absent/false: an inactive rule's reminders end `cancelled`.
   */
  rule: { active: boolean; pendingGoOut?: boolean; onlyUnconfirmed?: boolean } | null;
  /** For an announcement's message: the booking statuses its audience chose (its booking must still have one). */
  announcement?: { statuses: readonly BookingStatus[] } | null;
}

type SendDecision =
  | { action: 'send' }
  /** The reminder already left the sendable states (another worker, a replan); nothing to write. */
  | { action: 'skip'; reason: string }
  | { action: 'terminate'; status: 'cancelled' | 'superseded' | 'expired'; reason: string };

function expiredReason(expiresAt: Date, now: Date, timeZone = 'UTC'): string {
  const local = (d: Date) => formatShortWhen({ at: d, timeZone, locale: 'en-GB', allDay: false });
  return `not sent before its expiry instant ${local(expiresAt)} (checked ${local(now)})`;
}

/** The reason a reminder of an only-unconfirmed rule ends with once its person confirmed. */
export const ALREADY_CONFIRMED = 'already confirmed';

const SENDABLE: ReadonlySet<ReminderStatus> = new Set(['scheduled', 'dispatched']);

/**
 * Decides in this order: already handled → skip; a notification or an announcement by its own rules (below); event cancelled, booking cancelled, rule gone or inactive
 * (unless deactivated with "let its pending reminders go out")
 * → `cancelled`; a rule for unconfirmed bookings only whose person has confirmed → `cancelled` ("already confirmed"); older schedule version → `superseded`; `now` at or past expiry → `expired`; else send.
 * A nudge skips the rule and version checks: it was asked for by a person, and renders the event as it is
 * at send time.
 */
export function decideSend(s: SendSnapshot, now: Date): SendDecision {
  if (!SENDABLE.has(s.reminder.status)) return { action: 'skip', reason: `reminder is ${s.reminder.status}` };
  if (s.reminder.kind === 'notification') return decideNotification(s, now);
  if (s.reminder.kind === 'announcement') return decideAnnouncement(s, now);
  if (s.event.status === 'cancelled') return { action: 'terminate', status: 'cancelled', reason: 'event cancelled' };
  if (s.booking.status === 'cancelled') return { action: 'terminate', status: 'cancelled', reason: 'booking cancelled' };
  const nudge = s.reminder.kind === 'nudge';
  if (!nudge && (!s.rule || (!s.rule.active && !s.rule.pendingGoOut))) return { action: 'terminate', status: 'cancelled', reason: 'reminder rule deactivated' };
  // A rule for people who have not confirmed yet: a confirmation since the plan makes its reminder moot.
  if (!nudge && s.rule?.onlyUnconfirmed && s.booking.attendance === 'confirmed') return { action: 'terminate', status: 'cancelled', reason: ALREADY_CONFIRMED };
  if (!nudge && s.reminder.scheduleVersion < s.event.scheduleVersion) {
    return {
      action: 'terminate',
      status: 'superseded',
      reason: `superseded by schedule version ${s.event.scheduleVersion}`,
    };
  }
  if (now.getTime() >= s.reminder.expiresAt.getTime()) {
    return {
      action: 'terminate',
      status: 'expired',
      reason: expiredReason(s.reminder.expiresAt, now, s.event.timeZone),
    };
  }
  return { action: 'send' };
}

/**
 * An announcement's message was written by staff to the people they chose (roles × booking statuses) at the claim of
 * the announcement: no rule or schedule version can make it stale, and an event cancellation does not stop it (staff may
 * write about exactly that). What can: the booking no longer having a status the audience chose (a confirmed attendee
 * who cancelled since → `cancelled`), and expiry (its late-send window) as for every message.
 */
function decideAnnouncement(s: SendSnapshot, now: Date): SendDecision {
  const statuses = s.announcement?.statuses ?? ['confirmed'];
  if (!statuses.includes(s.booking.status)) return { action: 'terminate', status: 'cancelled', reason: `booking ${s.booking.status} since the announcement was sent` };
  if (now.getTime() >= s.reminder.expiresAt.getTime()) {
    return { action: 'terminate', status: 'expired', reason: expiredReason(s.reminder.expiresAt, now, s.event.timeZone) };
  }
  return { action: 'send' };
}

/** Notification types that still tell the truth after the event or booking was cancelled. */
const TELLS_OF_CANCELLATION: ReadonlySet<string> = new Set(['booking_cancelled', 'event_cancelled']);

/**
 * A notification (issue #9) tells of a change that happened, so no rule can make it stale; a later change can:
 * a waiting confirmation, reschedule or host notice ends `cancelled` once the event or the booking is cancelled
 * (the cancellation notice then says what is true), and a waiting reschedule notice is `superseded` by a newer
 * reschedule's. Cancellation notices themselves always go. Expiry applies as for reminders.
 */
function decideNotification(s: SendSnapshot, now: Date): SendDecision {
  const tellsOfCancellation = TELLS_OF_CANCELLATION.has(s.reminder.notificationType ?? '');
  if (!tellsOfCancellation && s.event.status === 'cancelled') return { action: 'terminate', status: 'cancelled', reason: 'event cancelled since' };
  if (!tellsOfCancellation && s.booking.status === 'cancelled') return { action: 'terminate', status: 'cancelled', reason: 'booking cancelled since' };
  // A reschedule notice still waiting (quiet hours) when the event moved again tells a timing that no longer
  // holds: the newer notice replaces it (one message, not one per intermediate move).
  if (s.reminder.notificationType === 'event_rescheduled' && s.reminder.scheduleVersion < s.event.scheduleVersion) {
    return { action: 'terminate', status: 'superseded', reason: `superseded by the notice of schedule version ${s.event.scheduleVersion}` };
  }
  if (now.getTime() >= s.reminder.expiresAt.getTime()) {
    return { action: 'terminate', status: 'expired', reason: expiredReason(s.reminder.expiresAt, now, s.event.timeZone) };
  }
  return { action: 'send' };
}
