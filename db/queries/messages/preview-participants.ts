/**
 * A few real bookings of one organisation to preview a message text with (the text editor's participant chooser):
 * bookings that are not cancelled, of events that are not cancelled, in one of the given roles — the next events
 * first, then the most recent past ones. Scoped to one tenant (invariant 9).
 */
import { and, asc, desc, eq, gte, inArray, isNotNull, lt, ne, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { bookings, contacts, events } from '@/db/schema';
import type { BookingRole } from '@/domain/vocabulary';

/** One booking the chooser offers. */
export interface PreviewParticipant {
  bookingId: string;
  contactName: string;
  role: BookingRole;
  eventTitle: string;
  startsAt: Date;
  timeZone: string;
}

/**
 * Up to `limit` bookings of `tenantId` in `roles` (upcoming from `now` first, soonest first; then past ones, latest
 * first). `needsRoom`: only events with an online room (a room-opening message cannot be written without one).
 */
export async function previewParticipants(db: DbOrTx, tenantId: string, opts: { roles: readonly BookingRole[]; needsRoom: boolean; now: Date; limit: number }): Promise<PreviewParticipant[]> {
  const base = (when: SQL | undefined) =>
    and(
      eq(bookings.tenantId, tenantId),
      ne(bookings.status, 'cancelled'),
      ne(events.status, 'cancelled'),
      inArray(bookings.role, [...opts.roles]),
      opts.needsRoom ? isNotNull(events.roomUrl) : undefined,
      when,
    );
  const select = () =>
    db
      .select({ bookingId: bookings.id, contactName: contacts.name, role: bookings.role, eventTitle: events.title, startsAt: events.startsAt, timeZone: events.timeZone })
      .from(bookings)
      .innerJoin(events, eq(events.id, bookings.eventId))
      .innerJoin(contacts, eq(contacts.id, bookings.contactId));
  const upcoming = await select().where(base(gte(events.startsAt, opts.now))).orderBy(asc(events.startsAt), asc(contacts.name)).limit(opts.limit);
  if (upcoming.length >= opts.limit) return upcoming;
  const past = await select()
    .where(base(lt(events.startsAt, opts.now)))
    .orderBy(desc(events.startsAt), asc(contacts.name))
    .limit(opts.limit - upcoming.length);
  return [...upcoming, ...past];
}
