/**
 * Read models for the development mailbox: what the built-in catchers stored in `caught_messages` — email from
 * the SMTP catcher (dev/mail-catcher.ts), SMS from the SMS API (dev/sms-catcher.ts) and webhook deliveries
 * from the receiver (dev/webhook-catcher.ts). That table is a dev/demo tool, not tenant data; the staff pages
 * show a tenant what it SENT, by a {@link MailboxScope}:
 *   - `tenant_id` is the tenant: the sender's own declaration recorded by the catcher when the message arrived
 *     (domain/sending/caught-identity.ts). No address — From, SMS sender, webhook path — decides a tenant here: any admin
 *     can set those to another organisation's;
 *   - account mail (`account_mail`: password and sign-in links) is listed only to the staff member signed in as
 *     one of its envelope recipients (case-insensitive).
 * What the rows hold is returned as stored: credentials in them are masked by the use-case that shows them
 * (dev/caught-mail.ts), which knows who is looking. Instants are ISO-8601 UTC strings (see views.ts).
 */
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { caughtMessages, notificationSettings, tenants } from '@/db/schema';
import { isUuid, type ListPage } from '@/db/queries/scheduling/event-views';

/** The channels a catcher stores messages of (`caught_messages.channel`). */
export const caughtChannels = ['email', 'sms', 'webhook'] as const;
export type CaughtChannel = (typeof caughtChannels)[number];

/** Which caught messages one staff member may list (module doc). */
export interface MailboxScope {
  /** The viewer's tenant: only messages it declared as their sender. */
  tenantId: string;
  /** The viewer's sign-in address: account mail to it is listed, other account mail is not. */
  viewerEmail: string;
}

/** One row of the mailbox list. */
export interface CaughtMessageListItem {
  id: string;
  channel: CaughtChannel;
  receivedAt: string;
  envelopeFrom: string | null;
  envelopeTo: string[];
  subject: string | null;
  messageId: string | null;
  hasHtml: boolean;
  /**
   * Email: the `X-Punctual-Message-Key` header Punctual puts on every message it sends (`ntf:…` a booking
   * notification, `nudge:…` a manual reminder, else a rule reminder), or null.
   */
  punctualKey: string | null;
  /** SMS: the message text (at most 1600 characters: Twilio's limit); other channels: null. */
  text: string | null;
  /** Webhook: whether the receiver verified the signature; other channels: null. */
  verified: boolean | null;
}

/** A caught message with its parsed parts and headers (the raw source is left out: it can be large). */
export interface CaughtMessageView {
  id: string;
  channel: CaughtChannel;
  receivedAt: string;
  envelopeFrom: string | null;
  envelopeTo: string[];
  messageId: string | null;
  subject: string | null;
  /**
   * As stored by the catcher: email — header name → value, or a list of header lines; SMS — the form fields;
   * webhook — the request headers plus `verified` (boolean) and `verification` (text).
   */
  headers: unknown;
  html: string | null;
  text: string | null;
  /**
   * How many credentials the viewer's copy has masked (set by dev/caught-mail.ts; 0 or absent: none, or the
   * viewer is the recipient).
   */
  credentialsHidden?: number;
}

/** The scope's rows (module doc): the tenant's own, account mail only to its recipient. */
function scopeWhere(scope: MailboxScope): SQL {
  const m = caughtMessages;
  return sql`(${m.tenantId} = ${scope.tenantId}::uuid and (not ${m.accountMail} or exists (select 1 from unnest(${m.envelopeTo}) as r(addr) where lower(trim(r.addr)) = lower(trim(${scope.viewerEmail})))))`;
}

function channelWhere(scope: MailboxScope, channel: CaughtChannel): SQL {
  return sql`(${caughtMessages.channel} = ${channel} and ${scopeWhere(scope)})`;
}

/**
 * What the mailbox header says about where a tenant's messages come from: its sender address, its SMS sender
 * (`notification_settings.sms_sender`, else the worker's default `defaultSmsFrom`) and its webhook receiver path.
 * Words for the page only — the scope never uses them. Null when the tenant does not exist.
 */
export async function mailboxSenders(
  db: DbOrTx,
  tenantId: string,
  defaultSmsFrom?: string | null,
): Promise<{ senderEmail: string; smsSender: string | null; webhookPath: string } | null> {
  const [row] = await db
    .select({ slug: tenants.slug, senderEmail: tenants.senderEmail, smsSender: notificationSettings.smsSender })
    .from(tenants)
    .leftJoin(notificationSettings, eq(notificationSettings.tenantId, tenants.id))
    .where(eq(tenants.id, tenantId))
    .limit(1);
  if (!row) return null;
  return { senderEmail: row.senderEmail, smsSender: row.smsSender ?? defaultSmsFrom ?? null, webhookPath: `/hooks/${row.slug}` };
}

/** How many caught messages of each channel the scope holds. */
export async function countCaughtMessages(db: DbOrTx, scope: MailboxScope): Promise<Record<CaughtChannel, number>> {
  const rows = await db
    .select({ channel: caughtMessages.channel, n: count() })
    .from(caughtMessages)
    .where(scopeWhere(scope))
    .groupBy(caughtMessages.channel);
  const out: Record<CaughtChannel, number> = { email: 0, sms: 0, webhook: 0 };
  for (const r of rows) out[r.channel] = r.n;
  return out;
}

/**
 * The rows matching a mailbox search: `q` (trimmed, at most 200 characters) as a case-insensitive substring of a
 * recipient address, the subject or the Message-ID (with or without its angle brackets) — never of a body, so a
 * search cannot probe the masked links in someone else's message.
 */
function searchWhere(q: string): SQL {
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const m = caughtMessages;
  return sql`(exists (select 1 from unnest(${m.envelopeTo}) as r(addr) where r.addr ilike ${like}) or ${m.subject} ilike ${like} or ${m.messageId} ilike ${like})`;
}

/**
 * Caught messages of one channel in the scope, newest first (then by id, so paging is stable); with `q`, only those
 * matching it ({@link searchWhere}).
 */
export async function listCaughtMessages(
  db: DbOrTx,
  page: { limit: number; offset: number },
  scope: MailboxScope,
  channel: CaughtChannel = 'email',
  q = '',
): Promise<ListPage<CaughtMessageListItem>> {
  const search = q.trim().replace(/^<|>$/g, '').slice(0, 200);
  const where = search ? sql`(${channelWhere(scope, channel)} and ${searchWhere(search)})` : channelWhere(scope, channel);
  const [{ total }] = await db.select({ total: count() }).from(caughtMessages).where(where);
  const rows = await db
    .select({
      id: caughtMessages.id,
      channel: caughtMessages.channel,
      receivedAt: caughtMessages.receivedAt,
      envelopeFrom: caughtMessages.envelopeFrom,
      envelopeTo: caughtMessages.envelopeTo,
      subject: caughtMessages.subject,
      messageId: caughtMessages.messageId,
      hasHtml: sql<boolean>`coalesce(${caughtMessages.html}, '') <> ''`,
      punctualKey: sql<string | null>`case when ${caughtMessages.channel} = 'email' then ${caughtMessages.headers}->>'x-punctual-message-key' end`,
      text: sql<string | null>`case when ${caughtMessages.channel} = 'sms' then left(${caughtMessages.text}, 1600) end`,
      verified: sql<boolean | null>`case when ${caughtMessages.channel} = 'webhook' then coalesce((${caughtMessages.headers}->>'verified') = 'true', false) end`,
    })
    .from(caughtMessages)
    .where(where)
    .orderBy(desc(caughtMessages.receivedAt), desc(caughtMessages.id))
    .limit(page.limit)
    .offset(page.offset);
  return { total, items: rows.map((r) => ({ ...r, receivedAt: r.receivedAt.toISOString() })) };
}

/** The caught message `id` within `scope`, or null when malformed, unknown or out of scope. */
export async function getCaughtMessage(db: DbOrTx, id: string, scope: MailboxScope): Promise<CaughtMessageView | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(caughtMessages).where(and(eq(caughtMessages.id, id), scopeWhere(scope))).limit(1);
  if (!row) return null;
  return {
    id: row.id,
    channel: row.channel,
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

/** A caught message's stored source: the raw bytes as received (UTF-8 text), for parsing or download. */
export interface CaughtMessageRaw {
  id: string;
  channel: CaughtChannel;
  /** Email: the RFC 5322 message as the catcher received it; SMS: the form body; webhook: the request body. */
  raw: string;
  /** The envelope recipients (who may see its credentials: dev/caught-mail.ts). */
  envelopeTo: string[];
}

/**
 * The raw source of caught message `id` within `scope` — the same scope rule as {@link getCaughtMessage}, so a
 * message the mailbox page would not show is never served — or null when malformed, unknown or out of scope.
 */
export async function getCaughtMessageRaw(db: DbOrTx, id: string, scope: MailboxScope): Promise<CaughtMessageRaw | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({ id: caughtMessages.id, channel: caughtMessages.channel, raw: caughtMessages.raw, envelopeTo: caughtMessages.envelopeTo })
    .from(caughtMessages)
    .where(and(eq(caughtMessages.id, id), scopeWhere(scope)))
    .limit(1);
  return row ?? null;
}

/**
 * The webhook signing secret of the tenant with `slug` (the built-in receiver verifies with it): `null` when no
 * such tenant, `{ secret: null }` when it has no settings row or no secret.
 */
export async function webhookSecretOfTenant(db: DbOrTx, slug: string): Promise<{ secret: string | null } | null> {
  const [row] = await db
    .select({ secret: notificationSettings.webhookSecret })
    .from(tenants)
    .leftJoin(notificationSettings, eq(notificationSettings.tenantId, tenants.id))
    .where(eq(tenants.slug, slug))
    .limit(1);
  return row ? { secret: row.secret ?? null } : null;
}
