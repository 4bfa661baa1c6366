/**
 * The alert settings of a tenant (issue #10 §6; admins): reading and saving them (versioned, invariant 11, with an
 * audit entry), "Send test alert" and "Check now". Evaluation is server/alerts/evaluation.ts, sending
 * server/alerts/sender.ts.
 */
import { z } from 'zod';
import type { Db, DbOrTx, Tx } from '@/db/client';
import { setActor } from '@/db/queries/platform/actor';
import {
  getAlertMessage,
  insertAlertSettingsRow,
  lockAlertSettingsRow,
  readAlertSettingsRow,
  staffByIds,
  updateAlertSettingsRow,
  type AlertSettingsWrite,
} from '@/db/queries/alerts/alerts';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { getTenant } from '@/db/queries/scheduling/scheduling';
import type { AlertSettings } from '@/db/schema';
import { absoluteLink, alertMessageKey, maskWebhookUrl, testAlertTexts } from '@/domain/alerts/messages';
import { parseWebhookUrl, type WebhookUrlPolicy } from '@/domain/sending/webhook-url';
import type { AlertRoute } from '@/domain/vocabulary';
import { AppError, parseInput } from '@/server/platform/errors';
import { webhookUrlPolicy } from '@/server/notifications/notification-settings';
import { assertActorMay, recheckActor, refuseStaleSettings } from '@/server/platform/versions';
import { alertPublicUrl, evaluateAlerts } from './evaluation';
import { planMessage, routesFor, WEB_SEND_HEAD_START_MS } from './outbox';
import { sendAlertMessage, type AlertSenders, type SendAlertResult } from './sender';

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
