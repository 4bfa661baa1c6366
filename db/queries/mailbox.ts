/**
 * Read models for the development mailbox: messages the built-in mail catcher stored in `caught_messages`.
 * That table is a dev/demo tool, not tenant data, so these reads are deliberately not tenant scoped.
 * Instants are ISO-8601 UTC strings (see views.ts).
 */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { caughtMessages } from '../schema';
import { isUuid, type ListPage } from './views';

/** One row of the mailbox list. */
export interface CaughtMessageListItem {
  id: string;
  receivedAt: string;
  envelopeFrom: string | null;
  envelopeTo: string[];
  subject: string | null;
  messageId: string | null;
  hasHtml: boolean;
}

/** A caught message with its parsed parts and headers (the raw source is left out: it can be large). */
export interface CaughtMessageView {
  id: string;
  receivedAt: string;
  envelopeFrom: string | null;
  envelopeTo: string[];
  messageId: string | null;
  subject: string | null;
  /** As stored by the catcher (an object of header name → value, or a list of header lines). */
  headers: unknown;
  html: string | null;
  text: string | null;
}

/** Caught messages, newest first (then by id, so paging is stable). */
export async function listCaughtMessages(
  db: DbOrTx,
  page: { limit: number; offset: number },
  scope: { from?: string } = {},
): Promise<ListPage<CaughtMessageListItem>> {
  const where = scope.from ? sql`lower(${caughtMessages.envelopeFrom}) = lower(${scope.from})` : undefined;
  const [{ total }] = await db.select({ total: count() }).from(caughtMessages).where(where);
  const rows = await db
    .select({
      id: caughtMessages.id,
      receivedAt: caughtMessages.receivedAt,
      envelopeFrom: caughtMessages.envelopeFrom,
      envelopeTo: caughtMessages.envelopeTo,
      subject: caughtMessages.subject,
      messageId: caughtMessages.messageId,
      html: caughtMessages.html,
    })
    .from(caughtMessages)
    .where(where)
    .orderBy(desc(caughtMessages.receivedAt), desc(caughtMessages.id))
    .limit(page.limit)
    .offset(page.offset);
  return {
    total,
    items: rows.map(({ html, receivedAt, ...r }) => ({
      ...r,
      receivedAt: receivedAt.toISOString(),
      hasHtml: html != null && html !== '',
    })),
  };
}

/** The caught message `id` (sent from `scope.from` when given), or null when malformed, unknown or out of scope. */
export async function getCaughtMessage(db: DbOrTx, id: string, scope: { from?: string } = {}): Promise<CaughtMessageView | null> {
  if (!isUuid(id)) return null;
  const byFrom = scope.from ? sql`lower(${caughtMessages.envelopeFrom}) = lower(${scope.from})` : undefined;
  const [row] = await db.select().from(caughtMessages).where(and(eq(caughtMessages.id, id), byFrom)).limit(1);
  if (!row) return null;
  return {
    id: row.id,
    receivedAt: row.receivedAt.toISOString(),
    envelopeFrom: row.envelopeFrom,
    envelopeTo: row.envelopeTo,
    messageId: row.messageId,
    subject: row.subject,
    headers: row.headers,
    html: row.html,
    text: row.text,
  };
}
