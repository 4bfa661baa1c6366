/**
 * Writes of the per-booking calendar SEQUENCE (`bookings.invite_sequence`; the rule: domain/calendar/invite-sequence.ts).
 * Each runs in the caller's transaction, the one of the change that sends the new invitation (invariant 1), after the
 * caller locked the event row: a concurrent send reads the booking FOR SHARE and so sees the change and its new value
 * together, or neither. Changing only this column leaves the booking's row version alone (migration 0035).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { bookings } from '@/db/schema';

/**
 * One step up (`nextInviteSequence`: + 1) for every CONFIRMED booking of the event — the people an event-wide change
 * (reschedule, details change, event cancellation) sends a new invitation to.
 * @returns how many bookings moved.
 */
export async function bumpInviteSequencesOfEvent(db: DbOrTx, tenantId: string, eventId: string): Promise<number> {
  const rows = await db
    .update(bookings)
    .set({ inviteSequence: sql`${bookings.inviteSequence} + 1` })
    .where(and(eq(bookings.tenantId, tenantId), eq(bookings.eventId, eventId), eq(bookings.status, 'confirmed')))
    .returning({ id: bookings.id });
  return rows.length;
}

/**
 * The `invite_sequence` value of an UPDATE that cancels a booking: one step up when the booking is not cancelled yet
 * (its CANCEL carries the next value), unchanged when it already is (cancelling twice sends nothing new). Read in the
 * SET list, where `status` is still the old value.
 */
export const inviteSequenceOnCancel = sql<number>`case when ${bookings.status} <> 'cancelled' then ${bookings.inviteSequence} + 1 else ${bookings.inviteSequence} end`;
