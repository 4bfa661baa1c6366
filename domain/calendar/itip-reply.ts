/**
 * iTIP REPLY (RFC 5546 §3.2.3): reading the reply a participant's calendar sends when they answer an invitation
 * (Accept / Decline / Tentative), and the pure rule deciding whether it counts for a booking.
 *
 * Parsing uses ical.js (RFC 5545 unfolding, parameters, escaping). A REPLY carries `METHOD:REPLY` and one VEVENT
 * with UID, SEQUENCE (absent = 0, RFC 5545 §3.8.7.4), DTSTAMP, ORGANIZER and exactly one ATTENDEE whose PARTSTAT is
 * the answer. Outlook ([MS-OXCICAL] §2.1.3.1.1.20.2) adds `X-MICROSOFT-CDO-*` properties and may send a
 * RECURRENCE-ID; Google Calendar adds `X-NUM-GUESTS` to the ATTENDEE; Apple Calendar adds an `EMAIL` parameter.
 * None of those change the reading here.
 *
 * Matching ({@link matchReply}): a reply counts only when it is for the booking's own UID
 * (`booking-<uuid>@punctual`, domain/calendar/invite-sequence.ts `inviteUidOf`), its ATTENDEE is the
 * booking's address (case-insensitive `mailto:`), and its SEQUENCE is not older than the last one sent (§2.1.5:
 * a reply to a superseded version of the event says nothing about the current one). Everything else is kept and
 * shown to staff, never applied.
 */
import ICAL from 'ical.js';

/** The answers a REPLY can carry that Punctual acts on (RFC 5545 §3.2.12 PARTSTAT for VEVENT). */
export type ReplyAnswer = 'confirmed' | 'declined' | 'tentative';

/** One REPLY read from its iCalendar text. Addresses are lowercased, without `mailto:`. */
export interface ParsedReply {
  method: string | null;
  uid: string | null;
  /** SEQUENCE of the VEVENT (0 when absent). */
  sequence: number;
  /** The ATTENDEEs of the VEVENT (a REPLY has exactly one; more are kept to refuse the reply). */
  attendees: { email: string; partstat: string | null }[];
  /** RECURRENCE-ID present: the reply is about one occurrence (Punctual's invitations have none). */
  recurrenceId: boolean;
  prodId: string | null;
}

/** A calendar text that is not an iCalendar object we can read. */
export class ReplyParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplyParseError';
  }
}

function mailtoAddress(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const v = value.trim().replace(/^mailto:/i, '').trim();
  return v.includes('@') ? v.toLowerCase() : null;
}

/**
 * Reads a REPLY (the first VEVENT of the first VCALENDAR).
 * @throws ReplyParseError when the text is not iCalendar or has no VEVENT.
 */
export function parseItipReply(icsText: string): ParsedReply {
  let root: InstanceType<typeof ICAL.Component>;
  try {
    root = new ICAL.Component(ICAL.parse(icsText.replace(/^\uFEFF/, '')) as unknown as unknown[]);
  } catch (e) {
    throw new ReplyParseError(`not iCalendar: ${(e as Error).message}`);
  }
  const cal = root.name === 'vcalendar' ? root : root.getFirstSubcomponent('vcalendar');
  if (!cal) throw new ReplyParseError('no VCALENDAR');
  const vevent = cal.getFirstSubcomponent('vevent');
  if (!vevent) throw new ReplyParseError('no VEVENT');
  const seq = vevent.getFirstPropertyValue('sequence');
  const sequence = typeof seq === 'number' ? seq : Number.parseInt(String(seq ?? '0'), 10);
  const attendees = vevent.getAllProperties('attendee').map((p) => {
    const partstat = p.getParameter('partstat');
    return { email: mailtoAddress(p.getFirstValue()) ?? '', partstat: typeof partstat === 'string' ? partstat.toUpperCase() : null };
  });
  const method = cal.getFirstPropertyValue('method');
  const uid = vevent.getFirstPropertyValue('uid');
  const prodId = cal.getFirstPropertyValue('prodid');
  return {
    method: typeof method === 'string' ? method.toUpperCase() : null,
    uid: typeof uid === 'string' ? uid.trim() : null,
    sequence: Number.isFinite(sequence) ? sequence : 0,
    attendees,
    recurrenceId: vevent.hasProperty('recurrence-id'),
    prodId: typeof prodId === 'string' ? prodId : null,
  };
}

const BOOKING_UID = /^booking-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@punctual$/i;

/** The booking id named by an invitation UID `booking-<uuid>@punctual` (lowercased), or null for any other UID. */
export function bookingIdFromUid(uid: string | null): string | null {
  const m = uid ? BOOKING_UID.exec(uid) : null;
  return m ? m[1].toLowerCase() : null;
}

/** What the matcher knows of the booking a UID names. */
export interface ReplyBooking {
  id: string;
  /** The booking's contact address (the invitation's ATTENDEE). */
  email: string;
  status: string;
  /** SEQUENCE of the last invitation sent for this booking (domain/calendar/invite-sequence.ts `inviteSequenceOf`). */
  lastSentSequence: number;
}

/** The decision on one reply: apply the answer, or keep it with the reason it does not count. */
export type ReplyDecision =
  | { outcome: 'apply'; answer: ReplyAnswer; attendee: string }
  | { outcome: 'unmatched' | 'ignored'; reason: string; attendee: string | null };

const ANSWERS: Record<string, ReplyAnswer> = { ACCEPTED: 'confirmed', DECLINED: 'declined', TENTATIVE: 'tentative' };

/**
 * Whether `reply` counts for `booking` (null: the UID names no booking we know). Pure. Checks, in order:
 * METHOD is REPLY; the UID is a booking UID and the booking exists (else `unmatched`); exactly one ATTENDEE; it is
 * the booking's address (case-insensitive; else `unmatched`); no RECURRENCE-ID; SEQUENCE ≥ the last sent; PARTSTAT is ACCEPTED,
 * DECLINED or TENTATIVE; the booking is not cancelled. Each failure is `ignored` with a reason staff can read.
 */
export function matchReply(reply: ParsedReply, booking: ReplyBooking | null): ReplyDecision {
  const attendee = reply.attendees.length === 1 ? reply.attendees[0].email || null : null;
  if (reply.method !== 'REPLY') return { outcome: 'ignored', reason: `METHOD is ${reply.method ?? 'missing'}, not REPLY`, attendee };
  if (!bookingIdFromUid(reply.uid) || !booking || booking.id !== bookingIdFromUid(reply.uid)) {
    return { outcome: 'unmatched', reason: `UID ${reply.uid ?? '(none)'} names no booking`, attendee };
  }
  if (reply.attendees.length !== 1) return { outcome: 'ignored', reason: `${reply.attendees.length} ATTENDEEs (a REPLY has exactly one)`, attendee };
  if (!attendee || attendee !== booking.email.trim().toLowerCase()) {
    return { outcome: 'unmatched', reason: `ATTENDEE ${attendee ?? '(none)'} is not the booking's address`, attendee };
  }
  if (reply.recurrenceId) return { outcome: 'ignored', reason: 'the reply is about one occurrence (RECURRENCE-ID)', attendee };
  if (reply.sequence < booking.lastSentSequence) {
    return { outcome: 'ignored', reason: `SEQUENCE ${reply.sequence} is older than the last sent (${booking.lastSentSequence})`, attendee };
  }
  const partstat = reply.attendees[0].partstat;
  const answer = partstat ? ANSWERS[partstat] : undefined;
  if (!answer) return { outcome: 'ignored', reason: `PARTSTAT ${partstat ?? '(none)'} is not an answer`, attendee };
  if (booking.status === 'cancelled') return { outcome: 'ignored', reason: 'the booking is already cancelled', attendee };
  return { outcome: 'apply', answer, attendee };
}
