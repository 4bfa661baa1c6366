/**
 * What the alerts page and the banners show (issue #10 §6): each condition's state and why a start is held, the
 * recent messages, staff and worker heartbeats; and the active alerts as banner lines for the dashboard and the
 * needs-attention page.
 */
import type { Db } from '@/db/client';
import { deliveriesInStatus, latestHeartbeat, listAlertMessages, listAlertStates, listHeartbeats, readAlertSettingsRow, staffByIds, startMessagesOfActive } from '@/db/queries/alerts/alerts';
import { listStaff } from '@/db/queries/accounts/staff';
import type { AlertMessage } from '@/db/schema';
import { alertBannerLine, type AlertReach } from '@/domain/alerts/banner';
import { alertPath } from '@/domain/alerts/messages';
import { idleAlertState, startHeldReason, startHold, type AlertStateSnapshot } from '@/domain/alerts/alerts';
import { alertConditions, type AlertCondition } from '@/domain/vocabulary';
import { alertTimingFromEnv } from './evaluation';
import { routesFor } from './outbox';

/** One condition on the alerts page. */
export interface ConditionView {
  condition: AlertCondition;
  state: AlertStateSnapshot;
  /** Why the active episode's start was not sent (yet), or null. */
  held: string | null;
  /** When the state was last evaluated, or null when never. */
  evaluatedAt: Date | null;
}

/** Everything the alerts page shows besides the settings. */
interface AlertsOverview {
  conditions: ConditionView[];
  messages: AlertMessage[];
  staff: { id: string; name: string; email: string; role: string }[];
  heartbeats: { workerId: string; lastSweepAt: Date; startedAt: Date }[];
}

/** The alerts page's data for `tenantId` at `now`; `zone` (the tenant's IANA zone) words the instants of a held start. */
export async function alertsOverview(db: Db, tenantId: string, now: Date, zone = 'UTC'): Promise<AlertsOverview> {
  const [states, messages, staff, heartbeats] = await Promise.all([listAlertStates(db, tenantId), listAlertMessages(db, tenantId, 30), listStaff(db, tenantId), listHeartbeats(db, 5)]);
  const conditions = alertConditions.map((condition): ConditionView => {
    const s = states.find((x) => x.condition === condition);
    const state: AlertStateSnapshot = s ?? idleAlertState;
    return { condition, state, held: state.active && !state.startNotified ? startHeldReason(condition, state, now, alertTimingFromEnv(), zone) : null, evaluatedAt: s?.updatedAt ?? null };
  });
  return {
    conditions,
    messages,
    staff: staff.map((s) => ({ id: s.id, name: s.name, email: s.email, role: s.role })),
    heartbeats: heartbeats.map((h) => ({ workerId: h.workerId, lastSweepAt: h.lastSweepAt, startedAt: h.startedAt })),
  };
}

/** One active alert for the banner of the dashboard and the needs-attention page. */
export interface ActiveAlertBanner {
  condition: AlertCondition;
  /** "3 new dead letters since 12:01 — alert sent to 2 people". */
  line: string;
  /** Where a person acts (a path). */
  path: string;
}

/**
 * The tenant's active alerts as banner lines. `formatSince` formats, in the tenant's zone, the instant the
 * episode is counted from — the first item of a count condition, the newest sweep of any worker
 * (max worker_heartbeats.last_sweep_at) for worker_heartbeat, else the start — and the hourly limit's instants.
 * A start not sent yet names its hold (domain/alerts/alerts.ts startHold), or "no recipient" only when the settings
 * have no staff email recipient and no Slack URL.
 */
export async function activeAlertBanners(db: Db, tenantId: string, now: Date, formatSince: (d: Date) => string): Promise<ActiveAlertBanner[]> {
  const active = (await listAlertStates(db, tenantId)).filter((s) => s.active);
  // A count alert whose last case a person just resolved (replayed, discarded, marked) leaves the page at once: the
  // minute sweep resolves the alert itself (and sends "resolved") later, but the banner says what is there now.
  const cleared = new Set<AlertCondition>();
  for (const s of active) {
    if (s.condition === 'dead_letters' || s.condition === 'unknown_outcomes') {
      const { count } = await deliveriesInStatus(db, tenantId, s.condition === 'dead_letters' ? 'dead' : 'unknown');
      if (count === 0) cleared.add(s.condition);
    }
  }
  const states = active.filter((s) => !cleared.has(s.condition));
  if (states.length === 0) return [];
  const [starts, settings, lastSweep] = await Promise.all([
    startMessagesOfActive(db, tenantId),
    readAlertSettingsRow(db, tenantId),
    states.some((s) => s.condition === 'worker_heartbeat') ? latestHeartbeat(db) : Promise.resolve(null),
  ]);
  const hasRecipients = !!settings && routesFor(settings, await staffByIds(db, tenantId, settings.emailRecipients), false).length > 0;
  return states.map((s) => {
    const mine = starts.filter((m) => m.condition === s.condition && m.episode === s.episode);
    const reach: AlertReach = {
      peopleSent: new Set(mine.filter((m) => m.route === 'email' && m.status === 'sent').map((m) => m.address.toLowerCase())).size,
      slackSent: mine.some((m) => m.route === 'slack' && m.status === 'sent'),
      pending: mine.filter((m) => m.status !== 'sent' && m.status !== 'failed').length,
      failed: mine.filter((m) => m.status === 'failed').length,
    };
    const since =
      s.condition === 'dead_letters' || s.condition === 'unknown_outcomes'
        ? (s.firstItemAt ?? s.startedAt)
        : s.condition === 'worker_heartbeat'
          ? (lastSweep ?? s.firstItemAt ?? s.startedAt)
          : s.startedAt;
    const hold = s.startNotified ? null : startHold(s.condition, s, now, alertTimingFromEnv());
    const link = mine[0]?.link;
    const path = link ? new URL(link).pathname + new URL(link).search : alertPath(s.condition).path;
    return { condition: s.condition, line: alertBannerLine(s.condition, s, since ? formatSince(since) : '—', reach, { hold, hasRecipients, formatAt: formatSince }), path };
  });
}
