/**
 * The staff list of planned messages (`/reminders`, issue #12): which reminders a filter means and over which
 * instants. The dashboard's "due" and "Expired" tiles open this list, so each view here counts exactly what its
 * tile counts (db/queries/dashboards/dashboard.ts dashboardCounts):
 *
 *   view       statuses                 instant filtered          window                 order
 *   upcoming   scheduled, dispatched    due_at                    [now, now + window)    due_at ascending
 *   due        scheduled, dispatched    due_at                    [now − window, now)    due_at ascending
 *   expired    expired                  expires_at                [now − window, now]    expires_at descending
 *   done       done                     updated_at (last change)  [now − window, now]    updated_at descending
 *   failed     failed                   updated_at                [now − window, now]    updated_at descending
 *   cancelled  cancelled                updated_at                [now − window, now]    updated_at descending
 *   superseded superseded               updated_at                [now − window, now]    updated_at descending
 *
 * "upcoming" with window 1 h is the tile "Due in the next hour", with 24 h "Due in the next 24 hours";
 * "expired" with 24 h is the reminder half of the "Expired" tile. Window `all` drops the bound on the far side
 * (upcoming: everything from now on; the others: everything up to now).
 *
 * Pure: no I/O, no clock reads (`now` is an argument). Instants are UTC `Date`s.
 */
import type { ReminderStatus } from '@/domain/vocabulary';

/** The views of the list, in the order the filter offers them. */
export const reminderViews = ['upcoming', 'due', 'expired', 'done', 'failed', 'cancelled', 'superseded'] as const;
type ReminderView = (typeof reminderViews)[number];

/** How each view reads in the filter. */
export const reminderViewLabels: Record<ReminderView, string> = {
  upcoming: 'Upcoming (not due yet)',
  due: 'Due, not sent yet',
  expired: 'Expired (never sent)',
  done: 'Handed to a delivery',
  failed: 'Failed (template data)',
  cancelled: 'Cancelled',
  superseded: 'Superseded',
};

/** The time windows the filter offers: elapsed time from now, or no bound. */
export const reminderWindows = ['1h', '24h', '7d', 'all'] as const;
type ReminderWindow = (typeof reminderWindows)[number];

export const reminderWindowLabels: Record<ReminderWindow, string> = { '1h': '1 hour', '24h': '24 hours', '7d': '7 days', all: 'any time' };

const WINDOW_MS: Record<Exclude<ReminderWindow, 'all'>, number> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 };

/** The column a view filters and sorts by. */
type ReminderInstantColumn = 'due_at' | 'expires_at' | 'updated_at';

/** What one filter means for the query (see the module table). */
export interface ReminderListQuery {
  statuses: ReminderStatus[];
  column: ReminderInstantColumn;
  /** Inclusive lower bound on `column`, or null for none. */
  from: Date | null;
  /** Upper bound on `column`, or null for none; exclusive when `toInclusive` is false. */
  to: Date | null;
  toInclusive: boolean;
  order: 'asc' | 'desc';
}

/**
 * The query a view and window mean at `now` (module table).
 * @example reminderListQuery('upcoming', '1h', now) → scheduled/dispatched with due_at in [now, now + 1 h), soonest first.
 */
export function reminderListQuery(view: ReminderView, window: ReminderWindow, now: Date): ReminderListQuery {
  const t = now.getTime();
  const span = window === 'all' ? null : WINDOW_MS[window];
  switch (view) {
    case 'upcoming':
      return { statuses: ['scheduled', 'dispatched'], column: 'due_at', from: now, to: span === null ? null : new Date(t + span), toInclusive: false, order: 'asc' };
    case 'due':
      return { statuses: ['scheduled', 'dispatched'], column: 'due_at', from: span === null ? null : new Date(t - span), to: now, toInclusive: false, order: 'asc' };
    case 'expired':
      return { statuses: ['expired'], column: 'expires_at', from: span === null ? null : new Date(t - span), to: now, toInclusive: true, order: 'desc' };
    default:
      return { statuses: [view], column: 'updated_at', from: span === null ? null : new Date(t - span), to: now, toInclusive: true, order: 'desc' };
  }
}

/** The sentence under the list's heading: what it shows, e.g. "Reminders due in the next hour, soonest first". */
export function describeReminderList(view: ReminderView, window: ReminderWindow): string {
  const span = window === 'all' ? null : reminderWindowLabels[window];
  switch (view) {
    case 'upcoming':
      return span ? `Messages due in the next ${span === '1 hour' ? 'hour' : span}, soonest first` : 'Messages not due yet, soonest first';
    case 'due':
      return span ? `Messages that fell due in the last ${span === '1 hour' ? 'hour' : span} and have not gone out yet, oldest first` : 'Messages due and not sent yet, oldest first';
    case 'expired':
      return span
        ? `Messages whose expiry instant passed in the last ${span === '1 hour' ? 'hour' : span} before they could go out, newest first`
        : 'Messages that expired before they could go out, newest first';
    default:
      return span
        ? `Messages ${reminderViewLabels[view].toLowerCase()} in the last ${span === '1 hour' ? 'hour' : span}, newest first`
        : `Messages ${reminderViewLabels[view].toLowerCase()}, newest first`;
  }
}
