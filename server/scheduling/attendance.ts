/**
 * The one use-case that records a person's answer to their booking — from the signed action link
 * (app/a/[token]/route.ts), a calendar reply (iTIP REPLY, RFC 5546 §3.2.3) or staff. Everything else calls
 * {@link answerBooking}; nothing else writes `bookings.attendance` except a staff cancellation
 * (server/scheduling/bookings.ts `cancelBooking`: `cancelled_by_staff`).
 *
 * Effects, all in ONE transaction under the booking's row lock (so two clicks 300 ms apart serialise: the second
 * finds the first's result and answers `already`):
 * - `confirmed`: attendance `confirmed` with source, who and when; waiting reminders of rules that target only
 *   unconfirmed bookings end `cancelled` ("already confirmed").
 * - `declined`: the booking is cancelled (status reason: the typed reason, else "declined by the participant"),
 *   attendance `declined`; its pending reminders end `cancelled` with the reason "declined by the participant";
 *   the domain event `booking_declined` is recorded (hosts hear of it per the notification policy).
 * - `tentative`: noted (tentative source and time); the state stays.
 * The pure decision is domain/scheduling/attendance.ts `decideAnswer`.
 */
import { bidiControlProblem, unstorableText } from '@/domain/text';
import { inviteSequenceOnCancel } from '@/db/queries/calendar/invite-sequence';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { endOnlyUnconfirmedReminders, endSendableReminders } from '@/db/queries/scheduling/scheduling';
import { ALREADY_CONFIRMED } from '@/domain/sending/send-decision';
import { setActor } from '@/db/queries/platform/actor';
import { bookings, contacts, events, type Booking } from '@/db/schema';
import { DECLINED_REMINDER_REASON, decideAnswer, type AttendanceAnswer, type AttendanceSource, type AttendanceState } from '@/domain/scheduling/attendance';
import { AppError } from '@/server/platform/errors';
import { recordBookingDeclined } from './domain-events';

/** Longest reason kept (characters); a longer one is cut. */
export const ANSWER_REASON_MAX = 500;

/** The input of {@link answerBooking}. `now`: the database clock's instant (server/platform/clock.ts). */
export interface AnswerBookingInput {
  tenantId: string;
  bookingId: string;
  answer: AttendanceAnswer;
  source: AttendanceSource;
  /** Who answered: a staff email, the replying address; default: `participant` (link) / the source. */
  actor?: string;
  /** Why (declined only; optional, as typed, trimmed, at most {@link ANSWER_REASON_MAX} characters). */
  reason?: string | null;
  now: Date;
}

/** What {@link answerBooking} did. */
export type AnswerBookingResult =
  | { kind: 'applied'; answer: AttendanceAnswer; attendance: AttendanceState; bookingId: string; eventId: string; remindersEnded: number }
  | { kind: 'already'; answer: AttendanceAnswer; attendance: AttendanceState; bookingId: string; eventId: string; since: Date | null }
  | { kind: 'refused'; answer: AttendanceAnswer; reason: 'booking_cancelled' | 'event_cancelled' | 'event_over'; bookingId: string; eventId: string };

/**
 * Records one answer to one booking (module doc). Idempotent: a repeat answers `already` and writes nothing.
 * `db` may be an open transaction.
 * @throws AppError not_found (no such booking in this tenant), validation (`answer`, `source`, `reason`: a NUL character
 *   or a text-direction control, domain/text.ts).
 */
export async function answerBooking(db: Db | Tx, input: AnswerBookingInput): Promise<AnswerBookingResult> {
  if (!['confirmed', 'declined', 'tentative'].includes(input.answer)) throw new AppError('validation', 'answer: must be confirmed, declined or tentative', 'answer');
  if (!['link', 'calendar_reply', 'staff'].includes(input.source)) throw new AppError('validation', 'source: must be link, calendar_reply or staff', 'source');
  const actor = (input.actor ?? '').trim() || (input.source === 'staff' ? 'staff' : 'participant');
  const reason = (input.reason ?? '').trim().slice(0, ANSWER_REASON_MAX) || null;
  // Typed text quoted in the hosts' message: refused, never stripped (docs/architecture.md, domain/text.ts).
  if (reason) {
    const problem = unstorableText(reason) ? 'must not contain a NUL character or a broken surrogate' : bidiControlProblem(reason);
    if (problem) throw new AppError('validation', `reason: ${problem}`, 'reason');
  }
  return db.transaction(async (tx) => {
    await setActor(tx, actor);
    // The row lock orders two answers (and a concurrent send's FOR SHARE re-read) on this booking.
    const [b] = await tx.select().from(bookings).where(and(eq(bookings.tenantId, input.tenantId), eq(bookings.id, input.bookingId))).for('update');
    if (!b) throw new AppError('not_found', `booking ${input.bookingId} not found`, 'bookingId');
    const [event] = await tx.select().from(events).where(and(eq(events.tenantId, input.tenantId), eq(events.id, b.eventId)));
    if (!event) throw new AppError('not_found', `booking ${input.bookingId} not found`, 'bookingId');
    const base = { answer: input.answer, bookingId: b.id, eventId: b.eventId };
    const decision = decideAnswer({ answer: input.answer, attendance: b.attendance, bookingStatus: b.status, eventStatus: event.status, eventEndsAt: event.endsAt, now: input.now });
    if (decision.kind === 'refused') return { ...base, kind: 'refused', reason: decision.reason };
    if (decision.kind === 'already') return { ...base, kind: 'already', attendance: b.attendance === 'unconfirmed' ? decision.state : b.attendance, since: b.attendanceAt };
    if (decision.kind === 'note_tentative') {
      await tx.update(bookings).set({ tentativeSource: input.source, tentativeAt: input.now, updatedAt: input.now }).where(eq(bookings.id, b.id));
      return { ...base, kind: 'applied', attendance: b.attendance, remindersEnded: 0 };
    }
    const who = { attendance: decision.state, attendanceSource: input.source, attendanceBy: actor, attendanceAt: input.now, updatedAt: input.now };
    if (!decision.cancelsBooking) {
      await tx.update(bookings).set(who).where(eq(bookings.id, b.id));
      // Rules for people who have not confirmed yet: their waiting reminders are moot now (re-checked at send time too).
      const ended = await endOnlyUnconfirmedReminders(tx, input.tenantId, b.id, ALREADY_CONFIRMED);
      return { ...base, kind: 'applied', attendance: decision.state, remindersEnded: ended };
    }
    const [after] = await tx
      .update(bookings)
      .set({ ...who, status: 'cancelled', statusReason: reason ?? DECLINED_REMINDER_REASON, inviteSequence: inviteSequenceOnCancel })
      .where(eq(bookings.id, b.id))
      .returning();
    const ended = await endSendableReminders(tx, input.tenantId, { bookingId: b.id }, 'cancelled', DECLINED_REMINDER_REASON);
    const [c] = await tx.select({ name: contacts.name, email: contacts.email }).from(contacts).where(eq(contacts.id, b.contactId));
    await recordBookingDeclined(tx, after as Booking, event, { participantName: c?.name.trim() || c?.email || '', source: input.source }, reason, input.now);
    return { ...base, kind: 'applied', attendance: decision.state, remindersEnded: ended };
  });
}
