/**
 * Reminder planning: which reminders an event's bookings get under the tenant's rules, when each is due,
 * and when it stops being worth sending. Pure (DESIGN §2): `now` is an argument.
 *
 * Rules:
 *  - A rule applies to a booking when the rule is active, the booking is `confirmed`, the event is
 *    `scheduled`, and the booking's role is in the rule's audience.
 *  - Anchors: `start` = event start; `end` = event end; `room_open` = start − room-open lead (elapsed
 *    minutes). A `room_open` rule plans nothing for an event without a room URL (there is no room to open).
 *  - All-day events anchor on the local midnight that starts (or ends) the day, which is what
 *    `startsAt`/`endsAt` hold for them.
 *  - Due instant: see due-instant.ts (calendar parts keep wall-clock time, elapsed parts are elapsed).
 *  - Expiry instant = due + late-send window; for a reminder due before the event's start it is never later
 *    than that start: a reminder never goes out after the moment it reminds of.
 *  - Planned at or after its expiry (a late booking, an import of a past event): stored `expired` with a
 *    reason, never silently dropped. Planned after its due instant but before expiry: `scheduled`, and the
 *    dispatcher sends it at once.
 */
import { applyOffset } from './due-instant';
import { formatShortWhen } from '@/domain/format-time';
import type { Anchor, BookingRole, BookingStatus, Channel, EventStatus } from '@/domain/vocabulary';

export interface PlanningEvent {
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
  status: EventStatus;
  roomUrl: string | null;
  /** Effective room-open lead in minutes (event override, else tenant default). */
  roomOpenLeadMinutes: number;
}

export interface PlanningBooking {
  id: string;
  role: BookingRole;
  status: BookingStatus;
  /** Whether the person said they will come (domain/scheduling/attendance.ts); absent = not known to the caller (treated as not confirmed). */
  attendance?: string;
}

export interface PlanningRule {
  id: string;
  anchor: Anchor;
  offset: string;
  audience: readonly BookingRole[];
  channel: Channel;
  lateSendWindowSeconds: number;
  active: boolean;
  /** Targets only bookings not yet confirmed: a confirmed booking gets nothing from it. */
  onlyUnconfirmed?: boolean;
}

export interface PlannedReminder {
  bookingId: string;
  ruleId: string;
  channel: Channel;
  dueAt: Date;
  expiresAt: Date;
  status: 'scheduled' | 'expired';
  statusReason: string | null;
}

/** Staff-readable reason for a reminder planned too late, times in the event's zone (never a raw ISO instant: issue #12). */
function lateReason(timeZone: string, now: Date, w: { dueAt: Date; expiresAt: Date }): string {
  const local = (d: Date) => formatShortWhen({ at: d, timeZone, locale: 'en-GB', allDay: false });
  return (
    `planned after its expiry instant: due ${local(w.dueAt)}, useful until ${local(w.expiresAt)}, planned ${local(now)}`
  );
}

/** The anchor instant of `rule` for `event`, or null when the anchor does not exist (no room to open). */
function anchorInstant(event: PlanningEvent, anchor: Anchor): Date | null {
  switch (anchor) {
    case 'start':
      return event.startsAt;
    case 'end':
      return event.endsAt;
    case 'room_open':
      if (!event.roomUrl) return null;
      return new Date(event.startsAt.getTime() - event.roomOpenLeadMinutes * 60_000);
  }
}

/**
 * Due and expiry instants of one rule for one event (UTC instants).
 * @returns null when the rule's anchor does not exist for this event.
 * @throws DueInstantError for an invalid offset or zone.
 */
export function reminderWindow(
  event: PlanningEvent,
  rule: Pick<PlanningRule, 'anchor' | 'offset' | 'lateSendWindowSeconds'>,
): { dueAt: Date; expiresAt: Date } | null {
  const anchor = anchorInstant(event, rule.anchor);
  if (!anchor) return null;
  const dueAt = applyOffset(anchor, rule.offset, event.timeZone);
  let expiresMs = dueAt.getTime() + rule.lateSendWindowSeconds * 1000;
  if (dueAt.getTime() < event.startsAt.getTime()) expiresMs = Math.min(expiresMs, event.startsAt.getTime());
  return { dueAt, expiresAt: new Date(expiresMs) };
}

/** Whether `rule` reminds `booking` at `event` (module rules). */
function ruleApplies(event: PlanningEvent, booking: PlanningBooking, rule: PlanningRule): boolean {
  return (
    rule.active &&
    event.status === 'scheduled' &&
    booking.status === 'confirmed' &&
    rule.audience.includes(booking.role) &&
    !(rule.onlyUnconfirmed === true && booking.attendance === 'confirmed')
  );
}

/**
 * Plans every reminder the given bookings get from the given rules, as of `now`.
 * Output order: by booking as given, then rule as given.
 * @throws DueInstantError for an invalid rule offset or event zone (the caller's transaction then writes nothing).
 */
export function planReminders(input: {
  event: PlanningEvent;
  bookings: readonly PlanningBooking[];
  rules: readonly PlanningRule[];
  now: Date;
}): PlannedReminder[] {
  const { event, bookings, rules, now } = input;
  const windows = new Map(rules.map((r) => [r.id, reminderWindow(event, r)]));
  const out: PlannedReminder[] = [];
  for (const booking of bookings) {
    for (const rule of rules) {
      const w = windows.get(rule.id);
      if (!w || !ruleApplies(event, booking, rule)) continue;
      const expired = now.getTime() >= w.expiresAt.getTime();
      out.push({
        bookingId: booking.id,
        ruleId: rule.id,
        channel: rule.channel,
        dueAt: w.dueAt,
        expiresAt: w.expiresAt,
        status: expired ? 'expired' : 'scheduled',
        statusReason: expired ? lateReason(event.timeZone, now, w) : null,
      });
    }
  }
  return out;
}
