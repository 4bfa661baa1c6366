/**
 * An organisation's own message text (db/schema/messages.ts `message_texts`, issue #22 §2): the rows of one
 * (tenant, kind, locale), the writes of draft, publish, roll back and reset, and the effective version for the send
 * path. Every query is scoped to one tenant (invariant 9). Writers take {@link lockTextKey} first, then read
 * {@link textRows}, so "the state the editor saw" (the highest `row_version`) and the next version number are
 * decided under the lock that writes.
 */
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { messageTexts, type MessageTextRow } from '@/db/schema';

/** Which text: one message kind (template id) in one language, of one organisation. */
export interface TextKey {
  tenantId: string;
  kind: string;
  locale: string;
}

const keyWhere = (k: TextKey) => and(eq(messageTexts.tenantId, k.tenantId), eq(messageTexts.kind, k.kind), eq(messageTexts.locale, k.locale));

/** Serialises every write to one (tenant, kind, locale) until the transaction ends (a transaction-scoped advisory lock). */
export async function lockTextKey(tx: DbOrTx, k: TextKey): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(10020, hashtext(${`${k.tenantId}:${k.kind}:${k.locale}`}))`);
}

/** Every row of the key: the draft (if any) first, then the versions newest first. */
export async function textRows(db: DbOrTx, k: TextKey): Promise<MessageTextRow[]> {
  return db
    .select()
    .from(messageTexts)
    .where(keyWhere(k))
    .orderBy(sql`${messageTexts.version} desc nulls first`);
}

/** The texts of a draft or a published version. */
export interface TextBody {
  subject: string;
  body: string;
  sms: string;
}

/** Inserts the key's draft (there is none yet: the caller checked under {@link lockTextKey}). */
export async function insertDraft(tx: DbOrTx, k: TextKey, t: TextBody, w: { by: string; at: Date; rowVersion: number }): Promise<MessageTextRow> {
  const [row] = await tx
    .insert(messageTexts)
    .values({ ...k, status: 'draft', ...t, rowVersion: w.rowVersion, createdBy: w.by, createdAt: w.at, updatedAt: w.at })
    .returning();
  return row;
}

/** Replaces the texts of draft `id` (who wrote it last, when, and its new row version). */
export async function updateDraft(tx: DbOrTx, k: TextKey, id: string, t: TextBody, w: { by: string; at: Date; rowVersion: number }): Promise<MessageTextRow> {
  const [row] = await tx
    .update(messageTexts)
    .set({ ...t, rowVersion: w.rowVersion, createdBy: w.by, updatedAt: w.at })
    .where(and(keyWhere(k), eq(messageTexts.id, id), eq(messageTexts.status, 'draft')))
    .returning();
  return row;
}

/** Turns draft `id` into published version `version`. */
export async function publishDraft(tx: DbOrTx, k: TextKey, id: string, w: { version: number; by: string; at: Date; rowVersion: number }): Promise<MessageTextRow> {
  const [row] = await tx
    .update(messageTexts)
    .set({ status: 'published', version: w.version, publishedBy: w.by, publishedAt: w.at, rowVersion: w.rowVersion, updatedAt: w.at })
    .where(and(keyWhere(k), eq(messageTexts.id, id), eq(messageTexts.status, 'draft')))
    .returning();
  return row;
}

/**
 * Adds a version that was never a draft: a roll back (`text` copied from version `copiedFrom`) or a reset
 * (`text` null: the built-in text from now on).
 */
export async function insertVersion(
  tx: DbOrTx,
  k: TextKey,
  v: { text: TextBody | null; copiedFrom: number | null; version: number; by: string; at: Date; rowVersion: number },
): Promise<MessageTextRow> {
  const [row] = await tx
    .insert(messageTexts)
    .values({
      ...k,
      status: v.text ? 'published' : 'reset',
      version: v.version,
      subject: v.text?.subject ?? null,
      body: v.text?.body ?? null,
      sms: v.text?.sms ?? null,
      copiedFrom: v.copiedFrom,
      rowVersion: v.rowVersion,
      createdBy: v.by,
      createdAt: v.at,
      updatedAt: v.at,
      publishedBy: v.by,
      publishedAt: v.at,
    })
    .returning();
  return row;
}

/**
 * The key's highest version (published or reset), or undefined when the organisation never published one. The
 * send path uses its text when it is `published` and the built-in text otherwise.
 */
export async function latestVersion(db: DbOrTx, k: TextKey): Promise<MessageTextRow | undefined> {
  const [row] = await db
    .select()
    .from(messageTexts)
    .where(and(keyWhere(k), isNotNull(messageTexts.version)))
    .orderBy(desc(messageTexts.version))
    .limit(1);
  return row;
}

/** Version `version` of the key, or undefined. */
export async function versionRow(db: DbOrTx, k: TextKey, version: number): Promise<MessageTextRow | undefined> {
  const [row] = await db
    .select()
    .from(messageTexts)
    .where(and(keyWhere(k), eq(messageTexts.version, version)));
  return row;
}

/** One row of an organisation's texts as the overview needs it: which (kind, locale), draft or which version. */
export interface TextSummaryRow {
  kind: string;
  locale: string;
  status: MessageTextRow['status'];
  version: number | null;
  /** The row's SMS text (null for a reset). */
  sms: string | null;
}

/** Every row of every text of `tenantId` (kind, language, status, version, SMS text): the /templates overview. */
export async function tenantTextSummary(db: DbOrTx, tenantId: string): Promise<TextSummaryRow[]> {
  return db
    .select({ kind: messageTexts.kind, locale: messageTexts.locale, status: messageTexts.status, version: messageTexts.version, sms: messageTexts.sms })
    .from(messageTexts)
    .where(eq(messageTexts.tenantId, tenantId));
}
