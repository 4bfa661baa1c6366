/**
 * What the mailbox shows of a caught email beyond its stored HTML/text/headers: its attachments and its
 * calendar invitation, read from the raw source (`caught_messages.raw`) with mailparser, and served one by one
 * to a staff member of the tenant that sent it (app/api/mailbox/[id]/…).
 *
 * Attachments are mailparser's `attachments` list, in its order (depth-first MIME order), and are addressed by
 * their position in it. A Punctual booking email carries its invitation twice (domain/calendar-invite.ts,
 * nodemailer's `icalEvent`): a `text/calendar; method=…` alternative without a file name, and an
 * `application/ics` attachment named `invite.ics` or `cancel.ics` — both are listed.
 *
 * Scope: every read goes through db/queries/mailbox.ts `getCaughtMessageRaw` with the tenant's mailbox scope
 * (email: sent from the tenant's sender address), so another tenant's message answers null (a 404).
 */
import { simpleParser } from 'mailparser';
import type { DbOrTx } from '../db/client';
import { getCaughtMessageRaw, mailboxScope, type CaughtMessageRaw } from '../db/queries/mailbox';
import { icsKeyLines, type IcsKeyLine } from '../domain/ics-key-lines';

/** One attachment of a caught email, as listed on its mailbox page. */
export interface CaughtAttachment {
  /** Position in the parsed message's attachment list: the `[index]` of its download address. */
  index: number;
  /** The file name the message gives it, or null (e.g. a `text/calendar` alternative). */
  filename: string | null;
  /** The MIME type with its `method` parameter when it has one, e.g. `text/calendar; method=REQUEST`. */
  contentType: string;
  /** Decoded size in bytes. */
  size: number;
  /** The name a download is saved under: `filename`, else `part-<index>.ics` for a calendar, `part-<index>.bin`. */
  downloadName: string;
}

/** The calendar invitation of a caught email: which part it was read from and its key lines. */
export interface CaughtCalendar {
  /** Index (see {@link CaughtAttachment.index}) of the part the lines come from. */
  index: number;
  /** That part's file name, or null. */
  filename: string | null;
  lines: IcsKeyLine[];
}

/** Attachments and calendar invitation of one caught email. */
export interface CaughtMailParts {
  attachments: CaughtAttachment[];
  /** The first calendar part with a VCALENDAR in it, or null when the message carries none. */
  calendar: CaughtCalendar | null;
}

type ParsedAttachment = Awaited<ReturnType<typeof simpleParser>>['attachments'][number];

function isCalendar(a: ParsedAttachment): boolean {
  return a.contentType === 'text/calendar' || a.contentType === 'application/ics' || /\.ics$/i.test(a.filename ?? '');
}

function attachmentInfo(a: ParsedAttachment, index: number): CaughtAttachment {
  const ct = a.headers.get('content-type') as { params?: Record<string, string> } | undefined;
  const method = ct?.params?.method;
  return {
    index,
    filename: a.filename ?? null,
    contentType: method ? `${a.contentType}; method=${method}` : a.contentType,
    size: a.size ?? a.content.length,
    downloadName: a.filename || `part-${index + 1}.${isCalendar(a) ? 'ics' : 'bin'}`,
  };
}

/**
 * Attachments and calendar key lines of a raw email (RFC 5322 text). Parsing never throws for a malformed
 * message: mailparser reads what it can (a message without MIME parts has no attachments).
 */
export async function readCaughtMailParts(raw: string): Promise<CaughtMailParts> {
  const parsed = await simpleParser(raw);
  const attachments = parsed.attachments.map(attachmentInfo);
  let calendar: CaughtCalendar | null = null;
  // Prefer a named .ics file (what a person downloads), then any other calendar part.
  const order = [...parsed.attachments.keys()].sort((a, b) => Number(!parsed.attachments[a].filename) - Number(!parsed.attachments[b].filename));
  for (const i of order) {
    const a = parsed.attachments[i];
    if (!isCalendar(a)) continue;
    const lines = icsKeyLines(a.content.toString('utf8'));
    if (lines.length > 0) {
      calendar = { index: i, filename: a.filename ?? null, lines };
      break;
    }
  }
  return { attachments, calendar };
}

/** The tenant's caught message `id` with its raw source, or null when not in the tenant's mailbox. */
export async function caughtMessageRaw(db: DbOrTx, tenantId: string, id: string, defaultSmsFrom?: string | null): Promise<CaughtMessageRaw | null> {
  const scope = await mailboxScope(db, tenantId, defaultSmsFrom);
  return scope ? getCaughtMessageRaw(db, id, scope) : null;
}

/** One attachment's bytes, for download. */
export interface CaughtAttachmentFile {
  attachment: CaughtAttachment;
  /** The `Content-Type` to serve it with: its MIME type plus its `charset` and `method` parameters, when given. */
  contentTypeHeader: string;
  content: Buffer;
}

/**
 * Attachment number `index` (0-based, {@link CaughtAttachment.index}) of the tenant's caught email `id`, or null
 * when the message is not in the tenant's mailbox, is not an email, or has no such attachment.
 */
export async function caughtAttachment(
  db: DbOrTx,
  tenantId: string,
  id: string,
  index: number,
  defaultSmsFrom?: string | null,
): Promise<CaughtAttachmentFile | null> {
  if (!Number.isSafeInteger(index) || index < 0) return null;
  const msg = await caughtMessageRaw(db, tenantId, id, defaultSmsFrom);
  if (!msg || msg.channel !== 'email') return null;
  const parsed = await simpleParser(msg.raw);
  const a = parsed.attachments[index];
  if (!a) return null;
  const params = (a.headers.get('content-type') as { params?: Record<string, string> } | undefined)?.params ?? {};
  const extra = (['charset', 'method'] as const).filter((k) => params[k] && /^[\w.-]+$/.test(params[k])).map((k) => `; ${k}=${params[k]}`);
  return { attachment: attachmentInfo(a, index), contentTypeHeader: `${a.contentType}${extra.join('')}`, content: a.content };
}
