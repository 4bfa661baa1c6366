/**
 * Attendance: whether the person behind a booking said they will come. Pure: no I/O, no clock reads.
 *
 * - States ({@link attendanceStates}): `unconfirmed` (nobody answered yet — every booking starts here), `confirmed`
 *   ("I'll be there", an ACCEPTED calendar reply, or staff), `declined` (the participant said they cannot come:
 *   the booking is cancelled with it) and `cancelled_by_staff` (staff cancelled the booking).
 * - Sources ({@link attendanceSources}): who answered — `link` (the signed action link in a message,
 *   server/sending/action-link.ts), `calendar_reply` (an iTIP REPLY from the person's calendar, RFC 5546 §3.2.3),
 *   `staff` (a staff member on the event page).
 * - `tentative` is an answer, not a state: it is noted (source and time), the state stays what it was.
 *
 * The decision for one answer is {@link decideAnswer}; server/scheduling/attendance.ts applies it under the
 * booking's row lock.
 */
import { isUuid } from '@/domain/ids';

export const attendanceStates = ['unconfirmed', 'confirmed', 'declined', 'cancelled_by_staff'] as const;
export type AttendanceState = (typeof attendanceStates)[number];

export const attendanceSources = ['link', 'calendar_reply', 'staff'] as const;
export type AttendanceSource = (typeof attendanceSources)[number];

/** What a person (or staff for them) can answer. */
export const attendanceAnswers = ['confirmed', 'declined', 'tentative'] as const;
export type AttendanceAnswer = (typeof attendanceAnswers)[number];

/** The two answers an action link carries; the byte in the token is the index here (append only). */
export const actionLinkAnswers = ['confirmed', 'declined'] as const;
export type ActionLinkAnswer = (typeof actionLinkAnswers)[number];

/** The reason the pending reminders of a declined booking end with (reminder status `cancelled`). */
export const DECLINED_REMINDER_REASON = 'declined by the participant';

/** What one answer does to a booking, given its current state. */
export type AnswerDecision =
  /** Change the attendance to `state` (and, for `declined`, cancel the booking). */
  | { kind: 'apply'; state: AttendanceState; cancelsBooking: boolean }
  /** Note a tentative answer; the state stays. */
  | { kind: 'note_tentative' }
  /** Already so: nothing to do (a repeated click, a re-sent reply). */
  | { kind: 'already'; state: AttendanceState }
  /** Not possible any more: the booking is cancelled (by staff or declined) and cannot be confirmed. */
  | { kind: 'refused'; reason: 'booking_cancelled' | 'event_cancelled' | 'event_over' };

/**
 * Decides one answer.
 * - A cancelled booking (declined, or cancelled by staff) answered again with `declined` is `already`; with
 *   `confirmed` or `tentative` is refused (`booking_cancelled`): a participant cannot undo a cancellation from a link.
 * - A cancelled event, or an event that has ended (`now` ≥ `eventEndsAt`), refuses every answer.
 * - `confirmed` on `confirmed` is `already`; `declined` on an uncancelled booking applies and cancels it.
 */
export function decideAnswer(input: {
  answer: AttendanceAnswer;
  attendance: AttendanceState;
  bookingStatus: 'confirmed' | 'cancelled';
  eventStatus: 'scheduled' | 'cancelled';
  eventEndsAt: Date;
  now: Date;
}): AnswerDecision {
  const cancelled = input.bookingStatus === 'cancelled';
  if (cancelled && input.answer === 'declined') return { kind: 'already', state: input.attendance === 'unconfirmed' || input.attendance === 'confirmed' ? 'cancelled_by_staff' : input.attendance };
  if (input.eventStatus === 'cancelled') return { kind: 'refused', reason: 'event_cancelled' };
  if (cancelled) return { kind: 'refused', reason: 'booking_cancelled' };
  if (input.now.getTime() >= input.eventEndsAt.getTime()) return { kind: 'refused', reason: 'event_over' };
  if (input.answer === 'tentative') return { kind: 'note_tentative' };
  if (input.answer === 'confirmed') return input.attendance === 'confirmed' ? { kind: 'already', state: 'confirmed' } : { kind: 'apply', state: 'confirmed', cancelsBooking: false };
  return { kind: 'apply', state: 'declined', cancelsBooking: true };
}

/**
 * The expiry of an action link for an event ending at `eventEndsAt` (UTC instant): the end itself, rounded UP to a
 * whole second (the token holds unix seconds). The same for every message of one booking and schedule, so every retry
 * renders the same link; after the event there is nothing left to answer.
 */
export function actionLinkExpiry(eventEndsAt: Date): Date {
  return new Date(Math.ceil(eventEndsAt.getTime() / 1000) * 1000);
}

/** What an action link names: the tenant, the booking, the answer, and until when it works (UTC, whole seconds). */
export interface ActionLinkSubject {
  tenantId: string;
  bookingId: string;
  answer: ActionLinkAnswer;
  expiresAt: Date;
}

/** Length of {@link encodeActionPayload}'s output: tenant uuid 16 + booking uuid 16 + answer 1 + expiry 4 (unix seconds, big-endian). */
export const ACTION_PAYLOAD_LENGTH = 37;

function uuidToBytes(id: string, out: Uint8Array, at: number): void {
  const hex = id.replace(/-/g, '');
  for (let i = 0; i < 16; i++) out[at + i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
}

function bytesToUuid(b: Uint8Array, at: number): string {
  const h = Array.from(b.subarray(at, at + 16), (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The 37 payload bytes of an action link token ({@link ACTION_PAYLOAD_LENGTH}).
 * @throws Error when an id is not a uuid, the answer is not one of {@link actionLinkAnswers}, or `expiresAt` is not
 *   between 1970 and 2106 (4 bytes of unix seconds).
 */
export function encodeActionPayload(s: ActionLinkSubject): Uint8Array {
  if (!isUuid(s.tenantId) || !isUuid(s.bookingId)) throw new Error('action link: tenantId and bookingId must be uuids');
  const answer = actionLinkAnswers.indexOf(s.answer);
  if (answer < 0) throw new Error(`action link: unknown answer ${JSON.stringify(s.answer)}`);
  const seconds = Math.floor(s.expiresAt.getTime() / 1000);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 0xffffffff) throw new Error('action link: expiresAt must be a date between 1970 and 2106');
  const out = new Uint8Array(ACTION_PAYLOAD_LENGTH);
  uuidToBytes(s.tenantId, out, 0);
  uuidToBytes(s.bookingId, out, 16);
  out[32] = answer;
  new DataView(out.buffer).setUint32(33, seconds, false);
  return out;
}

/** Reads {@link encodeActionPayload}'s bytes back; null when the length or the answer byte is wrong. Never throws. */
export function decodeActionPayload(b: Uint8Array): ActionLinkSubject | null {
  if (b.length !== ACTION_PAYLOAD_LENGTH) return null;
  const answer = actionLinkAnswers[b[32]];
  if (!answer) return null;
  const seconds = new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(33, false);
  return { tenantId: bytesToUuid(b, 0), bookingId: bytesToUuid(b, 16), answer, expiresAt: new Date(seconds * 1000) };
}

/** Staff words for an attendance state (the staff UI is English; participants read the catalog). */
export const attendanceLabel: Record<AttendanceState, string> = {
  unconfirmed: 'unconfirmed',
  confirmed: 'confirmed',
  declined: 'declined',
  cancelled_by_staff: 'cancelled by staff',
};

/** Staff words for who answered. */
const sourceWords: Record<AttendanceSource, string> = {
  link: 'by the participant (link in a message)',
  calendar_reply: 'by the participant (calendar reply)',
  staff: 'by staff',
};

/**
 * One line for staff on who set the attendance, e.g. "confirmed by the participant (link in a message)" or
 * "cancelled by staff (ada@studio.test)"; "no answer yet" when unconfirmed; " · tentative answer noted" appended when a
 * tentative answer was recorded. The time is shown next to it by the caller (in the event's zone).
 */
export function describeAttendance(a: { state: AttendanceState; source: AttendanceSource | null; by: string | null; tentativeAt: string | Date | null }): string {
  const tentative = a.tentativeAt ? ' · tentative answer noted' : '';
  if (a.state === 'unconfirmed' || !a.source) return `${a.state === 'unconfirmed' ? 'no answer yet' : attendanceLabel[a.state]}${tentative}`;
  const who = a.source === 'staff' && a.by && a.by !== 'staff' ? `by staff (${a.by})` : sourceWords[a.source];
  return `${attendanceLabel[a.state]} ${who}${tentative}`;
}
