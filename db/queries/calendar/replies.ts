/**
 * Stored iTIP replies (db/schema/calendar.ts `calendar_replies`): the booking a reply's UID names, storing a reply
 * once per raw message, recording its outcome, and the newest replies of a tenant for staff.
 */
import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { bookings, calendarReplies, contacts, events, type Booking, type CalendarReply, type Event } from '@/db/schema';

/**
 * The booking with this id in ANY tenant, with its contact's address and its event, read FOR UPDATE (the reply's
 * answer is decided and applied under the lock). Cross-tenant by design: an inbound reply names its booking only
 * by the invitation UID; the tenant is the booking's. Undefined when there is none.
 */
export async function replyBookingForUpdate(tx: DbOrTx, bookingId: string): Promise<{ booking: Booking; event: Event; email: string } | undefined> {
  const [row] = await tx
    .select({ booking: bookings, event: events, email: contacts.email })
    .from(bookings)
    .innerJoin(events, and(eq(events.tenantId, bookings.tenantId), eq(events.id, bookings.eventId)))
    .innerJoin(contacts, and(eq(contacts.tenantId, bookings.tenantId), eq(contacts.id, bookings.contactId)))
    .where(eq(bookings.id, bookingId))
    .for('update', { of: bookings });
  return row;
}

/** The stored fields of a reply (see the table's doc); `outcome` may be set again by {@link setReplyOutcome}. */
export type NewReply = Omit<typeof calendarReplies.$inferInsert, 'id' | 'receivedAt'>;

/** Stores a reply unless one with the same `sha256` exists; returns the new row, or undefined for a duplicate. */
export async function insertReply(db: DbOrTx, r: NewReply & { receivedAt: Date }): Promise<CalendarReply | undefined> {
  const [row] = await db.insert(calendarReplies).values(r).onConflictDoNothing({ target: calendarReplies.sha256 }).returning();
  return row;
}

/** The reply stored for these raw bytes (by SHA-256), or undefined. */
export async function replyBySha(db: DbOrTx, sha256: string): Promise<CalendarReply | undefined> {
  const [row] = await db.select().from(calendarReplies).where(eq(calendarReplies.sha256, sha256));
  return row;
}

/** Sets the outcome and reason of a stored reply. */
export async function setReplyOutcome(db: DbOrTx, id: string, outcome: string, reason: string): Promise<void> {
  await db.update(calendarReplies).set({ outcome, reason }).where(eq(calendarReplies.id, id));
}

/** One line of the staff list: the reply without its raw text, with the event's title and the booked person's name. */
export type ReplyListRow = Omit<CalendarReply, 'raw'> & { eventTitle: string | null; contactName: string | null };

/** A tenant's newest replies (at most `limit`), optionally of one event or one contact's bookings, newest first; the raw text is left out. */
export async function listReplies(db: DbOrTx, tenantId: string, opts: { eventId?: string; contactId?: string; limit: number }): Promise<ReplyListRow[]> {
  const conds = [eq(calendarReplies.tenantId, tenantId)];
  if (opts.eventId) conds.push(eq(calendarReplies.eventId, opts.eventId));
  if (opts.contactId) conds.push(eq(bookings.contactId, opts.contactId));
  const rows = await db
    .select({
      id: calendarReplies.id,
      tenantId: calendarReplies.tenantId,
      bookingId: calendarReplies.bookingId,
      eventId: calendarReplies.eventId,
      source: calendarReplies.source,
      sha256: calendarReplies.sha256,
      messageId: calendarReplies.messageId,
      fromAddress: calendarReplies.fromAddress,
      uid: calendarReplies.uid,
      sequence: calendarReplies.sequence,
      attendee: calendarReplies.attendee,
      partstat: calendarReplies.partstat,
      outcome: calendarReplies.outcome,
      reason: calendarReplies.reason,
      rawTruncated: calendarReplies.rawTruncated,
      receivedAt: calendarReplies.receivedAt,
      eventTitle: events.title,
      contactName: contacts.name,
    })
    .from(calendarReplies)
    .leftJoin(events, and(eq(events.tenantId, tenantId), eq(events.id, calendarReplies.eventId)))
    .leftJoin(bookings, and(eq(bookings.tenantId, tenantId), eq(bookings.id, calendarReplies.bookingId)))
    .leftJoin(contacts, and(eq(contacts.tenantId, tenantId), eq(contacts.id, bookings.contactId)))
    .where(and(...conds))
    .orderBy(desc(calendarReplies.receivedAt), desc(calendarReplies.id))
    .limit(opts.limit);
  return rows;
}
