/**
 * The development mailbox as one staff member sees it: which caught messages they may list (dev/queries/mailbox.ts
 * scope: their tenant's, account mail only when it is theirs), and every credential in them — password, sign-in
 * and verification links, preference and unsubscribe links, action tokens (domain/sending/credential-mask.ts) — hidden
 * unless they are signed in as the message's recipient. The masking covers every way the mailbox shows a message:
 * the list (SMS text, subject), the detail (headers, HTML, text), the raw source (each text part decoded, masked
 * and re-encoded with mailsplit, header lines unfolded and masked; SMS forms decoded and re-encoded) and the
 * attachments (text and calendar parts; calendar lines unfolded first, RFC 5545 §3.1, so a folded link cannot
 * slip through in pieces). Pages and API routes call only these functions, never the queries directly.
 *
 * The mailbox exists only where the built-in catchers run and `PUNCTUAL_MAILBOX=1` says so (server/platform/mailbox-switch.ts mailboxEnabled;
 * `npm start` sets it): elsewhere its pages and API answer 404.
 *
 * Attachments are mailparser's `attachments` list, in its order (depth-first MIME order), and are addressed by
 * their position in it. A Punctual booking email carries its invitation twice (domain/calendar/calendar-invite.ts,
 * nodemailer's `icalEvent`): a `text/calendar; method=…` alternative without a file name, and an
 * `application/ics` attachment named `invite.ics` or `cancel.ics` — both are listed.
 */
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { Joiner, Rewriter, Splitter } from '@zone-eu/mailsplit';
import { simpleParser } from 'mailparser';
import type { DbOrTx } from '@/db/client';
import {
  countCaughtMessages,
  getCaughtMessage,
  getCaughtMessageRaw,
  listCaughtMessages,
  type CaughtChannel,
  type CaughtMessageListItem,
  type CaughtMessageRaw,
  type CaughtMessageView,
  type MailboxScope,
} from '@/dev/queries/mailbox';
import { isRecipient } from '@/domain/sending/caught-identity';
import { MASK_CHAR, maskCredentials, maskCredentialsDeep, maskCredentialsInHtml } from '@/domain/sending/credential-mask';
import { icsKeyLines, type IcsKeyLine } from '@/domain/calendar/ics-key-lines';


/** Who is looking: the signed-in staff member's tenant and sign-in address. */
type MailboxViewer = MailboxScope;

/** Whether `viewer` sees the credentials of a message sent to `envelopeTo` (only its recipient does). */
function seesCredentials(viewer: MailboxViewer, envelopeTo: readonly string[]): boolean {
  return isRecipient(viewer.viewerEmail, envelopeTo);
}

/**
 * One page of a channel's caught messages for `viewer` (with `q`: those whose recipient, subject or Message-ID
 * contains it), with the counts of every channel (unfiltered); credentials masked.
 */
export async function mailboxPage(
  db: DbOrTx,
  viewer: MailboxViewer,
  channel: CaughtChannel,
  page: { limit: number; offset: number },
  q = '',
): Promise<{ counts: Record<CaughtChannel, number>; total: number; items: CaughtMessageListItem[] }> {
  const [counts, list] = await Promise.all([countCaughtMessages(db, viewer), listCaughtMessages(db, page, viewer, channel, q)]);
  const items = list.items.map((m) =>
    seesCredentials(viewer, m.envelopeTo)
      ? m
      : { ...m, subject: m.subject == null ? null : maskCredentials(m.subject).text, text: m.text == null ? null : maskCredentials(m.text).text },
  );
  return { counts, total: list.total, items };
}

/** Caught message `id` as `viewer` may see it (credentials masked unless theirs), or null (a 404). */
export async function caughtMessageFor(db: DbOrTx, viewer: MailboxViewer, id: string): Promise<CaughtMessageView | null> {
  const m = await getCaughtMessage(db, id, viewer);
  if (!m || seesCredentials(viewer, m.envelopeTo)) return m;
  const html = m.html == null ? null : maskCredentialsInHtml(m.html);
  const text = m.text == null ? null : maskCredentials(m.text);
  const headers = maskCredentialsDeep(m.headers);
  return {
    ...m,
    subject: m.subject == null ? null : maskCredentials(m.subject).text,
    headers,
    html: html?.html ?? null,
    text: text?.text ?? null,
    // The largest count of one rendering: the HTML and text parts carry the same links.
    credentialsHidden: Math.max(html?.hidden ?? 0, text?.hidden ?? 0, JSON.stringify(headers) === JSON.stringify(m.headers) ? 0 : 1),
  };
}

/** Whether a MIME part holds text a credential could be written in (HTML, plain text, calendar, JSON…). */
function textualType(contentType: string | false | null | undefined): boolean {
  return !!contentType && (/^text\//i.test(contentType) || /^application\/(ics|json|xml|x-www-form-urlencoded)$/i.test(contentType));
}

/** RFC 5545 §3.1 unfolding: a line break followed by one space or tab is removed. */
function unfoldCalendar(text: string): string {
  return text.replace(/\r?\n[ \t]/g, '');
}

/** Decoded text of a part in its charset (UTF-8 when unknown or unsupported by this runtime). */
function decodeText(bytes: Buffer, charset: string | false | null | undefined): string {
  try {
    return new TextDecoder(charset || 'utf-8').decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

/**
 * A part's content with its credentials masked (calendar text unfolded first, HTML links unlinked), or null when
 * it holds none (the part is then left exactly as it was).
 */
function maskPart(text: string, contentType: string | false | null | undefined): string | null {
  const type = String(contentType || '').toLowerCase();
  const masked =
    type === 'text/html'
      ? (({ html, hidden }) => ({ text: html, hidden }))(maskCredentialsInHtml(text))
      : maskCredentials(type === 'text/calendar' || type === 'application/ics' ? unfoldCalendar(text) : text);
  return masked.hidden > 0 ? masked.text : null;
}

/**
 * An RFC 5322 message with every credential masked (module doc): header lines unfolded (RFC 5322 §2.2.3) and
 * masked, every textual leaf part decoded from its transfer encoding and charset, masked, and written back as
 * UTF-8 in the same transfer encoding. Other parts pass through as they are. @throws only on a stream failure.
 */
async function maskRawEmail(raw: string): Promise<string> {
  // A message without credentials is served byte for byte as received.
  let changed = false;
  const headerMasker = new Transform({
    objectMode: true,
    transform(data: { type: string; headers?: { getList(): { key: string; line: string }[]; changed: boolean } }, _enc, cb: TransformCallback) {
      if (data.type === 'node' && data.headers) {
        for (const line of data.headers.getList()) {
          const unfolded = line.line.replace(/\r?\n(?=[ \t])/g, '');
          const masked = maskCredentials(unfolded).text;
          if (masked !== unfolded) {
            // mailsplit holds header lines as binary strings (one char per byte): the mask goes in as its UTF-8 bytes.
            line.line = masked.replaceAll(MASK_CHAR, Buffer.from(MASK_CHAR, 'utf8').toString('binary'));
            data.headers.changed = true;
            changed = true;
          }
        }
      }
      cb(null, data);
    },
  });
  const rewriter = new Rewriter((node) => !node.multipart && textualType(node.contentType));
  rewriter.on('node', (data: { node: { contentType: string | false; charset: string | false; setCharset(c: string): void }; decoder: Readable; encoder: NodeJS.WritableStream }) => {
    const chunks: Buffer[] = [];
    data.decoder.on('data', (c: Buffer) => chunks.push(c));
    data.decoder.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const masked = maskPart(decodeText(bytes, data.node.charset), data.node.contentType);
      if (masked === null) return data.encoder.end(bytes);
      changed = true;
      data.node.setCharset('utf-8');
      data.encoder.end(Buffer.from(masked, 'utf8'));
    });
  });
  const out: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    // mailsplit's typings name only its object events: its classes are Node streams all the same.
    const joiner = new Joiner() as unknown as Transform;
    const splitter = new Splitter() as unknown as Transform;
    const rewriting = rewriter as unknown as Transform;
    for (const s of [splitter, headerMasker, rewriting, joiner]) s.on('error', reject);
    joiner.on('data', (c: Buffer) => out.push(c));
    joiner.on('end', () => resolve());
    Readable.from([Buffer.from(raw, 'utf8')]).pipe(splitter).pipe(headerMasker).pipe(rewriting).pipe(joiner);
  });
  return changed ? Buffer.concat(out).toString('utf8') : raw;
}

/** A caught message's raw source with its credentials masked, by channel (module doc). */
async function maskedRaw(msg: CaughtMessageRaw): Promise<string> {
  if (msg.channel === 'email') return maskRawEmail(msg.raw);
  if (msg.channel === 'sms') {
    const form = new URLSearchParams(msg.raw);
    let hidden = 0;
    for (const [k, v] of [...form.entries()]) {
      const masked = maskCredentials(v);
      hidden += masked.hidden;
      form.set(k, masked.text);
    }
    return hidden > 0 ? form.toString() : msg.raw;
  }
  return maskCredentials(msg.raw).text;
}

/** One attachment of a caught email, as listed on its mailbox page. */
interface CaughtAttachment {
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
interface CaughtCalendar {
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

/**
 * The raw source of caught message `id` as `viewer` may see it — as received when they are its recipient, with
 * every credential masked otherwise (module doc) — or null when it is not in their mailbox (a 404).
 */
export async function caughtMessageRawFor(db: DbOrTx, viewer: MailboxViewer, id: string): Promise<CaughtMessageRaw | null> {
  const msg = await getCaughtMessageRaw(db, id, viewer);
  if (!msg || seesCredentials(viewer, msg.envelopeTo)) return msg;
  return { ...msg, raw: await maskedRaw(msg) };
}

/** One attachment's bytes, for download. */
interface CaughtAttachmentFile {
  attachment: CaughtAttachment;
  /** The `Content-Type` to serve it with: its MIME type plus its `charset` and `method` parameters, when given. */
  contentTypeHeader: string;
  content: Buffer;
}

/**
 * Attachment number `index` (0-based, {@link CaughtAttachment.index}) of caught email `id` as `viewer` may see it
 * (read from the raw source {@link caughtMessageRawFor} gives them, so a text or calendar attachment has its
 * credentials masked unless they are its recipient), or null when the message is not in their mailbox, is not
 * an email, or has no such attachment.
 */
export async function caughtAttachment(db: DbOrTx, viewer: MailboxViewer, id: string, index: number): Promise<CaughtAttachmentFile | null> {
  if (!Number.isSafeInteger(index) || index < 0) return null;
  const msg = await caughtMessageRawFor(db, viewer, id);
  if (!msg || msg.channel !== 'email') return null;
  const parsed = await simpleParser(msg.raw);
  const a = parsed.attachments[index];
  if (!a) return null;
  const params = (a.headers.get('content-type') as { params?: Record<string, string> } | undefined)?.params ?? {};
  const extra = (['charset', 'method'] as const).filter((k) => params[k] && /^[\w.-]+$/.test(params[k])).map((k) => `; ${k}=${params[k]}`);
  return { attachment: attachmentInfo(a, index), contentTypeHeader: `${a.contentType}${extra.join('')}`, content: a.content };
}
