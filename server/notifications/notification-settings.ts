/**
 * A tenant's notification settings (issue #9 §2, §4, §5): the notification policy (who hears about which domain
 * event, with which template), the SMS sender, and the webhook endpoint (URL, on/off, signing secret). One
 * `notification_settings` row per tenant; admins edit it (`configure`), everyone signed in may read it.
 *
 * No lost updates (invariant 11): a save carries the row version its editor saw — 0 when no row exists yet
 * (the first save inserts it) — and is compared under the row lock; a stale save is a 409 that writes nothing
 * and hands back the current settings (server/platform/versions.ts). The worker switching the endpoint off after a 410
 * bumps the version too, so a form opened before that cannot switch it back on unknowingly.
 *
 * The signing secret (`whsec_…`, Standard Webhooks) is generated when an endpoint URL is set and there is none
 * (the first URL, or one after the endpoint was removed — removing the URL removes its secret), kept when the URL
 * changes, and replaced by {@link rotateWebhookSecret}; it is never written to the audit log.
 */
import { z } from 'zod';
import type { Db } from '@/db/client';
import { setActor } from '@/db/queries/platform/actor';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { insertSettingsRow, lockSettingsRow, readSettingsRow, updateSettingsRow } from '@/db/queries/notifications/notification-settings';
import type { NotificationSettings } from '@/db/schema';
import { newWebhookSecret } from '@/channels/webhook';
import { emptyPolicy, policySchema, readPolicy, type NotificationPolicy } from '@/domain/notifications/notification-policy';
import { policyChanges, webhookSwitch, type Change } from '@/domain/notifications/notification-settings';
import { parseSmsSender } from '@/domain/organisations/sms-sender';
import { parseAllowedOrigins, parseWebhookUrl, type WebhookUrlPolicy } from '@/domain/sending/webhook-url';
import { AppError, parseInput } from '@/server/platform/errors';
import { assertActorMay, refuseStaleSettings } from '@/server/platform/versions';

/** The settings as the API and the page show them (plain JSON). */
export interface NotificationSettingsView {
  tenantId: string;
  policy: NotificationPolicy;
  /** E.164 number or alphanumeric sender id; null = the worker's default sender. */
  smsSender: string | null;
  webhookUrl: string | null;
  webhookEnabled: boolean;
  /** Why the endpoint was switched off (a 410 from the receiver, or staff); null while on or never switched off. */
  webhookDisabledReason: string | null;
  /** When it was switched off (ISO-8601 UTC), or null. */
  webhookDisabledAt: string | null;
  hasWebhookSecret: boolean;
  /** The `whsec_…` signing secret: present only for admins (and in the answer to a save that made it or a rotation). */
  webhookSecret?: string | null;
  /** Row version; 0 = never saved (the first save sends 0). */
  version: number;
  updatedBy: string | null;
  /** ISO-8601 UTC, or null when never saved. */
  updatedAt: string | null;
}

/** Who saves, from the session (app/_http/session.ts `actionContext`). `actorId` set → their role is re-checked under a lock. */
interface SettingsContext {
  tenantId: string;
  actor: string;
  actorId?: string;
  now: Date;
}

/**
 * The webhook URL policy of this process (domain/sending/webhook-url.ts), from its environment — the same for the settings
 * forms that store a URL (web app) and the senders that call it (worker and web alerts):
 * - `allowHttp`: PUNCTUAL_WEBHOOK_ALLOW_HTTP=true accepts the `http:` scheme (the local demo, tests). It does not
 *   switch off the private-address (SSRF) check.
 * - `allowedOrigins`: PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS, the origins (scheme, host and port) accepted although their
 *   host is not public — `npm start` names its built-in receiver there (http://127.0.0.1:<port>). Unset: none.
 * @throws Error starting with PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS when it is not a list of origins (the web app checks
 *   it at start, server/platform/web-settings.ts; the worker in server/platform/config.ts).
 */
export function webhookUrlPolicy(env: Readonly<Record<string, string | undefined>> = process.env): WebhookUrlPolicy {
  const origins = parseAllowedOrigins(env.PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS);
  if (!origins.ok) throw new Error(origins.message);
  return { allowHttp: env.PUNCTUAL_WEBHOOK_ALLOW_HTTP === 'true', allowedOrigins: origins.origins };
}

function view(tenantId: string, row: NotificationSettings | undefined, withSecret: boolean): NotificationSettingsView {
  if (!row) {
    return {
      tenantId,
      policy: emptyPolicy,
      smsSender: null,
      webhookUrl: null,
      webhookEnabled: false,
      webhookDisabledReason: null,
      webhookDisabledAt: null,
      hasWebhookSecret: false,
      ...(withSecret ? { webhookSecret: null } : {}),
      version: 0,
      updatedBy: null,
      updatedAt: null,
    };
  }
  return {
    tenantId,
    policy: readPolicy(row.policy),
    smsSender: row.smsSender,
    webhookUrl: row.webhookUrl,
    webhookEnabled: row.webhookEnabled,
    webhookDisabledReason: row.webhookDisabledReason,
    webhookDisabledAt: row.webhookDisabledAt ? row.webhookDisabledAt.toISOString() : null,
    hasWebhookSecret: !!row.webhookSecret,
    ...(withSecret ? { webhookSecret: row.webhookSecret } : {}),
    version: row.version,
    updatedBy: row.updatedBy,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The tenant's settings; without a stored row, {@link emptyPolicy} (nobody notified), no sender, no endpoint,
 * version 0. `withSecret` (admins only) adds `webhookSecret`.
 */
export async function readNotificationSettings(db: Db, tenantId: string, opts: { withSecret: boolean }): Promise<NotificationSettingsView> {
  return view(tenantId, await readSettingsRow(db, tenantId), opts.withSecret);
}

const versionSchema = z.object({
  version: z
    .number({ error: (i) => (i.input === undefined ? 'required: send the version of the settings you opened (0 when none were saved yet)' : 'must be a whole number') })
    .int('must be a whole number')
    .min(0, 'must be 0 or more'),
});

function settingsSchema(urlPolicy: WebhookUrlPolicy) {
  return z.object({
    policy: policySchema,
    smsSender: z
      .string({ error: 'must be text: a phone number in international form or a sender name' })
      .max(100, 'must be at most 100 characters')
      .nullish()
      .transform((v, ctx) => {
        const r = parseSmsSender(v ?? '');
        if (r.ok) return r.sender;
        ctx.addIssue({ code: 'custom', message: r.message });
        return z.NEVER;
      }),
    webhookUrl: z
      .string({ error: 'must be text: an https URL such as https://hooks.example.com/punctual' })
      .nullish()
      .transform((v, ctx) => {
        if (!v || v.trim() === '') return null;
        const r = parseWebhookUrl(v, urlPolicy);
        if (r.ok) return r.url;
        ctx.addIssue({ code: 'custom', message: r.message });
        return z.NEVER;
      }),
    webhookEnabled: z.boolean({ error: (i) => (i.input === undefined ? 'required: true or false' : 'must be true or false') }),
  });
}

/** Input of a save: the whole settings form plus the version it was opened at. */
export interface SaveSettingsInput {
  policy: unknown;
  smsSender?: string | null;
  webhookUrl?: string | null;
  webhookEnabled: unknown;
  version?: unknown;
}

/** Throws the 409 of a stale save with `current` (the settings as stored now, secret included: only admins save). */
function refuseStale(tx: Parameters<Parameters<Db['transaction']>[0]>[0], ctx: SettingsContext, row: NotificationSettings | undefined, seen: number): Promise<never> {
  return refuseStaleSettings(tx, ctx, row, seen, { noun: 'notification settings', what: 'The notification setup', current: (r) => view(ctx.tenantId, r, true) });
}

/**
 * Saves the whole settings form (admins): the policy (policySchema), the SMS sender (E.164 via parsePhone or an
 * alphanumeric sender id of 1–11 letters and digits; empty → default), the webhook URL (parseWebhookUrl; https
 * only unless `allowHttp`; empty → none) and whether the endpoint is on. In one transaction, under the row lock:
 * the version check (0 inserts the first row), a `whsec_` secret when a URL is set and none exists yet (no URL:
 * no secret),
 * switching the endpoint on (or off by hand) clears the "switched off" reason a 410 left, and audit entries `policy_update` (policy cells and SMS sender
 * that changed) and `webhook_update` (URL, switch, secret created — never the secret itself). A save that
 * changes nothing writes nothing (no version bump that would stale other open forms).
 * @returns the settings as stored, with the secret; `secretCreated` when this save made it.
 * @throws AppError validation naming the field (`policy.<type>.<field>`, `smsSender`, `webhookUrl`,
 *   `webhookEnabled`, `version`) → 400; conflict (stale version) → 409 with `current`; forbidden → 403.
 */
export async function saveNotificationSettings(
  db: Db,
  ctx: SettingsContext,
  input: SaveSettingsInput,
  opts: WebhookUrlPolicy = webhookUrlPolicy(),
): Promise<{ settings: NotificationSettingsView; secretCreated: boolean }> {
  const seen = parseInput(versionSchema, input ?? {}).version;
  const { version: _v, ...fields } = (input ?? {}) as SaveSettingsInput;
  const f = parseInput(settingsSchema(opts), fields);
  if (f.webhookEnabled && !f.webhookUrl) throw new AppError('validation', 'webhookEnabled: set the endpoint URL before switching it on', 'webhookEnabled');
  return db.transaction(async (tx) => {
    if (ctx.actorId) await assertActorMay(tx, { tenantId: ctx.tenantId, actorId: ctx.actorId }, 'configure');
    await setActor(tx, ctx.actor);
    const before = await lockSettingsRow(tx, ctx.tenantId);
    if ((before?.version ?? 0) !== seen) await refuseStale(tx, ctx, before, seen);

    const oldPolicy = before ? readPolicy(before.policy) : emptyPolicy;
    const secretCreated = !!f.webhookUrl && !before?.webhookSecret;
    const next = {
      policy: f.policy,
      smsSender: f.smsSender,
      webhookUrl: f.webhookUrl,
      // No endpoint, no secret: a later endpoint (perhaps another receiver) gets a fresh one (spec: never reuse keys).
      webhookSecret: !f.webhookUrl ? null : secretCreated ? newWebhookSecret() : (before?.webhookSecret ?? null),
      webhookEnabled: f.webhookEnabled,
      ...(() => {
        const s = webhookSwitch(
          before ? { url: before.webhookUrl, enabled: before.webhookEnabled, disabledReason: before.webhookDisabledReason, disabledAt: before.webhookDisabledAt } : null,
          { enabled: f.webhookEnabled, url: f.webhookUrl },
        );
        return { webhookDisabledReason: s.disabledReason, webhookDisabledAt: s.disabledAt };
      })(),
    };

    const policy: Record<string, Change<unknown>> = policyChanges(oldPolicy, f.policy);
    if ((before?.smsSender ?? null) !== f.smsSender) policy.smsSender = { from: before?.smsSender ?? null, to: f.smsSender };
    const webhook: Record<string, unknown> = {};
    if ((before?.webhookUrl ?? null) !== f.webhookUrl) webhook.webhookUrl = { from: before?.webhookUrl ?? null, to: f.webhookUrl };
    if ((before?.webhookEnabled ?? false) !== f.webhookEnabled) webhook.webhookEnabled = { from: before?.webhookEnabled ?? false, to: f.webhookEnabled };
    if (secretCreated) webhook.secretCreated = true;
    if (!f.webhookUrl && before?.webhookSecret) webhook.secretRemoved = true;

    if (before && Object.keys(policy).length === 0 && Object.keys(webhook).length === 0) {
      return { settings: view(ctx.tenantId, before, true), secretCreated: false };
    }
    let row: NotificationSettings | undefined;
    if (!before) {
      row = await insertSettingsRow(tx, ctx.tenantId, next, ctx.actor, ctx.now);
      // Another first save committed between our look and our insert: theirs stands, ours is stale.
      if (!row) await refuseStale(tx, ctx, await lockSettingsRow(tx, ctx.tenantId), seen);
    } else {
      row = await updateSettingsRow(tx, ctx.tenantId, next, ctx.now);
    }
    if (Object.keys(policy).length > 0) {
      await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'policy_update', at: ctx.now, details: { changes: policy } });
    }
    if (Object.keys(webhook).length > 0) {
      await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'webhook_update', at: ctx.now, details: webhook });
    }
    return { settings: view(ctx.tenantId, row, true), secretCreated };
  });
}

/**
 * Replaces the endpoint's signing secret with a new `whsec_` one (admins), with the version the admin saw — two
 * admins rotating at once must not each copy a secret only one of which is valid. Audit `webhook_update`
 * `{ secretRotated: true }`.
 * @returns the settings with the new secret (shown once to the admin who rotated).
 * @throws AppError validation (`webhookUrl`) when no endpoint is set; conflict (stale version) → 409.
 */
export async function rotateWebhookSecret(db: Db, ctx: SettingsContext, input: { version?: unknown }): Promise<NotificationSettingsView> {
  const seen = parseInput(versionSchema, input ?? {}).version;
  return db.transaction(async (tx) => {
    if (ctx.actorId) await assertActorMay(tx, { tenantId: ctx.tenantId, actorId: ctx.actorId }, 'configure');
    await setActor(tx, ctx.actor);
    const before = await lockSettingsRow(tx, ctx.tenantId);
    if ((before?.version ?? 0) !== seen) await refuseStale(tx, ctx, before, seen);
    if (!before?.webhookUrl) throw new AppError('validation', 'webhookUrl: set and save an endpoint URL first; its secret is made then', 'webhookUrl');
    const row = await updateSettingsRow(tx, ctx.tenantId, { webhookSecret: newWebhookSecret() }, ctx.now);
    await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'webhook_update', at: ctx.now, details: { secretRotated: true, webhookUrl: row.webhookUrl } });
    return view(ctx.tenantId, row, true);
  });
}
