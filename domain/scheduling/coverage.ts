/**
 * The coverage line of an event (issue #4 item 4): of the reminders the current schedule expects, how many
 * went out, were delivered, expired or failed — so a person sees at a glance whether anyone was missed.
 * Pure. Counts only rule reminders of the event's current schedule version that were not cancelled or
 * superseded (a cancelled booking expects nothing); manual nudges are extra and counted separately.
 */
import type { DeliveryStatus, ReminderKind, ReminderStatus } from '@/domain/vocabulary';

export interface CoverageReminder {
  kind: ReminderKind;
  scheduleVersion: number;
  status: ReminderStatus;
  deliveryStatus: DeliveryStatus | null;
  /** The reminder's booking was cancelled: it expects nothing, whatever its reminders ended as before. */
  bookingCancelled?: boolean;
}

export interface Coverage {
  /** Rule reminders the current schedule plans (not cancelled, not superseded). */
  expected: number;
  /** Handed to the provider: accepted or delivered (bounced/complained count as failed). */
  sent: number;
  /** Confirmed delivered by the provider. */
  delivered: number;
  expired: number;
  /** Failed for good: template/data failure, rejected, dead letter, bounced, complained, discarded. */
  failed: number;
  /** May or may not have gone out — a person has to decide. */
  unknown: number;
  suppressed: number;
  /** Not yet sent: waiting for the due instant, on its way, or retrying. */
  waiting: number;
  /** Manual nudges (outside `expected`). */
  nudges: number;
  /** Notifications about booking changes (outside `expected`: they follow changes, not the schedule). */
  notifications: number;
  /** Messages of announcements staff wrote to the event's people (outside `expected`). */
  announcements: number;
}

// A soft bounce was handed over and the receiving server said "later": it counts as sent, not failed.
const SENT: ReadonlySet<string> = new Set(['accepted', 'delivered', 'soft_bounced']);
const FAILED: ReadonlySet<string> = new Set(['failed', 'dead', 'bounced', 'complained', 'discarded']);

/** Computes the coverage of `reminders` (all versions, all bookings of one event) for `currentVersion`. */
export function eventCoverage(reminders: readonly CoverageReminder[], currentVersion: number): Coverage {
  const c: Coverage = { expected: 0, sent: 0, delivered: 0, expired: 0, failed: 0, unknown: 0, suppressed: 0, waiting: 0, nudges: 0, notifications: 0, announcements: 0 };
  for (const r of reminders) {
    if (r.kind === 'nudge') {
      c.nudges++;
      continue;
    }
    if (r.kind === 'notification') {
      c.notifications++;
      continue;
    }
    if (r.kind === 'announcement') {
      c.announcements++;
      continue;
    }
    if (r.bookingCancelled || r.scheduleVersion !== currentVersion || r.status === 'cancelled' || r.status === 'superseded') continue;
    c.expected++;
    const d = r.deliveryStatus;
    if (d && SENT.has(d)) c.sent++;
    if (d === 'delivered') c.delivered++;
    if (r.status === 'expired' || d === 'expired') c.expired++;
    else if (r.status === 'failed' || (d && FAILED.has(d))) c.failed++;
    else if (d === 'unknown') c.unknown++;
    else if (d === 'suppressed') c.suppressed++;
    else if (!d || !SENT.has(d)) {
      // scheduled/dispatched, or a delivery claimed/sending/retrying, or cancelled/superseded at the last re-read
      if (d !== 'cancelled' && d !== 'superseded') c.waiting++;
    }
  }
  return c;
}
