/**
 * The soft-bounce rule counted per message (issue #10 §3 "suppressed only after 3 soft bounces within 7 days"),
 * pure. A mail system may report one message's soft bounce several times (each retry of a full mailbox, a provider
 * event and a DSN for the same send): those are ONE soft bounce. So the rule counts distinct deliveries — messages —
 * that soft-bounced within a window, not reports. This is the rule server/reports/reports.ts applies.
 */
import { SOFT_BOUNCE_WINDOW_MS } from './report-state';

/** One soft-bounce report: the delivery (message) it is about and its event time (UTC instant). */
interface SoftBounce {
  deliveryId: string;
  at: Date;
}

/**
 * The largest number of distinct deliveries that soft-bounced within one window of `windowMs` (half-open,
 * `[t, t + windowMs)`, starting at any report's event time). Order-independent.
 */
export function softBouncedMessagesInWindow(bounces: readonly SoftBounce[], windowMs = SOFT_BOUNCE_WINDOW_MS): number {
  const sorted = [...bounces].sort((a, b) => a.at.getTime() - b.at.getTime());
  let best = 0;
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i].at.getTime();
    const ids = new Set<string>();
    for (let j = i; j < sorted.length && sorted[j].at.getTime() - start < windowMs; j++) ids.add(sorted[j].deliveryId);
    best = Math.max(best, ids.size);
  }
  return best;
}

/**
 * Whether some window of `windowMs` holds soft bounces of at least `limit` distinct deliveries: three soft-bounce
 * reports of ONE message count once; three messages soft-bounced on 05-01T00:00, 05-04 and 05-08T00:00 (exactly
 * 7 days apart) are not within 7 days, one millisecond less and they are.
 */
export function softBounceMessageLimitReached(bounces: readonly SoftBounce[], limit = 3, windowMs = SOFT_BOUNCE_WINDOW_MS): boolean {
  if (limit <= 0) return true;
  return softBouncedMessagesInWindow(bounces, windowMs) >= limit;
}

/** The number of distinct deliveries among `bounces` (what "N messages on record" counts). */
export function softBouncedMessages(bounces: readonly SoftBounce[]): number {
  return new Set(bounces.map((b) => b.deliveryId)).size;
}
