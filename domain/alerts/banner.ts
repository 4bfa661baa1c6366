/**
 * The banner line of an active alert on the dashboard and the needs-attention page (issue #10 §6): what is wrong
 * since when, and what became of the alert (sent to whom, held and why, no recipient). Pure.
 */
import type { AlertCondition } from '@/domain/vocabulary';
import { ALERT_GROUP_MAX_MS, type AlertStateSnapshot, type StartHold } from './alerts';
import { plural } from './format';

/** Who an active alert was sent to, as the banner says it. */
export interface AlertReach {
  /** Distinct email recipients whose start message was sent / is still on its way / failed. */
  peopleSent: number;
  slackSent: boolean;
  pending: number;
  failed: number;
}

/**
 * The banner line of an active alert ("3 new dead letters since 12:01 — alert sent to 2 people"). `since` is
 * the start (count conditions: the first item; worker_heartbeat: the last sweep) formatted by the caller in the
 * tenant's zone. `pending` says why a start is not sent yet: `hold` is {@link startHold} at render time,
 * `hasRecipients` whether the alert settings name a staff email recipient or a Slack URL, `formatAt` formats the
 * hourly limit's instants in the tenant's zone.
 */
export function alertBannerLine(
  condition: AlertCondition,
  s: AlertStateSnapshot,
  since: string,
  reach: AlertReach,
  pending: { hold: StartHold | null; hasRecipients: boolean; formatAt: (d: Date) => string },
): string {
  let head: string;
  switch (condition) {
    case 'dead_letters':
      head = `${plural(s.itemCount, 'new dead letter', 'new dead letters')} since ${since}`;
      break;
    case 'unknown_outcomes':
      head = `${plural(s.itemCount, 'new unknown outcome', 'new unknown outcomes')} since ${since}`;
      break;
    case 'dispatch_lag':
      head = `Dispatch lag over your threshold since ${since}`;
      break;
    case 'oldest_due':
      head = `A due reminder is waiting longer than your threshold (since ${since})`;
      break;
    case 'provider_auth':
      head = `A provider refuses our credentials (since ${since})`;
      break;
    case 'worker_heartbeat':
      head = `The worker has not run its minute sweep since ${since}`;
      break;
  }
  return `${head} — ${reachPhrase(condition, s, reach, pending)}`;
}

/**
 * The banner's "what happened to the alert" part. A start not sent yet reads, in this order: no recipient when the
 * settings have neither a staff email recipient nor a Slack URL (`hasRecipients` false); the hourly limit with
 * both instants; the grouping window of a count condition; else that the next check (the worker's minute sweep)
 * sends it — the page can be rendered between the end of a hold and that sweep.
 */
function reachPhrase(
  condition: AlertCondition,
  s: AlertStateSnapshot,
  r: AlertReach,
  p: { hold: StartHold | null; hasRecipients: boolean; formatAt: (d: Date) => string },
): string {
  if (!s.startNotified) {
    if (!p.hasRecipients) return 'no alert sent: no recipient is set up';
    if (p.hold?.kind === 'hourly') return `alert held: one went out at ${p.formatAt(p.hold.lastAt)} (at most one an hour); sent at ${p.formatAt(p.hold.retryAt)} if still active`;
    if (p.hold?.kind === 'grouping') {
      const item = condition === 'unknown_outcomes' ? 'unknown outcome' : 'dead letter';
      return `alert goes out when no new ${item} has come for a minute (at the latest ${ALERT_GROUP_MAX_MS / 60_000} min after the first)`;
    }
    return 'alert goes out at the next check (within a minute)';
  }
  const to = [r.peopleSent > 0 ? plural(r.peopleSent, 'person', 'people') : null, r.slackSent ? 'Slack' : null].filter(Boolean).join(' and ');
  if (to) return `alert sent to ${to}${r.pending > 0 ? ` (${r.pending} still on the way)` : ''}${r.failed > 0 ? ` (${r.failed} failed)` : ''}`;
  if (r.pending > 0) return 'alert on its way';
  if (r.failed > 0) return 'the alert could not be sent (see Alerts)';
  return 'alert planned';
}
