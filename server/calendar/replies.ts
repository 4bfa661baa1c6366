/**
 * iTIP REPLY ingest: a participant answered an invitation in their calendar (Accept / Decline / Tentative) and the
 * reply mail came back to an address Punctual controls. Read from a mail file (`npm run replies:ingest`,
 * scripts/replies-ingest.ts) or a provider's inbound-parse webhook (app/api/replies/inbound/route.ts); both call
 * {@link ingestReply}.
 *
 * The MIME structure is taken apart by mailparser (`simpleParser`: a `text/calendar` part — inline in a
 * multipart/alternative as Outlook and Google send it, or attached as Apple Calendar does — comes back as an
 * attachment; `application/ics` too). The calendar is read and the reply judged by domain/calendar/itip-reply.ts.
 * Every reply is stored (db/schema/calendar.ts `calendar_replies`) with its outcome and reason, once per raw
 * message (SHA-256): `applied` — DECLINED cancelled the booking, the same as "I can't come", ACCEPTED confirmed
 * attendance, the same as "I'll be there" (server/scheduling/attendance.ts `answerBooking`, source `calendar_reply`,
 * reason {@link DECLINED_REASON}: its reminders end, `booking_declined` is recorded and notifications follow the
 * policy); `noted` — TENTATIVE, or an answer already given; `unmatched` / `ignored` — it does not count (the matcher's
 * reason, or the booking or event is cancelled or over), nothing changes.
 */
import { createHash } from 'node:crypto';
import { simpleParser } from 'mailparser';
import type { Db } from '@/db/client';
import { insertReply, replyBookingForUpdate, replyBySha, setReplyOutcome } from '@/db/queries/calendar/replies';
import { bookingIdFromUid, matchReply, parseItipReply, ReplyParseError, type ParsedReply } from '@/domain/calendar/itip-reply';
import { answerBooking } from '@/server/scheduling/attendance';
import { inviteSequenceOf } from '@/domain/calendar/invite-sequence';

/** Largest reply message read, bytes (a reply is a few KiB; Outlook's with HTML ~30 KiB). */
export const MAX_REPLY_BYTES = 1_048_576;
/** How much of the raw message is stored, characters. */
const STORED_RAW_CHARS = 65_536;
/** The booking's cancellation reason when a participant declined in their calendar. */
export const DECLINED_REASON = "declined in the participant's calendar";

/** The actor named on a change a calendar reply made. */
const ACTOR = 'participant (calendar reply)';

/** A message that is not a calendar reply we can read (nothing is stored); the message says what is missing. */
export class ReplyIngestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplyIngestError';
  }
}

/** What became of one reply. `duplicate`: these bytes were ingested before (their first outcome is given). */
export interface ReplyResult {
  id: string;
  outcome: 'applied' | 'noted' | 'unmatched' | 'ignored';
  reason: string;
  bookingId: string | null;
  tenantId: string | null;
  duplicate: boolean;
}

/** The iCalendar texts of a mail: its `text/calendar` parts (method=REPLY first) and `application/ics` attachments. */
async function calendarTexts(raw: Buffer): Promise<{ texts: string[]; messageId: string | null; from: string | null }> {
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
  const parts = mail.attachments.filter((a) => /^(text\/calendar|application\/ics)$/i.test(a.contentType));
  return {
    texts: parts.map((a) => a.content.toString('utf8')),
    messageId: mail.messageId ?? null,
    from: mail.from?.value[0]?.address?.toLowerCase() ?? null,
  };
}

/**
 * Reads one reply mail and stores and applies it (module doc).
 * @param raw the RFC 5322 message as received (CRLF or LF), at most {@link MAX_REPLY_BYTES}.
 * @param opts.source `file` or `webhook`; `now` the UTC instant of the change (database clock).
 * @throws ReplyIngestError when the message is too large, has no calendar part, or none of its calendar parts is
 *   iCalendar with a VEVENT — nothing is stored then.
 */
export async function ingestReply(db: Db, raw: Buffer, opts: { source: 'file' | 'webhook'; now: Date }): Promise<ReplyResult> {
  if (raw.length > MAX_REPLY_BYTES) throw new ReplyIngestError(`the message is larger than ${MAX_REPLY_BYTES} bytes`);
  const sha256 = createHash('sha256').update(raw).digest('hex');
  const mail = await calendarTexts(raw);
  if (mail.texts.length === 0) throw new ReplyIngestError('no text/calendar part: not a calendar reply');
  let reply: ParsedReply | null = null;
  let problem = '';
  for (const t of mail.texts) {
    try {
      reply = parseItipReply(t);
      if (reply.method === 'REPLY') break;
    } catch (e) {
      if (!(e instanceof ReplyParseError)) throw e;
      problem = e.message;
    }
  }
  if (!reply) throw new ReplyIngestError(`the calendar part cannot be read: ${problem}`);
  const parsed = reply;

  const text = raw.toString('utf8');
  return db.transaction(async (tx) => {
    const bookingId = bookingIdFromUid(parsed.uid);
    const found = bookingId ? await replyBookingForUpdate(tx, bookingId) : undefined;
    const decision = matchReply(
      parsed,
      found ? { id: found.booking.id, email: found.email, status: found.booking.status, lastSentSequence: inviteSequenceOf(found.booking) } : null,
    );
    const partstat = parsed.attendees.length === 1 ? parsed.attendees[0].partstat : null;
    const stored = await insertReply(tx, {
      tenantId: found?.booking.tenantId ?? null,
      bookingId: found?.booking.id ?? null,
      eventId: found?.event.id ?? null,
      source: opts.source,
      sha256,
      messageId: storable(mail.messageId),
      fromAddress: storable(mail.from),
      uid: storable(parsed.uid?.slice(0, 500) ?? null),
      sequence: Number.isSafeInteger(parsed.sequence) && Math.abs(parsed.sequence) < 2 ** 31 ? parsed.sequence : null,
      attendee: storable(decision.attendee?.slice(0, 320) ?? null),
      partstat: storable(partstat?.slice(0, 40) ?? null),
      outcome: decision.outcome === 'apply' ? 'ignored' : decision.outcome,
      reason: storable(decision.outcome === 'apply' ? 'being applied' : decision.reason),
      raw: storable(text.slice(0, STORED_RAW_CHARS)),
      rawTruncated: text.length > STORED_RAW_CHARS,
      receivedAt: opts.now,
    });
    if (!stored) {
      const first = (await replyBySha(tx, sha256))!;
      return { id: first.id, outcome: first.outcome as ReplyResult['outcome'], reason: first.reason, bookingId: first.bookingId, tenantId: first.tenantId, duplicate: true };
    }
    const base = { id: stored.id, bookingId: stored.bookingId, tenantId: stored.tenantId, duplicate: false };
    if (decision.outcome !== 'apply') return { ...base, outcome: decision.outcome, reason: decision.reason };
    let outcome: ReplyResult['outcome'];
    let reason: string;
    // The same use-case as the participant's own "I'll be there" / "I can't come" links (server/scheduling/attendance.ts).
    const r = await answerBooking(tx, {
      tenantId: found!.booking.tenantId,
      bookingId: found!.booking.id,
      answer: decision.answer,
      source: 'calendar_reply',
      actor: decision.attendee || ACTOR,
      reason: decision.answer === 'declined' ? DECLINED_REASON : null,
      now: opts.now,
    });
    if (r.kind === 'applied') {
      outcome = decision.answer === 'tentative' ? 'noted' : 'applied';
      reason =
        decision.answer === 'declined' ? 'DECLINED: booking cancelled' : decision.answer === 'confirmed' ? 'ACCEPTED: attendance confirmed' : 'TENTATIVE noted';
    } else if (r.kind === 'already') {
      outcome = 'noted';
      reason = `${partstat}: nothing to change (attendance already ${r.attendance})`;
    } else {
      outcome = 'ignored';
      reason = `${partstat} not applied: ${r.reason.replace(/_/g, ' ')}`;
    }
    await setReplyOutcome(tx, stored.id, outcome, reason);
    return { ...base, outcome, reason };
  });
}

/**
 * `text` as PostgreSQL text can hold it: a NUL character (which a mail may carry, and `text` columns refuse) becomes
 * U+FFFD. Applied to everything stored of a reply, so a stray byte never turns a reply into an error (the mail is
 * kept with the rest of its content).
 */
function storable<T extends string | null | undefined>(text: T): T {
  return (typeof text === 'string' ? text.replace(/\u0000/g, '\uFFFD') : text) as T;
}

/** One line describing a result, e.g. `declined → booking 3f2a… cancelled`, for the command line. */
export function describeReply(r: ReplyResult): string {
  return `${r.duplicate ? 'already ingested: ' : ''}${r.outcome}${r.bookingId ? ` (booking ${r.bookingId})` : ''} — ${r.reason}`;
}
