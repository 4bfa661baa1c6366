/**
 * The organisation settings page (issue #13): the organisation's name, default time zone, sender name and address,
 * reply-to, default locale and email provider — read by every role, saved by admins only (domain/accounts/permissions.ts
 * `configure`) — and "send a test message".
 *
 * A save is one transaction: the actor re-checked under lock (server/platform/versions.ts recheckActor), the tenant row
 * locked, the version the admin opened compared (a stale save is a 409 with `current` that writes nothing,
 * invariant 11), the update, and an audit entry `settings_update` with `{ from, to }` holding the changed fields only.
 *
 * The web app never sends mail itself: the provider credentials live in the worker's environment (SMTP_URL;
 * HTTP_EMAIL_API_URL + HTTP_EMAIL_API_KEY). A test message is a row in `org_test_messages` plus a job
 * ({@link TASK.sendTestMessage}) in the same transaction; a worker sends it through the tenant's provider and
 * records the provider's answer verbatim, which the page polls for.
 */
import { TASK } from '@/jobs/registry';
import type { EmailChannel } from '@/channels/types';
import type { Db, DbOrTx } from '@/db/client';
import { setActor } from '@/db/queries/platform/actor';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { finishTestMessage, getTestMessage, getTestMessageById, insertTestMessage, lastTestMessageAt, lockTenant, lockTestMessages, recentTestMessages, updateTenantSettings } from '@/db/queries/organisations/org-settings';
import { getTenant } from '@/db/queries/scheduling/scheduling';
import type { OrgTestMessage, Tenant } from '@/db/schema';
import { messageIdFor } from '@/domain/keys';
import {
  changedSettings,
  checkOrgSettings,
  isEmailAddress,
  senderNameOf,
  testMessageResult,
  testMessageTooSoon,
  testMessageWaitMs,
  type OrgSettings,
  type TestMessageStatus,
} from '@/domain/organisations/org-settings';
import type { Outcome } from '@/domain/sending/outcome';
import type { EmailProvider } from '@/domain/vocabulary';
import { staffAddresses } from '@/db/queries/organisations/sender-identity';
import { normaliseAddress, type SenderIdentityConfig } from '@/domain/organisations/sender-identity';
import { AppError, assertId } from '@/server/platform/errors';
import { claimSenderAddress, senderFor, senderStatus, type SenderStatusView } from './sender-identity';
import { assertVersion, assertVersionIssued, parseVersion, recheckActor } from '@/server/platform/versions';

/** The settings as the page shows and edits them. */
export interface OrgSettingsView extends OrgSettings {
  slug: string;
  /** What the From line shows: the sender name, or the organisation's name when none is set. */
  effectiveSenderName: string;
  /** Row version to send with the next save (invariant 11). */
  version: number;
  updatedBy: string | null;
  /** ISO instant (UTC) of the last change. */
  updatedAt: string;
  /**
   * Which address mail goes out from now and why (server/organisations/sender-identity.ts senderStatus); absent in the `current`
   * of a 409 (the page reloads).
   */
  sender?: SenderStatusView;
  /** Addresses a test message may go to: the organisation's enabled staff accounts (absent in a 409's `current`). */
  staffAddresses?: string[];
  /** True when this save mailed a verification link to the new sender address. */
  verificationSent?: boolean;
}

function settingsView(t: Tenant): OrgSettingsView {
  return {
    slug: t.slug,
    name: t.name,
    timeZone: t.timeZone,
    senderName: t.senderName,
    senderEmail: t.senderEmail,
    replyTo: t.replyTo,
    locale: t.locale,
    emailProvider: t.emailProvider,
    smsSegmentLimit: t.smsSegmentLimit,
    unconfirmedAlertThreshold: t.unconfirmedAlertThreshold,
    effectiveSenderName: senderNameOf(t),
    version: t.version,
    updatedBy: t.updatedBy,
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** The view with what only the database knows: the sender's status and the staff addresses. */
async function fullView(db: DbOrTx, t: Tenant, cfg?: SenderIdentityConfig): Promise<OrgSettingsView> {
  return { ...settingsView(t), sender: await senderStatus(db, t, cfg), staffAddresses: (await staffAddresses(db, t.id)).map((s) => s.email) };
}

/** The tenant's settings. @throws AppError not_found when the tenant does not exist. */
export async function readOrgSettings(db: DbOrTx, tenantId: string, cfg?: SenderIdentityConfig): Promise<OrgSettingsView> {
  const t = await getTenant(db, tenantId);
  if (!t) throw new AppError('not_found', 'this organisation no longer exists');
  return fullView(db, t, cfg);
}

/**
 * An admin saves the settings: `{ name, timeZone, senderName, senderEmail, replyTo, locale, emailProvider, smsSegmentLimit?, version }`
 * (domain/organisations/org-settings.ts checkOrgSettings). An unchanged form writes nothing and is not audited.
 * @returns the settings as stored now.
 * @throws AppError validation naming the field, forbidden (no longer an admin, checked under lock), conflict (stale
 *   version, with `current`; nothing written).
 */
export async function saveOrgSettings(
  db: Db,
  ctx: { tenantId: string; actor: string; actorId?: string; now: Date; publicUrl?: string },
  input: unknown,
  cfg?: SenderIdentityConfig,
): Promise<OrgSettingsView> {
  const seen = parseVersion(input);
  const check = checkOrgSettings(input);
  if (!check.ok) throw new AppError('validation', check.message, check.field);
  return db.transaction(async (tx) => {
    await setActor(tx, ctx.actor);
    await recheckActor(tx, ctx, 'configure');
    const t = await lockTenant(tx, ctx.tenantId);
    if (!t) throw new AppError('not_found', 'this organisation no longer exists');
    assertVersionIssued(t, seen);
    await assertVersion(tx, ctx, t, seen, { what: 'The organisation settings', zone: t.timeZone, current: settingsView(t) });
    const before = settingsView(t);
    // A body without `smsSegmentLimit` (an older client) keeps the limit as it is.
    // … and one without `unconfirmedAlertThreshold` keeps the threshold (null in the body switches the alert off).
    const next: OrgSettings = {
      ...check.value,
      smsSegmentLimit: check.value.smsSegmentLimit ?? t.smsSegmentLimit,
      unconfirmedAlertThreshold: check.value.unconfirmedAlertThreshold === undefined ? t.unconfirmedAlertThreshold : check.value.unconfirmedAlertThreshold,
    };
    const changes = changedSettings(before, next);
    if (Object.keys(changes).length === 0) return fullView(tx, t, cfg);
    // A new sender address: refused when another organisation holds it proven (409 naming senderEmail, under the
    // address's lock); otherwise saved, unproven until verified — a link is mailed to it (server/organisations/sender-identity.ts).
    const { linkSent, clearProof } = await claimSenderAddress(tx, t, next.senderEmail, ctx, cfg);
    const saved = await updateTenantSettings(tx, ctx.tenantId, next, ctx.now, { clearSenderProof: clearProof });
    // Before and after of the changed fields only, in the `{ from, to }` shape the audit page shows as "field: a → b".
    const from = Object.fromEntries(Object.entries(changes).map(([k, c]) => [k, c.from]));
    const to = Object.fromEntries(Object.entries(changes).map(([k, c]) => [k, c.to]));
    await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'settings_update', at: ctx.now, details: { from, to, ...(linkSent ? { verificationSentTo: normaliseAddress(next.senderEmail) } : {}) } });
    return { ...(await fullView(tx, saved, cfg)), verificationSent: linkSent };
  });
}

// ===================================================================================== test messages

/** A test message's own content (the text editor's draft, rendered): subject, HTML document and text part. */
export interface TestMessageContent {
  subject: string;
  html: string;
  text: string;
}

/** A test message as the page shows it. */
export interface TestMessageView {
  id: string;
  to: string;
  requestedBy: string;
  provider: EmailProvider;
  status: TestMessageStatus;
  /** The provider's answer verbatim, or null while no worker has sent it. */
  providerAnswer: string | null;
  /** ISO instants (UTC). */
  createdAt: string;
  finishedAt: string | null;
}

const testView = (m: OrgTestMessage): TestMessageView => ({
  id: m.id,
  to: m.to,
  requestedBy: m.requestedBy,
  provider: m.provider,
  status: m.status,
  providerAnswer: m.providerAnswer,
  createdAt: m.createdAt.toISOString(),
  finishedAt: m.finishedAt ? m.finishedAt.toISOString() : null,
});

/**
 * An admin asks for a test message: `{ to? }` (default: the admin's own address, `ctx.actor`), which must be the address
 * of one of the organisation's enabled staff accounts (any case). One transaction: the
 * actor re-checked, the tenant's test messages serialised (advisory lock), at most one per 10 s
 * (domain/organisations/org-settings.ts TEST_MESSAGE_INTERVAL_MS, by `ctx.now` — the database clock), the row, its job and the
 * audit entry `settings_test_message`. `opts.content`: the message to send instead of the settings page's "Test message
 * from …" (the text editor's "send a test to me", server/messages/text-preview.ts), carried in the job's payload;
 * `opts.about`: the text it is a draft of (`{ kind, locale }`), recorded in the audit entry as `messageText`.
 * @returns the pending test message.
 * @throws AppError validation (field `to`), rate_limited (429, field `to`, with `retryAfterMs`), forbidden.
 */
export async function requestTestMessage(
  db: Db,
  ctx: { tenantId: string; actor: string; actorId?: string; now: Date },
  input: unknown,
  opts: { content?: TestMessageContent; about?: { kind: string; locale: string } } = {},
): Promise<TestMessageView> {
  const raw = (input && typeof input === 'object' ? (input as { to?: unknown }).to : undefined) ?? '';
  if (typeof raw !== 'string') throw new AppError('validation', 'to: must be an email address', 'to');
  const typed = raw.trim() || ctx.actor;
  if (!isEmailAddress(typed)) throw new AppError('validation', `to: “${typed.slice(0, 80)}” is not an email address`, 'to');
  return db.transaction(async (tx) => {
    await setActor(tx, ctx.actor);
    await recheckActor(tx, ctx, 'configure');
    const t = await getTenant(tx, ctx.tenantId);
    if (!t) throw new AppError('not_found', 'this organisation no longer exists');
    // Only to the organisation's own staff (enabled accounts), compared case-insensitively: a test message is not a
    // way to mail anyone at all in the organisation's name.
    const own = (await staffAddresses(tx, ctx.tenantId)).find((s) => normaliseAddress(s.email) === normaliseAddress(typed));
    if (!own) throw new AppError('validation', `to: a test message goes only to a staff member of your organisation; ${typed.slice(0, 80)} is not one`, 'to');
    const to = own.email;
    await lockTestMessages(tx, ctx.tenantId);
    const wait = testMessageWaitMs(await lastTestMessageAt(tx, ctx.tenantId), ctx.now);
    if (wait > 0) throw new AppError('rate_limited', testMessageTooSoon(wait), 'to', { retryAfterMs: wait });
    const m = await insertTestMessage(tx, { tenantId: ctx.tenantId, to, requestedBy: ctx.actor, provider: t.emailProvider, at: ctx.now });
    // One attempt: a test message is not retried behind the admin's back; the page reports what happened.
    await enqueueJob(tx, TASK.sendTestMessage, { id: m.id, ...(opts.content ? { content: opts.content } : {}) }, { jobKey: `test_message:${m.id}`, maxAttempts: 1 });
    await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'settings_test_message', at: ctx.now, details: { address: to, provider: t.emailProvider, testMessageId: m.id, ...(opts.about ? { messageText: opts.about } : {}) } });
    return testView(m);
  });
}

/** One test message of the tenant (the page polls it). @throws AppError not_found. */
export async function readTestMessage(db: DbOrTx, tenantId: string, id: string): Promise<TestMessageView> {
  assertId(id, 'id', 'test message');
  const m = await getTestMessage(db, tenantId, id);
  if (!m) throw new AppError('not_found', `test message ${id} not found`, 'id');
  return testView(m);
}

/** The tenant's latest test messages, newest first. */
export async function readRecentTestMessages(db: DbOrTx, tenantId: string): Promise<TestMessageView[]> {
  return (await recentTestMessages(db, tenantId)).map(testView);
}

/**
 * The worker sends test message `id` through the tenant's CURRENT email provider (`channels`: this worker's email
 * channels by provider) from its sender name and address, with its Reply-To, and records the outcome: `sent` with
 * the provider's answer (`250 2.0.0 Ok: queued as …`), `failed` with its refusal, `unknown` when it cannot be known
 * (domain/organisations/org-settings.ts testMessageResult; the outcome classified by the channel with domain/sending/smtp-outcome.ts or
 * domain/sending/http-outcome.ts). A provider this worker has no credentials for is `failed`, saying so. A message that is
 * no longer pending (a redelivered job) is left alone. `opts.content`: the subject, HTML and text to send (a text
 * editor's draft, {@link requestTestMessage}); without it, the settings page's "Test message from …".
 * @param now the database clock's instant (invariant 10).
 * @returns the message as recorded, or null when there was nothing to do.
 */
export async function sendTestMessage(
  db: Db,
  id: string,
  channels: Partial<Record<EmailProvider, EmailChannel>>,
  now: () => Date,
  opts: { timeoutMs?: number; senderIdentity?: SenderIdentityConfig; content?: TestMessageContent } = {},
): Promise<TestMessageView | null> {
  const m = await getTestMessageById(db, id);
  if (!m || m.status !== 'pending') return null;
  const t = await getTenant(db, m.tenantId);
  if (!t) return null;
  const channel = channels[t.emailProvider];
  let outcome: Outcome;
  if (!channel) {
    const env = t.emailProvider === 'smtp' ? 'SMTP_URL' : 'HTTP_EMAIL_API_URL and HTTP_EMAIL_API_KEY';
    outcome = { class: 'rejected', kind: 'permission', code: 'NO_CHANNEL', message: `this worker has no ${t.emailProvider === 'smtp' ? 'SMTP' : 'HTTP API'} provider configured: set ${env} in the worker's environment` };
  } else {
    const from = senderNameOf(t);
    // As every message of the organisation: its own address once proven (server/organisations/sender-identity.ts).
    const sender = senderFor(t, opts.senderIdentity);
    try {
      outcome = await channel.send(
        {
          tenantId: t.id,
          from: sender.from,
          to: { name: '', address: m.to },
          ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
          ...(opts.content ?? {
            subject: `Test message from ${from}`,
            text: `This is a test message from ${t.name}, asked for by ${m.requestedBy} on the Punctual settings page. It went through the ${t.emailProvider === 'smtp' ? 'SMTP' : 'HTTP API'} provider; no reply is needed.`,
            html: `<p>This is a test message from ${escapeHtml(t.name)}, asked for by ${escapeHtml(m.requestedBy)} on the Punctual settings page.</p><p>It went through the ${t.emailProvider === 'smtp' ? 'SMTP' : 'HTTP API'} provider; no reply is needed.</p>`,
          }),
          messageId: messageIdFor(`test-message:${m.id}`),
          headers: { 'X-Punctual-Test-Message': m.id },
        },
        { idempotencyKey: `test-message:${m.id}`, signal: AbortSignal.timeout(opts.timeoutMs ?? 20_000) },
      );
    } catch (e) {
      outcome = { class: 'ambiguous', code: 'ADAPTER_ERROR', message: e instanceof Error ? e.message : String(e) };
    }
  }
  const r = testMessageResult(outcome);
  const at = now();
  await finishTestMessage(db, m.id, { ...r, at });
  return testView({ ...m, status: r.status, providerAnswer: r.answer, finishedAt: at });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
