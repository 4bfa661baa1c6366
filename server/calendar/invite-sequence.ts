/**
 * The SEQUENCE of the last invitation (METHOD:REQUEST) sent for a booking, used by the calendar feed (so the feed's
 * entry and the invitation are one entry in the person's calendar) and by the iTIP REPLY matcher (a reply older
 * than it does not count). Today it is derived exactly as server/sending/compose-message.ts derives it: the event's
 * schedule version − 1 (0 for the first timing, +1 per reschedule). When a per-booking SEQUENCE exists, this is
 * the one place to switch to it.
 */
export function lastInviteSequence(event: { scheduleVersion: number }): number {
  return Math.max(0, event.scheduleVersion - 1);
}

/** The invitation UID of a booking, as server/sending/compose-message.ts writes it: `booking-<uuid>@punctual`. */
export function inviteUidOf(bookingId: string): string {
  return `booking-${bookingId}@punctual`;
}
