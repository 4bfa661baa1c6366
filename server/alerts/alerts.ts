/**
 * Alerts that reach a person (issue #10 §6): evaluation, the alert outbox and its sender, and the admin settings.
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
 * Sending — {@link sendAlertMessage}: claim the row (pending/retrying-due/lease-expired → `sending` under a lease,
 * guarded UPDATE: of the worker's job and the web process only one sends), send, record `sent`, `retrying` (backoff
 * with jitter, domain/sending/retry.ts; a new `send_alert` job at the next attempt) or `failed`. A sender that died while
 * `sending` leaves a lease that runs out; the message is then sent again (an alert twice beats none).
 *
 * Links: every text links to the page where a person acts, absolute from PUNCTUAL_PUBLIC_URL (domain/alerts/alerts.ts
 * alertPath): dead letters and unknown outcomes → /attention; provider auth → /attention?channel=<its channel>
 * (the deliveries list has no provider filter); lag, oldest due, heartbeat → the dashboard.
 */
import { TASK } from '@/jobs/registry';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { createHttpEmailChannel } from '@/channels/http-email';
import { createSlackPoster, type SlackPoster } from '@/channels/slack';
import { createSmtpChannel } from '@/channels/smtp';
import type { EmailChannel, Outcome } from '@/channels/types';
import type { Db, DbOrTx, Tx } from '@/db/client';
import { setActor } from '@/db/queries/platform/actor';
import {
  claimAlertMessage,
  decisiveAttempts,
  deliveriesInStatus,
  dispatchLagP95,
  dueAlertMessageIds,
  finishAlertMessage,
  getAlertMessage,
  insertAlertMessage,
  insertAlertSettingsRow,
  latestHeartbeat,
  listAlertMessages,
  listAlertStates,
  listHeartbeats,
  lockAlertSettingsRow,
  lockAlertStates,
  oldestDueReminder,
  pruneHeartbeats,
  readAlertSettingsRow,
  staffByIds,
  startMessagesOf,
  startMessagesOfActive,
  tenantsWithAlertSettings,
  updateAlertSettingsRow,
  upsertHeartbeat,
  writeAlertState,
  type AlertSettingsWrite,
} from '@/db/queries/alerts/alerts';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { getTenant } from '@/db/queries/scheduling/scheduling';
import { listStaff } from '@/db/queries/accounts/staff';
import type { AlertMessage, AlertSettings, Tenant } from '@/db/schema';
import {
  absoluteLink,
  alertBannerLine,
  alertEmailHtml,
  alertMessageKey,
  alertPath,
  alertRetryPolicy,
  alertTexts,
  decideAlert,
  decideAlertSend,
  idleAlertState,
  LAG_WINDOW_MS,
  maskWebhookUrl,
  PROVIDER_AUTH_WINDOW_MS,
  providerAuthFailure,
  recipientOfKey,
  startHeldReason,
  startHold,
  testAlertTexts,
  type AlertObservation,
  type AlertReach,
  type AlertStateSnapshot,
  type AlertTiming,
  type DecisiveAttempt,
  type ProviderAuthFailure,
} from '@/domain/alerts/alerts';
import { messageIdFor } from '@/domain/keys';
import type { RetryPolicy } from '@/domain/sending/retry';
import { parseWebhookUrl, type WebhookUrlPolicy } from '@/domain/sending/webhook-url';
import { publicBaseUrl } from '@/domain/platform/public-url';
import { alertConditions, type AlertCondition, type AlertRoute, type EmailProvider, type Provider } from '@/domain/vocabulary';
import { AppError, parseInput } from '@/server/platform/errors';
import { webhookUrlPolicy } from '@/server/notifications/notification-settings';
import { assertActorMay, recheckActor, refuseStaleSettings } from '@/server/platform/versions';
import type { SenderIdentityConfig } from '@/domain/organisations/sender-identity';
import { senderFor } from '@/server/organisations/sender-identity';


/** How long the worker's job for a message the web process sends itself waits before it may take it, ms. */
const WEB_SEND_HEAD_START_MS = 30_000;


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

/** The recipient id of a Slack webhook URL in message keys: `slack-` + 16 hex of its SHA-256 (the URL is a credential). */
export function slackRecipientId(url: string): string {
  return `slack-${createHash('sha256').update(url).digest('hex').slice(0, 16)}`;
}

// =============================================================================================== evaluation

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

interface EvaluateResult {
  /** Tenants evaluated. */
  tenants: number;
  /** Messages planned by this evaluation (each with its `send_alert` job). */
  planned: PlannedAlert[];
}

interface Route {
  route: AlertRoute;
  recipient: string;
  address: string;
}

/** The routes of a start: the chosen staff's emails (unless `emailSkipped`), then the Slack URL. */
function routesFor(settings: AlertSettings, staff: { id: string; email: string }[], emailSkipped: boolean): Route[] {
  const routes: Route[] = emailSkipped ? [] : staff.map((s) => ({ route: 'email' as const, recipient: s.id, address: s.email }));
  if (settings.slackWebhookUrl) routes.push({ route: 'slack', recipient: slackRecipientId(settings.slackWebhookUrl), address: settings.slackWebhookUrl });
  return routes;
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
 * Plans one message and its `send_alert` job in `tx`; null when its key was planned before. `jobAt`: when the job
 * may run (default now) — a web process that sends the message itself gives the worker's job a head start of a
 * few seconds, so the job is the safety net rather than a race for the claim.
 */
async function planMessage(tx: Tx, m: Parameters<typeof insertAlertMessage>[1], jobAt?: Date): Promise<string | null> {
  const id = await insertAlertMessage(tx, m);
  if (id) await enqueueJob(tx, TASK.sendAlert, { id }, { jobKey: `send_alert:${id}`, jobKeyMode: 'replace', runAt: jobAt ?? null });
  return id;
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

// =============================================================================================== sending

/** What sends alert messages in this process. */
export interface AlertSenders {
  /** Email channels by provider; the tenant's `email_provider` picks one (as for its reminders). */
  email: Partial<Record<EmailProvider, EmailChannel>>;
  /** The Slack-compatible webhook poster, or null. */
  slack: SlackPoster | null;
  /** Retry policy (default domain/alerts/alerts.ts alertRetryPolicy). */
  policy?: RetryPolicy;
  /** Jitter draw in [0, 1) (default Math.random). */
  random?: () => number;
  /** The operator's sender settings (server/organisations/sender-identity.ts; default: this process's environment). */
  senderIdentity?: SenderIdentityConfig;
  /** Lease while `sending`, ms (default 60 000). */
  leaseMs?: number;
  /** Per-send timeout, ms (default 20 000). */
  timeoutMs?: number;
}

type SendAlertResult =
  | { id: string; status: 'sent' }
  | { id: string; status: 'retrying'; reason: string; nextAttemptAt: Date }
  | { id: string; status: 'failed'; reason: string }
  /** Nothing done: not claimable now (sent, another sender has it, a retry not yet due), or no sender here. */
  | { id: string; status: 'skipped'; reason: string };

/**
 * Sends one alert message (module doc): claim, send, record.
 * @param opts.missingChannel what to do when this process has no sender for the message's route or the tenant's
 *   email provider: `skip` (default; the web process — the worker will send it) or `fail` (the worker: nobody else will).
 * @throws only for infrastructure errors (the row is then `sending` under a lease, taken again after it).
 */
export async function sendAlertMessage(db: Db, id: string, senders: AlertSenders, now: Date, opts: { missingChannel?: 'skip' | 'fail' } = {}): Promise<SendAlertResult> {
  const m = await getAlertMessage(db, id);
  if (!m) return { id, status: 'skipped', reason: 'no such alert message' };
  const tenant = await getTenant(db, m.tenantId);
  if (!tenant) return { id, status: 'skipped', reason: 'tenant not found' };
  const email = m.route === 'email' ? senders.email[tenant.emailProvider] : undefined;
  const missing = m.route === 'email' ? (email ? null : `no ${tenant.emailProvider} email channel is configured in this process`) : senders.slack ? null : 'no Slack poster in this process';
  if (missing && opts.missingChannel !== 'fail') return { id, status: 'skipped', reason: missing };
  const leaseMs = senders.leaseMs ?? 60_000;
  const claimed = await claimAlertMessage(db, id, now, new Date(now.getTime() + leaseMs));
  if (!claimed) return { id, status: 'skipped', reason: `not claimable now (${m.status})` };
  let outcome: Outcome;
  if (missing) {
    outcome = { class: 'rejected', kind: 'permission', code: 'NO_CHANNEL', message: missing };
  } else {
    const signal = AbortSignal.timeout(senders.timeoutMs ?? 20_000);
    try {
      outcome = m.route === 'email' ? await sendEmail(email!, tenant, claimed, signal, senders.senderIdentity) : await senders.slack!.post(claimed.address, claimed.body, { now, tenantId: tenant.id, signal });
    } catch (e) {
      // An adapter that throws broke its contract; we cannot know whether anything went out: retry.
      outcome = { class: 'ambiguous', code: 'ADAPTER_ERROR', message: e instanceof Error ? e.message : String(e) };
    }
  }
  const decision = decideAlertSend({
    outcome: { class: outcome.class, ...(outcome.class === 'accepted' ? {} : { code: outcome.code, message: outcome.message }), ...(outcome.class === 'rate_limited' ? { retryAfterMs: outcome.retryAfterMs } : {}) },
    attempts: claimed.attempts,
    policy: senders.policy ?? alertRetryPolicy,
    now,
    random: (senders.random ?? Math.random)(),
    zone: tenant.timeZone,
  });
  return db.transaction(async (tx): Promise<SendAlertResult> => {
    const r =
      decision.status === 'sent'
        ? ({ status: 'sent', sentAt: now } as const)
        : decision.status === 'retrying'
          ? ({ status: 'retrying', nextAttemptAt: decision.nextAttemptAt, lastError: decision.reason } as const)
          : ({ status: 'failed', lastError: decision.reason } as const);
    const recorded = await finishAlertMessage(tx, id, claimed.attempts, r);
    if (!recorded) return { id, status: 'skipped', reason: 'the lease ran out and another sender took the message' };
    if (decision.status === 'retrying') {
      await enqueueJob(tx, TASK.sendAlert, { id }, { runAt: decision.nextAttemptAt, jobKey: `send_alert:${id}`, jobKeyMode: 'replace' });
      return { id, status: 'retrying', reason: decision.reason, nextAttemptAt: decision.nextAttemptAt };
    }
    return decision.status === 'sent' ? { id, status: 'sent' } : { id, status: 'failed', reason: decision.reason };
  });
}

/**
 * One alert email through the tenant's channel, from its sender address once proven (else the deployment's,
 * server/organisations/sender-identity.ts), with a Message-ID made from the message key.
 */
function sendEmail(channel: EmailChannel, tenant: Tenant, m: AlertMessage, signal: AbortSignal, senderIdentity?: SenderIdentityConfig): Promise<Outcome> {
  const sender = senderFor(tenant, senderIdentity, { displayName: `${tenant.name} (Punctual alerts)` });
  return channel.send(
    {
      tenantId: tenant.id,
      from: sender.from,
      ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
      to: { name: '', address: m.address },
      subject: m.subject,
      text: m.body,
      html: alertEmailHtml(m.body, m.link),
      messageId: messageIdFor(m.messageKey),
      headers: { 'X-Punctual-Alert': `${m.condition} ${m.transition}` },
    },
    { idempotencyKey: m.messageKey, signal },
  );
}

/** Sends every message a sender may take now (optionally of one condition), one after another. */
async function sendDueAlertMessages(db: Db, senders: AlertSenders, now: Date, opts: { condition?: AlertCondition } = {}): Promise<SendAlertResult[]> {
  const out: SendAlertResult[] = [];
  for (const id of await dueAlertMessageIds(db, now, opts)) out.push(await sendAlertMessage(db, id, senders, now));
  return out;
}

/**
 * Alert senders from the environment (the web process): SMTP_URL, HTTP_EMAIL_API_URL + HTTP_EMAIL_API_KEY, and a
 * Slack poster (the webhook URL policy, server/notifications/notification-settings.ts webhookUrlPolicy: http:// only with
 * PUNCTUAL_WEBHOOK_ALLOW_HTTP=true, a non-public host only when PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS names its origin). A provider whose
 * variables are unset has no channel here: its messages are left to the worker.
 */
function alertSendersFromEnv(env: Record<string, string | undefined> = process.env): AlertSenders {
  const email: Partial<Record<EmailProvider, EmailChannel>> = {};
  if (env.SMTP_URL) email.smtp = createSmtpChannel({ url: env.SMTP_URL });
  if (env.HTTP_EMAIL_API_URL && env.HTTP_EMAIL_API_KEY) email.http_api = createHttpEmailChannel({ baseUrl: env.HTTP_EMAIL_API_URL, apiKey: env.HTTP_EMAIL_API_KEY });
  return { email, slack: createSlackPoster(webhookUrlPolicy(env)) };
}

const globalForSenders = globalThis as unknown as { __punctualAlertSenders?: AlertSenders };
/** The web process's senders (made once from the environment). */
export function webAlertSenders(): AlertSenders {
  globalForSenders.__punctualAlertSenders ??= alertSendersFromEnv();
  return globalForSenders.__punctualAlertSenders;
}

/**
 * The web process's watchdog tick (server/alerts/watchdog.ts): evaluates ONLY the worker heartbeat for every tenant and
 * sends heartbeat messages directly — the queue's worker is what may have stopped. The worker sends them too
 * when it runs; the claim makes each go out once.
 */
export async function runHeartbeatWatchdog(db: Db, senders: AlertSenders, now: Date, publicUrl?: string): Promise<{ planned: number; results: SendAlertResult[] }> {
  const r = await evaluateAlerts(db, now, { conditions: ['worker_heartbeat'], publicUrl, jobDelayMs: WEB_SEND_HEAD_START_MS });
  const results = await sendDueAlertMessages(db, senders, now, { condition: 'worker_heartbeat' });
  return { planned: r.planned.length, results };
}

// =============================================================================================== settings

/** The settings as the API and the page show them. */
export interface AlertSettingsView {
  tenantId: string;
  /** Staff user ids that get alert emails. */
  emailRecipients: string[];
  /** The Slack-compatible webhook URL: admins only (it is a credential); null otherwise or when unset. */
  slackWebhookUrl: string | null;
  /** Scheme and host of the webhook URL (for everyone), or null when unset. */
  slackWebhookMasked: string | null;
  /** Dispatch lag p95 threshold, ms. */
  lagP95Ms: number;
  /** Oldest due reminder threshold, s. */
  oldestDueSeconds: number;
  /** Row version; 0 = never saved (no alerts are evaluated until the first save). */
  version: number;
  updatedBy: string | null;
  /** ISO-8601 UTC, or null when never saved. */
  updatedAt: string | null;
}

/** Defaults of a tenant that never saved (the table's column defaults). */
const defaults = { emailRecipients: [] as string[], slackWebhookUrl: null as string | null, lagP95Ms: 60_000, oldestDueSeconds: 600 };

function view(tenantId: string, row: AlertSettings | undefined, withUrl: boolean): AlertSettingsView {
  const r = row ?? { ...defaults, version: 0, updatedBy: null, updatedAt: null };
  return {
    tenantId,
    emailRecipients: [...r.emailRecipients],
    slackWebhookUrl: withUrl ? r.slackWebhookUrl : null,
    slackWebhookMasked: maskWebhookUrl(r.slackWebhookUrl),
    lagP95Ms: r.lagP95Ms,
    oldestDueSeconds: r.oldestDueSeconds,
    version: r.version,
    updatedBy: r.updatedBy,
    updatedAt: r.updatedAt ? r.updatedAt.toISOString() : null,
  };
}

/** The tenant's alert settings; `withUrl` (admins) includes the webhook URL itself. */
export async function readAlertSettings(db: DbOrTx, tenantId: string, opts: { withUrl: boolean }): Promise<AlertSettingsView> {
  return view(tenantId, await readAlertSettingsRow(db, tenantId), opts.withUrl);
}


const versionSchema = z.object({
  version: z
    .number({ error: (i) => (i.input === undefined ? 'required: send the version of the settings you opened (0 when none were saved yet)' : 'must be a whole number') })
    .int('must be a whole number')
    .min(0, 'must be 0 or more'),
});

function settingsSchema(urlPolicy: WebhookUrlPolicy) {
  return z.object({
    emailRecipients: z
      .array(z.string({ error: 'each recipient must be a staff user id' }).min(1, 'each recipient must be a staff user id').max(200), { error: 'must be a list of staff user ids' })
      .max(50, 'at most 50 recipients')
      .transform((ids) => [...new Set(ids)]),
    slackWebhookUrl: z
      .string({ error: 'must be text: an https URL such as https://hooks.slack.com/services/…' })
      .nullish()
      .transform((v, ctx) => {
        if (!v || v.trim() === '') return null;
        const r = parseWebhookUrl(v, urlPolicy);
        if (r.ok) return r.url;
        ctx.addIssue({ code: 'custom', message: r.message.replace(/^endpoint/, 'the webhook URL') });
        return z.NEVER;
      }),
    lagP95Ms: z
      .number({ error: 'must be a number of milliseconds' })
      .int('must be a whole number of milliseconds')
      .min(1000, 'must be at least 1 second (1000 ms)')
      .max(86_400_000, 'must be at most 24 hours'),
    oldestDueSeconds: z
      .number({ error: 'must be a number of seconds' })
      .int('must be a whole number of seconds')
      .min(60, 'must be at least 1 minute (60 s)')
      .max(7 * 86_400, 'must be at most 7 days'),
  });
}

/** Input of a save: the whole form plus the version it was opened at. */
export interface SaveAlertSettingsInput {
  emailRecipients?: unknown;
  slackWebhookUrl?: unknown;
  lagP95Ms?: unknown;
  oldestDueSeconds?: unknown;
  version?: unknown;
}

/** Who saves (app/_http/session.ts actionContext). */
interface AlertSettingsContext {
  tenantId: string;
  actor: string;
  actorId?: string;
  now: Date;
}

function refuseStale(tx: Tx, ctx: AlertSettingsContext, row: AlertSettings | undefined, seen: number): Promise<never> {
  return refuseStaleSettings(tx, ctx, row, seen, { noun: 'alert settings', what: 'The alert setup', current: (r) => view(ctx.tenantId, r, true) });
}

/**
 * Saves the alert settings (admins): recipients (staff user ids of this tenant), the Slack-compatible webhook URL
 * (https unless `opts.allowHttp`, and a public host unless `opts.allowedOrigins` names its origin; empty → none), the lag p95 threshold (ms, 1 s – 24 h) and the oldest
 * due threshold (s, 1 min – 7 days). In one transaction under the row lock: the version check (0 inserts the first
 * row; stale → 409 with `current`), the write (the row-version trigger bumps `version`) and an audit entry
 * `alert_settings_update` naming what changed (the webhook URL only masked: it is a credential). A save that
 * changes nothing writes nothing.
 * @throws AppError validation naming the field (`emailRecipients`, `slackWebhookUrl`, `lagP95Ms`,
 *   `oldestDueSeconds`, `version`) → 400; conflict → 409; forbidden → 403.
 */
export async function saveAlertSettings(
  db: Db,
  ctx: AlertSettingsContext,
  input: SaveAlertSettingsInput,
  opts: WebhookUrlPolicy = webhookUrlPolicy(),
): Promise<AlertSettingsView> {
  const seen = parseInput(versionSchema, input ?? {}).version;
  const { version: _v, ...fields } = (input ?? {}) as SaveAlertSettingsInput;
  const f = parseInput(settingsSchema(opts), fields);
  return db.transaction(async (tx) => {
    if (ctx.actorId) await assertActorMay(tx, { tenantId: ctx.tenantId, actorId: ctx.actorId }, 'configure');
    await setActor(tx, ctx.actor);
    const known = await staffByIds(tx, ctx.tenantId, f.emailRecipients);
    const unknown = f.emailRecipients.filter((id) => !known.some((s) => s.id === id));
    if (unknown.length > 0) throw new AppError('validation', `emailRecipients: ${unknown.map((u) => u.slice(0, 40)).join(', ')} ${unknown.length === 1 ? 'is not a staff member' : 'are not staff members'} of this organisation`, 'emailRecipients');
    const before = await lockAlertSettingsRow(tx, ctx.tenantId);
    if ((before?.version ?? 0) !== seen) await refuseStale(tx, ctx, before, seen);
    // Recipients in a stable order (by name, as the page lists them), so re-saving the same set is no change.
    const next: AlertSettingsWrite = { emailRecipients: known.map((s) => s.id), slackWebhookUrl: f.slackWebhookUrl, lagP95Ms: f.lagP95Ms, oldestDueSeconds: f.oldestDueSeconds };
    const old = before ?? { ...defaults };
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));
    if (!sameSet(old.emailRecipients, next.emailRecipients)) {
      const all = await staffByIds(tx, ctx.tenantId, [...old.emailRecipients, ...next.emailRecipients]);
      const emails = (ids: string[]) => ids.map((id) => all.find((s) => s.id === id)?.email ?? id);
      changes.emailRecipients = { from: emails(old.emailRecipients), to: emails(next.emailRecipients) };
    }
    if ((old.slackWebhookUrl ?? null) !== next.slackWebhookUrl) changes.slackWebhookUrl = { from: maskWebhookUrl(old.slackWebhookUrl), to: maskWebhookUrl(next.slackWebhookUrl) };
    if (old.lagP95Ms !== next.lagP95Ms) changes.lagP95Ms = { from: old.lagP95Ms, to: next.lagP95Ms };
    if (old.oldestDueSeconds !== next.oldestDueSeconds) changes.oldestDueSeconds = { from: old.oldestDueSeconds, to: next.oldestDueSeconds };
    if (before && Object.keys(changes).length === 0) return view(ctx.tenantId, before, true);
    let row: AlertSettings | undefined;
    if (!before) {
      row = await insertAlertSettingsRow(tx, ctx.tenantId, next, ctx.actor, ctx.now);
      if (!row) await refuseStale(tx, ctx, await lockAlertSettingsRow(tx, ctx.tenantId), seen);
    } else {
      row = await updateAlertSettingsRow(tx, ctx.tenantId, next, ctx.now);
    }
    await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'alert_settings_update', at: ctx.now, details: { changes } });
    return view(ctx.tenantId, row, true);
  });
}

/** One test message's result, as the page shows it. */
export interface TestAlertResult {
  route: AlertRoute;
  /** Email address, or the masked webhook URL. */
  to: string;
  status: SendAlertResult['status'];
  reason: string | null;
}

/**
 * "Send test alert" (admins): plans a `test` message on each saved route (each chosen staff member's email, the
 * Slack URL) — key `alert:<tenant>:test:<request ms>:test:<route>:<recipient>`, stored with condition
 * `dead_letters` and episode 0 (the table needs a condition; the page reads `transition` `test`) — with a
 * `send_alert` job each, then sends them at once from this process (the claim makes the job a no-op after).
 * @throws AppError validation (`emailRecipients`) when no route is saved; forbidden.
 */
export async function sendTestAlert(db: Db, ctx: AlertSettingsContext, senders: AlertSenders, opts: { publicUrl?: string } = {}): Promise<{ results: TestAlertResult[] }> {
  const link = absoluteLink(opts.publicUrl ?? alertPublicUrl(), '/alerts');
  const ids = await db.transaction(async (tx) => {
    if (ctx.actorId) await assertActorMay(tx, { tenantId: ctx.tenantId, actorId: ctx.actorId }, 'configure');
    const settings = await readAlertSettingsRow(tx, ctx.tenantId);
    const tenant = await getTenant(tx, ctx.tenantId);
    const routes = settings && tenant ? routesFor(settings, await staffByIds(tx, ctx.tenantId, settings.emailRecipients), false) : [];
    if (!settings || !tenant || routes.length === 0) {
      throw new AppError('validation', 'emailRecipients: choose at least one recipient or set a webhook URL, and save, before sending a test', 'emailRecipients');
    }
    const texts = testAlertTexts(tenant.name, link, ctx.actor);
    const out: { id: string; route: AlertRoute; to: string }[] = [];
    for (const r of routes) {
      const messageKey = alertMessageKey({ tenantId: ctx.tenantId, condition: 'test', episode: ctx.now.getTime(), transition: 'test', route: r.route, recipient: r.recipient });
      const id = await planMessage(tx, {
        tenantId: ctx.tenantId,
        condition: 'dead_letters',
        episode: 0,
        transition: 'test',
        route: r.route,
        address: r.address,
        messageKey,
        subject: texts.subject,
        body: r.route === 'slack' ? texts.slack : texts.text,
        link,
        createdAt: ctx.now,
      }, new Date(ctx.now.getTime() + WEB_SEND_HEAD_START_MS));
      if (id) out.push({ id, route: r.route, to: r.route === 'slack' ? (maskWebhookUrl(r.address) ?? '') : r.address });
    }
    return out;
  });
  const results: TestAlertResult[] = [];
  for (const m of ids) {
    const r = await sendAlertMessage(db, m.id, senders, ctx.now);
    if (r.status !== 'skipped') {
      results.push({ route: m.route, to: m.to, status: r.status, reason: r.status === 'sent' ? null : r.reason });
      continue;
    }
    // Not sent from here (no channel for it in this process): the worker's job sends it; say where it stands.
    const row = await getAlertMessage(db, m.id);
    results.push({ route: m.route, to: m.to, status: row?.status === 'sent' || row?.status === 'failed' || row?.status === 'retrying' ? row.status : 'skipped', reason: row?.lastError ?? r.reason });
  }
  return { results };
}

/**
 * "Check now" (admins; POST /api/alert-settings/check): evaluates this tenant's conditions at once and sends what
 * it planned from this process (else the `send_alert` jobs do).
 */
export async function checkAlertsNow(db: Db, ctx: AlertSettingsContext, senders: AlertSenders, opts: { publicUrl?: string } = {}): Promise<{ planned: number; results: SendAlertResult[] }> {
  if (!(await readAlertSettingsRow(db, ctx.tenantId))) throw new AppError('invalid_state', 'Save the alert settings first: conditions are evaluated only for organisations that have them.');
  // Still an admin? Re-read under a lock in the transaction that writes the evaluation (issue #12): a demotion
  // meanwhile refuses it (403) and nothing is planned or sent.
  const r = await db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'configure');
    return evaluateAlerts(tx, ctx.now, { tenantId: ctx.tenantId, publicUrl: opts.publicUrl, jobDelayMs: WEB_SEND_HEAD_START_MS });
  });
  const results: SendAlertResult[] = [];
  for (const p of r.planned) results.push(await sendAlertMessage(db, p.id, senders, ctx.now));
  return { planned: r.planned.length, results };
}

// =============================================================================================== pages

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
  const states = (await listAlertStates(db, tenantId)).filter((s) => s.active);
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
