/**
 * An organisation's own message text (issue #22 §2, DESIGN §3 "Message text"): per message kind (template id) and
 * language, a draft that is checked before it is stored, published as numbered versions, rolled back to any
 * version, and reset to Punctual's built-in text — every version kept, who and when with it.
 *
 * Every write is one transaction: the actor re-checked under lock (admins only: permission `configure`,
 * server/platform/versions.ts recheckActor), the (tenant, kind, locale) locked (db/queries/messages/message-texts.ts
 * lockTextKey), the state the editor saw compared (invariant 11: `rowVersion` — the highest row version of the key,
 * 0 when the organisation never wrote this text; stale → 409 with `current`, nothing written), the write, and for
 * publish, roll back and reset an audit entry (`message_text_publish` / `_rollback` / `_reset`, details
 * `{ kind, locale, version }`).
 *
 * Checks (domain/messages/staff-text.ts checkStaffText): a draft that fails is a 400 whose `field` is the first
 * error's field and whose `errors` list every error with field, line, column and variable (unknown variables with
 * the kind's `known` list) — nothing stored. Publish and roll back check the text again (the variables of a kind may
 * have changed since it was written), so no text that fails the check is ever published.
 */
import { z } from 'zod';
import type { Db, DbOrTx, Tx } from '@/db/client';
import { appendAudit } from '@/db/queries/dashboards/audit';
import {
  insertDraft,
  insertVersion,
  latestVersion,
  lockTextKey,
  publishDraft,
  textRows,
  updateDraft,
  versionRow,
  type TextBody,
  type TextKey,
} from '@/db/queries/messages/message-texts';
import { actorDisplayName, setActor } from '@/db/queries/platform/actor';
import { getTenant } from '@/db/queries/scheduling/scheduling';
import type { MessageTextRow } from '@/db/schema';
import { catalogLocales } from '@/emails/messages';
import { messageVariables, type MessageVariable } from '@/domain/messages/message-variables';
import { checkStaffText, type StaffTextError } from '@/domain/messages/staff-text';
import { nextVersion, type MessageTextStatus } from '@/domain/messages/text-versions';
import { templateIds, type AuditAction, type TemplateId } from '@/domain/vocabulary';
import { AppError, parseInput } from '@/server/platform/errors';
import { assertVersion, assertVersionIssued, recheckActor } from '@/server/platform/versions';

/** Most SMS segments an organisation's SMS text may take (with the kind's sample values) when it set no other (the column's default). */
export const DEFAULT_SMS_SEGMENT_LIMIT = 3;

/**
 * The organisation's own limit on SMS segments per text (settings page, tenants.sms_segment_limit, 1–10), or
 * {@link DEFAULT_SMS_SEGMENT_LIMIT} when the organisation is gone (the caller's own lookup then answers 404).
 */
export async function smsSegmentLimitOf(db: DbOrTx, tenantId: string): Promise<number> {
  return (await getTenant(db, tenantId))?.smsSegmentLimit ?? DEFAULT_SMS_SEGMENT_LIMIT;
}

/** Who acts, when (route handlers: app/_http/session.ts actionContext). */
export interface MessageTextContext {
  tenantId: string;
  /** The staff member's email (audit log, `created_by` / `published_by`). */
  actor: string;
  /** Set by every route handler: the role is then re-checked under lock. */
  actorId?: string;
  now: Date;
}

/** A version as the history lists it. */
export interface TextVersionView {
  version: number;
  status: Exclude<MessageTextStatus, 'draft'>;
  /** Null for a reset (the built-in text from this version on). */
  subject: string | null;
  body: string | null;
  sms: string | null;
  /** A roll back: the version it copies. */
  copiedFrom: number | null;
  /** Staff member's name (else their email). */
  publishedBy: string;
  /** ISO instant (UTC). */
  publishedAt: string;
}

/** The editor's view of one (kind, locale). */
export interface MessageTextView {
  kind: TemplateId;
  locale: string;
  /** Send with the next write (invariant 11): the highest row version of this text, 0 when never written. */
  rowVersion: number;
  draft: { subject: string; body: string; sms: string; savedBy: string; savedAt: string } | null;
  /** The version in effect now; null = Punctual's built-in text. */
  published: TextVersionView | null;
  /** The variables the text may use. */
  variables: readonly MessageVariable[];
}

/** `{ kind, locale }` of a text: a message kind (template id) and a language Punctual ships text for. */
export const textKeySchema = z.object({
  kind: z.enum(templateIds, { error: `must be one of ${templateIds.join(', ')}` }),
  locale: z.enum(catalogLocales as [string, ...string[]], { error: `must be one of ${catalogLocales.join(', ')}` }),
});
const rowVersionSchema = z.object({
  rowVersion: z
    .number({ error: (i) => (i.input === undefined ? 'required: send the rowVersion of the text you opened (0 when it was never written)' : 'must be a whole number') })
    .int('must be a whole number')
    .min(0, 'must be 0 or more'),
});
// Twice the field's limit at most: the check (domain/messages/staff-text.ts) names the limit and the line for a text a
// little over it; a body far beyond it is no editor's draft.
const text = (max: number) => z.string({ error: 'required (a string; may not be missing)' }).max(max * 2, `at most ${max} characters`);
/** The three texts of a draft as a request names them (each a string, at most twice its limit: the check names the limit). */
export const draftTextShape = { subject: text(200), body: text(20_000), sms: text(1_600) };
const draftSchema = textKeySchema.extend(draftTextShape).extend(rowVersionSchema.shape);
const rollbackSchema = textKeySchema.extend({ toVersion: z.number({ error: 'must be a version number' }).int('must be a whole number').min(1, 'must be 1 or more') }).extend(rowVersionSchema.shape);
const keyWithVersionSchema = textKeySchema.extend(rowVersionSchema.shape);

function keyOf(ctx: { tenantId: string }, k: { kind: TemplateId; locale: string }): TextKey & { kind: TemplateId } {
  return { tenantId: ctx.tenantId, kind: k.kind, locale: k.locale };
}

/**
 * Checks a draft as a save does (domain/messages/staff-text.ts checkStaffText): the preview and "send a test to me"
 * use it too, so they refuse exactly what a save refuses. `smsSegmentLimit` (the organisation's, {@link smsSegmentLimitOf})
 * is on the organisation's own words with example values; the preferences link the sender appends to every SMS is not
 * counted against it (the templates overview shows the cost with it).
 * @throws AppError('validation') with every error of the check in `errors`, `field` the first one's.
 */
export function assertValidText(kind: TemplateId, locale: string, t: TextBody, smsSegmentLimit: number): void {
  const r = checkStaffText({ kind, locale, draft: t, smsSegmentLimit });
  if (r.ok) return;
  const first: StaffTextError = r.errors[0];
  const more = r.errors.length > 1 ? ` (and ${r.errors.length - 1} more)` : '';
  throw new AppError('validation', `${first.message}${more}`, first.field, {
    errors: r.errors,
    ...(first.variable ? { variable: first.variable } : {}),
    line: first.line,
  });
}

async function versionView(db: DbOrTx, tenantId: string, r: MessageTextRow): Promise<TextVersionView> {
  return {
    version: r.version ?? 0,
    status: r.status === 'reset' ? 'reset' : 'published',
    subject: r.subject,
    body: r.body,
    sms: r.sms,
    copiedFrom: r.copiedFrom,
    publishedBy: await actorDisplayName(db, tenantId, r.publishedBy ?? r.createdBy),
    publishedAt: (r.publishedAt ?? r.createdAt).toISOString(),
  };
}

async function viewOf(db: DbOrTx, k: TextKey & { kind: TemplateId }, rows: MessageTextRow[]): Promise<MessageTextView> {
  const draft = rows.find((r) => r.status === 'draft');
  const top = rows.find((r) => r.version !== null);
  return {
    kind: k.kind,
    locale: k.locale,
    rowVersion: rows.reduce((m, r) => Math.max(m, r.rowVersion), 0),
    draft: draft
      ? { subject: draft.subject ?? '', body: draft.body ?? '', sms: draft.sms ?? '', savedBy: await actorDisplayName(db, k.tenantId, draft.createdBy), savedAt: draft.updatedAt.toISOString() }
      : null,
    published: top && top.status === 'published' ? await versionView(db, k.tenantId, top) : null,
    variables: messageVariables[k.kind],
  };
}

/**
 * Inside the writing transaction: locks the key, reads its rows and refuses a stale `seen` (409 with `current`: the
 * view as it is now) or one never issued (400).
 */
async function lockAndCompare(tx: Tx, ctx: MessageTextContext, k: TextKey & { kind: TemplateId }, seen: number): Promise<{ rows: MessageTextRow[]; rowVersion: number }> {
  await setActor(tx, ctx.actor);
  await recheckActor(tx, ctx, 'configure');
  await lockTextKey(tx, k);
  const rows = await textRows(tx, k);
  const last = rows.reduce<MessageTextRow | undefined>((m, r) => (!m || r.rowVersion > m.rowVersion ? r : m), undefined);
  const state = { version: last?.rowVersion ?? 0, updatedBy: last ? (last.publishedBy && last.status !== 'draft' ? last.publishedBy : last.createdBy) : null, updatedAt: last?.updatedAt ?? null };
  assertVersionIssued(state, seen);
  await assertVersion(tx, ctx, state, seen, { what: `This ${k.kind} text (${k.locale})`, current: await viewOf(tx, k, rows) });
  return { rows, rowVersion: state.version };
}

async function audit(tx: Tx, ctx: MessageTextContext, action: AuditAction, k: TextKey, details: Record<string, unknown>): Promise<void> {
  await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action, at: ctx.now, details: { kind: k.kind, locale: k.locale, ...details } });
}

/** The editor's view of one text. @throws AppError('validation') for an unknown kind or language. */
export async function readMessageText(db: DbOrTx, tenantId: string, input: unknown): Promise<MessageTextView> {
  const k = keyOf({ tenantId }, parseInput(textKeySchema, input));
  return viewOf(db, k, await textRows(db, k));
}

/**
 * An admin saves the draft `{ kind, locale, subject, body, sms, rowVersion }`: checked first (400 with `errors`,
 * nothing stored), then stored as the key's one draft (created or replaced). Not audited (a draft reaches nobody).
 * @returns the view as stored now.
 * @throws AppError validation | forbidden | conflict (stale rowVersion, with `current`).
 */
export async function saveDraft(db: Db, ctx: MessageTextContext, input: unknown, opts: { smsSegmentLimit?: number } = {}): Promise<MessageTextView> {
  const v = parseInput(draftSchema, input);
  const k = keyOf(ctx, v);
  const t: TextBody = { subject: v.subject, body: v.body, sms: v.sms };
  assertValidText(k.kind, k.locale, t, opts.smsSegmentLimit ?? (await smsSegmentLimitOf(db, ctx.tenantId)));
  return db.transaction(async (tx) => {
    const { rows, rowVersion } = await lockAndCompare(tx, ctx, k, v.rowVersion);
    const draft = rows.find((r) => r.status === 'draft');
    const w = { by: ctx.actor, at: ctx.now, rowVersion: rowVersion + 1 };
    if (draft) await updateDraft(tx, k, draft.id, t, w);
    else await insertDraft(tx, k, t, w);
    return viewOf(tx, k, await textRows(tx, k));
  });
}

/**
 * An admin publishes the draft `{ kind, locale, rowVersion }` as the next version: from now on messages of this kind
 * and language not yet claimed use it. Audited `message_text_publish`.
 * @throws AppError invalid_state (no draft), validation (the draft no longer passes the check), forbidden, conflict.
 */
export async function publishText(db: Db, ctx: MessageTextContext, input: unknown, opts: { smsSegmentLimit?: number } = {}): Promise<MessageTextView> {
  const v = parseInput(keyWithVersionSchema, input);
  const k = keyOf(ctx, v);
  return db.transaction(async (tx) => {
    const { rows, rowVersion } = await lockAndCompare(tx, ctx, k, v.rowVersion);
    const draft = rows.find((r) => r.status === 'draft');
    if (!draft) throw new AppError('invalid_state', `There is no draft of this ${k.kind} text (${k.locale}) to publish.`, 'rowVersion');
    assertValidText(k.kind, k.locale, { subject: draft.subject ?? '', body: draft.body ?? '', sms: draft.sms ?? '' }, opts.smsSegmentLimit ?? (await smsSegmentLimitOf(tx, ctx.tenantId)));
    const version = nextVersion(rows);
    await publishDraft(tx, k, draft.id, { version, by: ctx.actor, at: ctx.now, rowVersion: rowVersion + 1 });
    await audit(tx, ctx, 'message_text_publish', k, { version });
    return viewOf(tx, k, await textRows(tx, k));
  });
}

/**
 * An admin rolls back to version N `{ kind, locale, toVersion: N, rowVersion }`: its text is published again as the next
 * version (`copiedFrom` N; history stays whole). Audited `message_text_rollback` with `{ version, copiedFrom }`.
 * The draft, if any, is left as it is.
 * @throws AppError not_found (no version N), invalid_state (N is a reset: use reset), validation, forbidden, conflict.
 */
export async function rollbackText(db: Db, ctx: MessageTextContext, input: unknown, opts: { smsSegmentLimit?: number } = {}): Promise<MessageTextView> {
  const v = parseInput(rollbackSchema, input);
  const k = keyOf(ctx, v);
  return db.transaction(async (tx) => {
    const { rows, rowVersion } = await lockAndCompare(tx, ctx, k, v.rowVersion);
    const from = await versionRow(tx, k, v.toVersion);
    if (!from) throw new AppError('not_found', `This ${k.kind} text (${k.locale}) has no version ${v.toVersion}.`, 'toVersion');
    if (from.status !== 'published') throw new AppError('invalid_state', `Version ${v.toVersion} is a reset to Punctual's text: reset instead.`, 'toVersion');
    const t: TextBody = { subject: from.subject ?? '', body: from.body ?? '', sms: from.sms ?? '' };
    assertValidText(k.kind, k.locale, t, opts.smsSegmentLimit ?? (await smsSegmentLimitOf(tx, ctx.tenantId)));
    const version = nextVersion(rows);
    await insertVersion(tx, k, { text: t, copiedFrom: v.toVersion, version, by: ctx.actor, at: ctx.now, rowVersion: rowVersion + 1 });
    await audit(tx, ctx, 'message_text_rollback', k, { version, copiedFrom: v.toVersion });
    return viewOf(tx, k, await textRows(tx, k));
  });
}

/**
 * An admin resets `{ kind, locale, rowVersion }` to Punctual's built-in text: a `reset` version (history kept; a roll
 * back brings an earlier text back). Already on the built-in text → nothing written, not audited. The draft, if
 * any, is kept. Audited `message_text_reset` with `{ version }`.
 * @throws AppError validation | forbidden | conflict.
 */
export async function resetToBuiltIn(db: Db, ctx: MessageTextContext, input: unknown): Promise<MessageTextView> {
  const v = parseInput(keyWithVersionSchema, input);
  const k = keyOf(ctx, v);
  return db.transaction(async (tx) => {
    const { rows, rowVersion } = await lockAndCompare(tx, ctx, k, v.rowVersion);
    const top = rows.find((r) => r.version !== null);
    if (!top || top.status === 'reset') return viewOf(tx, k, rows);
    const version = nextVersion(rows);
    await insertVersion(tx, k, { text: null, copiedFrom: null, version, by: ctx.actor, at: ctx.now, rowVersion: rowVersion + 1 });
    await audit(tx, ctx, 'message_text_reset', k, { version });
    return viewOf(tx, k, await textRows(tx, k));
  });
}

/** Every version of one text, newest first, with who published it and when (every role may read). */
export async function textHistory(db: DbOrTx, tenantId: string, input: unknown): Promise<TextVersionView[]> {
  const k = keyOf({ tenantId }, parseInput(textKeySchema, input));
  const rows = (await textRows(db, k)).filter((r) => r.version !== null);
  return Promise.all(rows.map((r) => versionView(db, tenantId, r)));
}

/**
 * The organisation's text in effect for (tenant, kind, locale) — for the send path at the claim: its highest version
 * when that is published, else null (Punctual's built-in text).
 */
export async function effectiveText(db: DbOrTx, k: TextKey): Promise<(TextBody & { version: number }) | null> {
  const top = await latestVersion(db, k);
  if (!top || top.status !== 'published' || top.version === null) return null;
  return { version: top.version, subject: top.subject ?? '', body: top.body ?? '', sms: top.sms ?? '' };
}

/**
 * Version `version` of the organisation's text for (tenant, kind, locale), as the claim recorded it on a delivery
 * (`deliveries.message_text_version`): its words for every attempt, retry and replay of that delivery. Null when
 * there is no such published version (a row claimed before it existed cannot name one).
 */
export async function claimedText(db: DbOrTx, k: TextKey, version: number): Promise<(TextBody & { version: number }) | null> {
  const row = await versionRow(db, k, version);
  if (!row || row.status !== 'published' || row.version === null) return null;
  return { version: row.version, subject: row.subject ?? '', body: row.body ?? '', sms: row.sms ?? '' };
}
