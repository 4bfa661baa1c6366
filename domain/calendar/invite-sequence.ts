/**
 * The identity of a booking's calendar entry across every invitation, feed and reply: ONE UID per booking and a
 * SEQUENCE that only goes up. Pure: no I/O, no clock.
 *
 * Rules, with their source:
 *  - RFC 5546 §2.1.4 / RFC 5545 §3.8.7.4: a calendar client applies an update of a UID only when its SEQUENCE is not
 *    lower than the one it holds; the organizer increments it with every significant revision, and a CANCEL must
 *    carry a SEQUENCE above the REQUEST it cancels.
 *  - Punctual keeps the counter per booking (`bookings.invite_sequence`): 0 when the booking is made (the
 *    confirmation's REQUEST), then {@link nextInviteSequence} in the SAME transaction as every change that sends the
 *    person a new invitation — a reschedule, a details change staff chose to tell people about, the cancellation of
 *    the booking or of its event. Timing, details and cancellations share one counter, so any interleaving of them
 *    gives strictly higher values in the order the changes were made.
 *  - A message fixes the value at its claim ({@link inviteSequenceOf} of the booking as the send path read it under
 *    its locks; `deliveries.invite_sequence`): a retry or replay writes the same SEQUENCE even after a later change,
 *    whose own message carries the higher value.
 *  - A change that tells nobody (a typo fixed without notifying) does not move it: nothing is sent, and RFC 5546
 *    leaves a non-significant change's SEQUENCE to the organizer.
 */

/** The part of a booking row this module reads (db/schema/scheduling.ts `bookings`). */
export interface InviteSequenced {
  /** The counter as stored (integer ≥ 0). */
  inviteSequence: number;
}

/**
 * THE SEQUENCE of booking X now: the value its calendar entry has after the last change that sent (or is sending) an
 * invitation — what an invitation composed now, a personal calendar feed, or the check of an iTIP REPLY ("not older
 * than the last sent") uses. A stored value that is not a non-negative integer (never written by Punctual) reads as 0.
 */
export function inviteSequenceOf(booking: InviteSequenced): number {
  const n = booking.inviteSequence;
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

/** The SEQUENCE after one more invitation-sending change: one higher than {@link inviteSequenceOf}. */
export function nextInviteSequence(booking: InviteSequenced): number {
  return inviteSequenceOf(booking) + 1;
}

/**
 * The SEQUENCE a message's invitation carries: the one fixed at its claim when recorded (`claimed`, from
 * `deliveries.invite_sequence`), else — a delivery claimed before the value was recorded — the booking's now.
 */
export function messageInviteSequence(claimed: number | null | undefined, booking: InviteSequenced): number {
  return claimed !== null && claimed !== undefined && Number.isSafeInteger(claimed) && claimed >= 0 ? claimed : inviteSequenceOf(booking);
}

/** The UID of a booking's calendar entry in every invitation and feed: `booking-<booking id>@punctual`. */
export function inviteUidOf(bookingId: string): string {
  return `booking-${bookingId}@punctual`;
}

/** The booking id of a UID written by {@link inviteUidOf}, or null for any other UID (case-sensitive, as written). */
export function bookingIdOfInviteUid(uid: string): string | null {
  const m = /^booking-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@punctual$/.exec(uid.trim());
  return m ? m[1] : null;
}
