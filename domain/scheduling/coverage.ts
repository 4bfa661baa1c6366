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
  /**
   * How many reminders this entry stands for (default 1): the database may hand over reminders already grouped by
   * the fields above (db/queries/scheduling/event-page.ts counts them with GROUP BY) instead of one entry each.
   */
  count?: number;
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

/**
 * Computes the coverage of `reminders` (all versions, all bookings of one event) for `currentVersion`; an entry
 * with `count` counts that many times (a count of 0 or less counts nothing).
 */
export function eventCoverage(reminders: readonly CoverageReminder[], currentVersion: number): Coverage {
  const c: Coverage = { expected: 0, sent: 0, delivered: 0, expired: 0, failed: 0, unknown: 0, suppressed: 0, waiting: 0, nudges: 0, notifications: 0, announcements: 0 };
  for (const r of reminders) {
    const n = r.count ?? 1;
    if (n <= 0) continue;
    if (r.kind === 'nudge') {
      c.nudges += n;
      continue;
    }
    if (r.kind === 'notification') {
      c.notifications += n;
      continue;
    }
    if (r.kind === 'announcement') {
      c.announcements += n;
      continue;
    }
    if (r.bookingCancelled || r.scheduleVersion !== currentVersion || r.status === 'cancelled' || r.status === 'superseded') continue;
    c.expected += n;
    const d = r.deliveryStatus;
    if (d && SENT.has(d)) c.sent += n;
    if (d === 'delivered') c.delivered += n;
    if (r.status === 'expired' || d === 'expired') c.expired += n;
    else if (r.status === 'failed' || (d && FAILED.has(d))) c.failed += n;
    else if (d === 'unknown') c.unknown += n;
    else if (d === 'suppressed') c.suppressed += n;
    else if (!d || !SENT.has(d)) {
      // scheduled/dispatched, or a delivery claimed/sending/retrying, or cancelled/superseded at the last re-read
      if (d !== 'cancelled' && d !== 'superseded') c.waiting += n;
    }
  }
  return c;
}
