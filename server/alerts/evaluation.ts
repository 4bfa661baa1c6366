/**
 * Alerts that reach a person (issue #10 §6): evaluation. The alert outbox is server/alerts/outbox.ts, its sender
 * server/alerts/sender.ts, the admin settings server/alerts/settings.ts, the page's data server/alerts/overview.ts.
 *
 * Evaluation — {@link evaluateAlerts}: for each tenant with `alert_settings` (or one tenant), in ONE transaction:
 * lock the tenant's `alert_states` rows (FOR UPDATE, fixed order: two evaluators — the worker's minute sweep, the
 * web watchdog, an admin's "check now" — serialise and the second sees the first's writes), read each condition's
 * observation with a cheap query (db/queries/alerts/alerts.ts), decide with domain/alerts/alerts.ts `decideAlert`, store the
 * state, and plan messages: one `alert_messages` row per route and recipient under a stable message key
 * (`alert:<tenant>:<condition>:<episode>:<started|cleared>:<route>:<recipient>`, unique → a re-evaluation plans
 * nothing twice) plus a `send_alert` graphile job per row, in the same transaction (the outbox, invariant 1).
 *
 * Routes: email to the staff chosen in `email_recipients` (their current addresses), through the tenant's own
 * email provider (`tenants.email_provider`); a Slack-compatible incoming webhook (channels/slack.ts). "An alert
 * about the pipeline must not depend on the thing that failed": a provider_auth alert that names the tenant's own
 * email provider is NOT planned on the email route (Slack and the page only; the text says so), and the worker
 * heartbeat is evaluated and sent by the web process too (server/alerts/watchdog.ts), not only through the queue whose
 * worker is what stopped. A clear goes to exactly those who were told of the start.
 *
 * Links: every text links to the page where a person acts, absolute from PUNCTUAL_PUBLIC_URL (domain/alerts/messages.ts
 * alertPath): dead letters and unknown outcomes → /attention; provider auth → /attention?channel=<its channel>
 * (the deliveries list has no provider filter); lag, oldest due, heartbeat → the dashboard.
 *
 * Also the worker's minute sweep (workerAlertSweep).
 */
import type { Db, DbOrTx, Tx } from '@/db/client';
import {
  decisiveAttempts,
  deliveriesInStatus,
  dispatchLagP95,
  latestHeartbeat,
  lockAlertStates,
  oldestDueReminder,
  pruneHeartbeats,
  readAlertSettingsRow,
  staffByIds,
  startMessagesOf,
  tenantsWithAlertSettings,
  upsertHeartbeat,
  writeAlertState,
} from '@/db/queries/alerts/alerts';
import { getTenant } from '@/db/queries/scheduling/scheduling';
import type { AlertSettings } from '@/db/schema';
import { absoluteLink, alertMessageKey, alertPath, alertTexts, recipientOfKey } from '@/domain/alerts/messages';
import {
  decideAlert,
  idleAlertState,
  LAG_WINDOW_MS,
  PROVIDER_AUTH_WINDOW_MS,
  type AlertObservation,
  type AlertStateSnapshot,
  type AlertTiming,
} from '@/domain/alerts/alerts';
import { providerAuthFailure, type DecisiveAttempt, type ProviderAuthFailure } from '@/domain/alerts/provider-auth';
import { publicBaseUrl } from '@/domain/platform/public-url';
import { alertConditions, type AlertCondition, type AlertRoute, type Provider } from '@/domain/vocabulary';
import { planMessage, routesFor } from './outbox';

/**
 * PUNCTUAL_ALERT_QUIET_MS (tests only): the grouping quiet period of the count conditions, ms, instead of
 * domain/alerts/alerts.ts `ALERT_QUIET_MS` (60 s), so the browser tests see a dead letter's alert without waiting out a
 * real minute. Unset → the production rule. Read by both the worker (minute sweep) and the web app (check, pages).
 * @throws Error naming the variable when it is set but not a non-negative number.
 */
export function alertTimingFromEnv(env: Record<string, string | undefined> = process.env): AlertTiming {
  const raw = env.PUNCTUAL_ALERT_QUIET_MS;
  if (raw === undefined || raw === '') return {};
  const quietMs = Number(raw);
  if (!Number.isFinite(quietMs) || quietMs < 0) throw new Error(`PUNCTUAL_ALERT_QUIET_MS: not a non-negative number of milliseconds (${raw})`);
  return { quietMs };
}

/** The base URL alert links are made absolute with: PUNCTUAL_PUBLIC_URL, else http://127.0.0.1:$PORT (domain/platform/public-url.ts). */
export function alertPublicUrl(env: Record<string, string | undefined> = process.env): string {
  return publicBaseUrl(env);
}

// =============================================================================================== evaluation

/** Options of {@link evaluateAlerts}. */
interface EvaluateOptions {
  /** Only this tenant (it must have alert settings); default every tenant that has them. */
  tenantId?: string;
  /** Only these conditions (the web watchdog: `['worker_heartbeat']`); default all. */
  conditions?: readonly AlertCondition[];
  /** Base URL of links (default {@link alertPublicUrl}). */
  publicUrl?: string;
  /**
   * Delay of the planned messages' `send_alert` jobs, ms (default 0): the web process, which sends what it planned
   * itself, lets the worker's jobs wait so they only pick up what it could not send.
   */
  jobDelayMs?: number;
}

/** One planned message, as {@link evaluateAlerts} reports it. */
interface PlannedAlert {
  id: string;
  tenantId: string;
  condition: AlertCondition;
  episode: number;
  transition: 'started' | 'cleared';
  route: AlertRoute;
}

/** What {@link evaluateAlerts} did. */
interface EvaluateResult {
  /** Tenants evaluated. */
  tenants: number;
  /** Messages planned by this evaluation (each with its `send_alert` job). */
  planned: PlannedAlert[];
}

/** Groups decisive attempts by provider (each list stays newest first) and finds the ones failing on credentials. */
function authFailures(attempts: DecisiveAttempt[]): ProviderAuthFailure[] {
  const byProvider = new Map<Provider, DecisiveAttempt[]>();
  for (const a of attempts) byProvider.set(a.provider, [...(byProvider.get(a.provider) ?? []), a]);
  return [...byProvider.values()].map(providerAuthFailure).filter((f): f is ProviderAuthFailure => f !== null);
}

/**
 * Since when provider attempts are read for provider_auth: the last 15 minutes (a failure must be that recent to
 * start an alert), or — while an episode is active — since its first failure, so a provider that has not been
 * tried since still counts as failing (no attempt is not a recovery). Bounded so the scan stays cheap.
 */
function authSince(prev: AlertStateSnapshot, now: Date): Date {
  const window = now.getTime() - PROVIDER_AUTH_WINDOW_MS;
  const first = prev.active && prev.firstItemAt ? prev.firstItemAt.getTime() - 1000 : window;
  return new Date(Math.min(window, first));
}

/** Reads one condition's observation (module doc; queries in db/queries/alerts/alerts.ts). `prev`: its state before. */
async function observe(tx: DbOrTx, tenantId: string, condition: AlertCondition, now: Date, settings: AlertSettings, prev: AlertStateSnapshot): Promise<AlertObservation> {
  switch (condition) {
    case 'dead_letters':
      return { condition, ...(await deliveriesInStatus(tx, tenantId, 'dead')) };
    case 'unknown_outcomes':
      return { condition, ...(await deliveriesInStatus(tx, tenantId, 'unknown')) };
    case 'dispatch_lag':
      return { condition, ...(await dispatchLagP95(tx, tenantId, new Date(now.getTime() - LAG_WINDOW_MS), now)), thresholdMs: settings.lagP95Ms };
    case 'oldest_due':
      return { condition, ...(await oldestDueReminder(tx, tenantId, now)), thresholdSeconds: settings.oldestDueSeconds };
    case 'provider_auth':
      return { condition, failures: authFailures(await decisiveAttempts(tx, tenantId, authSince(prev, now))) };
    case 'worker_heartbeat':
      return { condition, lastSweepAt: await latestHeartbeat(tx) };
  }
}

/**
 * Evaluates alert conditions now (module doc) and plans the messages a person is owed.
 * @param now the instant of the evaluation (the database clock in production; a test's clock in tests).
 * @returns how many tenants were evaluated and what was planned.
 * @throws only for infrastructure errors (each tenant's transaction is all or nothing).
 */
export async function evaluateAlerts(db: DbOrTx, now: Date, opts: EvaluateOptions = {}): Promise<EvaluateResult> {
  const conditions = [...(opts.conditions ?? alertConditions)].sort((a, b) => a.localeCompare(b));
  const publicUrl = opts.publicUrl ?? alertPublicUrl();
  const tenantIds = opts.tenantId ? [opts.tenantId] : await tenantsWithAlertSettings(db);
  const result: EvaluateResult = { tenants: 0, planned: [] };
  for (const tenantId of tenantIds) {
    const jobAt = opts.jobDelayMs ? new Date(now.getTime() + opts.jobDelayMs) : undefined;
    const planned = await db.transaction((tx) => evaluateTenant(tx, tenantId, now, conditions, publicUrl, jobAt));
    if (planned) {
      result.tenants++;
      result.planned.push(...planned);
    }
  }
  return result;
}

async function evaluateTenant(tx: Tx, tenantId: string, now: Date, conditions: AlertCondition[], publicUrl: string, jobAt: Date | undefined): Promise<PlannedAlert[] | null> {
  const settings = await readAlertSettingsRow(tx, tenantId);
  const tenant = settings ? await getTenant(tx, tenantId) : undefined;
  if (!settings || !tenant) return null;
  const states = await lockAlertStates(tx, tenantId, conditions);
  const staff = await staffByIds(tx, tenantId, settings.emailRecipients);
  const planned: PlannedAlert[] = [];
  for (const condition of conditions) {
    const prev = states.get(condition) ?? idleAlertState;
    const obs = await observe(tx, tenantId, condition, now, settings, prev);
    const failures = obs.condition === 'provider_auth' ? obs.failures : [];
    const emailSkipped = failures.some((f) => f.provider === tenant.emailProvider);
    const routes = routesFor(settings, staff, emailSkipped);
    const d = decideAlert(prev, obs, { now, canNotify: routes.length > 0, timing: alertTimingFromEnv(), zone: tenant.timeZone });
    if (d.changed) await writeAlertState(tx, tenantId, condition, d.next, now);
    if (d.notify === 'started') {
      const { path, label } = alertPath(condition, failures);
      const link = absoluteLink(publicUrl, path);
      const texts = alertTexts({ tenantName: tenant.name, condition, transition: 'started', state: d.next, link, linkLabel: label, emailSkipped, zone: tenant.timeZone });
      for (const r of routes) {
        const messageKey = alertMessageKey({ tenantId, condition, episode: d.next.episode, transition: 'started', route: r.route, recipient: r.recipient });
        const id = await planMessage(tx, {
          tenantId,
          condition,
          episode: d.next.episode,
          transition: 'started',
          route: r.route,
          address: r.address,
          messageKey,
          subject: texts.subject,
          body: r.route === 'slack' ? texts.slack : texts.text,
          link,
          createdAt: now,
        }, jobAt);
        if (id) planned.push({ id, tenantId, condition, episode: d.next.episode, transition: 'started', route: r.route });
      }
    } else if (d.notify === 'cleared') {
      // Exactly those who were told of the start, on the route they were told on.
      for (const s of await startMessagesOf(tx, tenantId, condition, d.next.episode)) {
        const label = s.link.includes('/attention') ? 'Open Needs attention' : 'Open the dashboard';
        const texts = alertTexts({ tenantName: tenant.name, condition, transition: 'cleared', state: d.next, link: s.link, linkLabel: label, zone: tenant.timeZone });
        const recipient = recipientOfKey(s.messageKey) ?? s.address;
        const messageKey = alertMessageKey({ tenantId, condition, episode: d.next.episode, transition: 'cleared', route: s.route, recipient });
        const id = await planMessage(tx, {
          tenantId,
          condition,
          episode: d.next.episode,
          transition: 'cleared',
          route: s.route,
          address: s.address,
          messageKey,
          subject: texts.subject,
          body: s.route === 'slack' ? texts.slack : texts.text,
          link: s.link,
          createdAt: now,
        }, jobAt);
        if (id) planned.push({ id, tenantId, condition, episode: d.next.episode, transition: 'cleared', route: s.route });
      }
    }
  }
  return planned;
}

// =============================================================================================== worker

/** Heartbeat rows of workers silent for longer than this are removed by the minute sweep, ms (7 days). */
const HEARTBEAT_RETENTION_MS = 7 * 86_400_000;

/**
 * The worker's part of its minute sweep (jobs/tasks/dispatch-due.ts with `_cron`; also once at start): record this
 * worker's heartbeat at `now`, drop rows of workers gone for a week, then evaluate every tenant's alerts.
 */
export async function workerAlertSweep(
  db: Db,
  w: { workerId: string; hostname: string; pid: number; startedAt: Date; publicUrl?: string },
  now: Date,
): Promise<EvaluateResult> {
  await upsertHeartbeat(db, { workerId: w.workerId, hostname: w.hostname, pid: w.pid, startedAt: w.startedAt, at: now });
  await pruneHeartbeats(db, new Date(now.getTime() - HEARTBEAT_RETENTION_MS));
  return evaluateAlerts(db, now, { publicUrl: w.publicUrl });
}
