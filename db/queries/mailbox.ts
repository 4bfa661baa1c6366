/**
 * Read models for the development mailbox: messages the built-in mail catcher stored in `caught_messages`.
 * That table is a dev/demo tool, not tenant data, so these reads are deliberately not tenant scoped.
 * Instants are ISO-8601 UTC strings (see views.ts).
 */
import { count, desc, eq } from 'drizzle-orm';
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
): Promise<ListPage<CaughtMessageListItem>> {
  const [{ total }] = await db.select({ total: count() }).from(caughtMessages);
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

/** The caught message `id`, or null when the id is malformed or unknown. */
export async function getCaughtMessage(db: DbOrTx, id: string): Promise<CaughtMessageView | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(caughtMessages).where(eq(caughtMessages.id, id)).limit(1);
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
