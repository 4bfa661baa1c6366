/**
 * Wording and small rules of the bulk actions on an event's participants (issue #13: "Cancel selected",
 * "Nudge selected"). Pure; server/people/bulk-participants.ts applies them, the event page shows what they return.
 */
import { DateTime } from 'luxon';
import { formatStaffTime } from '@/domain/staff-time';

/** Most participants one bulk request may name (the page never shows more at once in practice). */
export const BULK_MAX = 500;

/**
 * The idempotency key of one participant's nudge within a bulk request: the request's key (made when the
 * confirm dialog opens) and the booking id. A repeated request (double click, retry) finds every nudge it
 * already made under the same keys (server/sending/nudge.ts) and sends none twice; each participant's nudge still has
 * its own key, as a single nudge does.
 */
export function bulkNudgeKey(requestKey: string, bookingId: string): string {
  return `bulk:${requestKey}:${bookingId}`;
}

/**
 * "hh:mm" in `zone` of the first whole minute at or after `retryAt` — a time at which a retry is surely accepted
 * (a refusal until 10:01:30 says "try again at 10:02", never a 10:01 that would be refused again).
 */
export function retryClock(retryAt: Date | string, zone: string): string {
  const dt = (typeof retryAt === 'string' ? DateTime.fromISO(retryAt) : DateTime.fromJSDate(retryAt)).setZone(zone);
  if (!dt.isValid) return 'in a minute';
  const up = dt.startOf('minute').equals(dt) ? dt : dt.startOf('minute').plus({ minutes: 1 });
  return up.toFormat('HH:mm');
}

/** What a refused nudge of a bulk request says about that participant, from the single nudge's AppError. */
export function nudgeRefusalText(err: { code: string; message: string; retryAt?: string | null }, zone: string): string {
  if (err.code === 'rate_limited') return `nudged less than a minute ago — try again at ${err.retryAt ? retryClock(err.retryAt, zone) : 'in a minute'}`;
  if (err.code === 'not_found') return 'not a participant of this event';
  return err.message;
}

/** One selected participant whose booking changed after the page showed it. */
export interface ChangedParticipant {
  name: string;
  /** Who changed it (a staff member's name, or `import`, `system`). */
  by: string;
  /** When (UTC), or null when unknown. */
  at: Date | null;
  /** The booking's status now. */
  status: string;
}

/**
 * The 409 of a stale bulk cancel: "2 of the 3 selected participants changed since the page showed them, so
 * nothing was cancelled: Zoë Adams (cancelled by Sam at Tue 1 Dec 2026, 09:02 CET); … The list now shows them
 * as they are: check them and select again."
 */
export function staleSelectionMessage(changed: ChangedParticipant[], selected: number, zone: string): string {
  const list = changed
    .map((c) => `${c.name} (${c.status === 'cancelled' ? 'cancelled' : 'changed'} by ${c.by}${c.at ? ` at ${formatStaffTime(c.at, zone)}` : ''})`)
    .join('; ');
  const n = changed.length;
  const head = n === selected ? `${n === 1 ? 'The selected participant' : `All ${n} selected participants`}` : `${n} of the ${selected} selected participants`;
  return `${head} changed since the page showed ${n === 1 ? 'it' : 'them'}, so nothing was cancelled: ${list}. The list now shows them as they are: check them and select again.`;
}
