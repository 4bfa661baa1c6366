/**
 * SQL of a participant edit (issue #12, server/scheduling/participants.ts): the booking with its contact, the person's other
 * bookings, the contact's details, and the re-timing of one booking's waiting rule reminders. Every query is
 * scoped to one tenant (invariant 9).
 */
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { bookings, contacts, events, reminders, type Booking, type Contact } from '@/db/schema';
import { updateContactColumns } from '@/db/queries/notifications/contact-preferences';

/** A booking of `tenantId` with its contact row (whatever tenant holds the contact) and its event's zone and title. No lock. */
export async function bookingWithContact(
  db: DbOrTx,
  tenantId: string,
  bookingId: string,
): Promise<{ booking: Booking; contact: Contact; event: { id: string; title: string; timeZone: string; status: string } } | undefined> {
  const [row] = await db
    .select({ booking: bookings, contact: contacts, event: { id: events.id, title: events.title, timeZone: events.timeZone, status: events.status } })
    .from(bookings)
    .innerJoin(contacts, eq(contacts.id, bookings.contactId))
    .innerJoin(events, and(eq(events.id, bookings.eventId), eq(events.tenantId, tenantId)))
    .where(and(eq(bookings.tenantId, tenantId), eq(bookings.id, bookingId)));
  return row;
}

/**
 * The contact's bookings in this tenant other than `exceptBookingId`, newest event first (at most `limit`), with
 * how many there are in all: the dialog says an edit changes the person on every one of them.
 */
export async function otherBookingsOfContact(
  db: DbOrTx,
  tenantId: string,
  contactId: string,
  exceptBookingId: string,
  limit: number,
): Promise<{ total: number; items: { bookingId: string; eventId: string; title: string; startsAt: Date; timeZone: string; status: string; eventStatus: string }[] }> {
  const where = and(eq(bookings.tenantId, tenantId), eq(bookings.contactId, contactId), ne(bookings.id, exceptBookingId), ne(bookings.status, 'cancelled'));
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(bookings).where(where);
  const items = await db
    .select({ bookingId: bookings.id, eventId: events.id, title: events.title, startsAt: events.startsAt, timeZone: events.timeZone, status: bookings.status, eventStatus: events.status })
    .from(bookings)
    .innerJoin(events, and(eq(events.id, bookings.eventId), eq(events.tenantId, tenantId)))
    .where(where)
    .orderBy(sql`${events.startsAt} desc`, asc(bookings.id))
    .limit(limit);
  return { total, items };
}

/** The tenant's contact (other than `contactId`) whose address is `email`, compared case-insensitively as the unique index does. */
export async function otherContactWithEmail(db: DbOrTx, tenantId: string, email: string, contactId: string): Promise<Pick<Contact, 'id' | 'name' | 'email'> | undefined> {
  const [row] = await db
    .select({ id: contacts.id, name: contacts.name, email: contacts.email })
    .from(contacts)
    .where(and(eq(contacts.tenantId, tenantId), sql`lower(${contacts.email}) = lower(${email})`, ne(contacts.id, contactId)));
  return row;
}

/** Writes the contact's details (the row-version trigger bumps `version` and sets `updated_by`). Returns the row. */
export const updateContactDetails: (db: DbOrTx, tenantId: string, contactId: string, values: Pick<Contact, 'name' | 'email' | 'phone' | 'timeZone' | 'locale'>, at: Date) => Promise<Contact> =
  updateContactColumns;

/** The contact's confirmed bookings on scheduled events of the tenant, among `eventIds` (the events already locked). */
export async function liveBookingsOfContact(db: DbOrTx, tenantId: string, contactId: string, eventIds: string[]): Promise<Booking[]> {
  if (eventIds.length === 0) return [];
  return db
    .select()
    .from(bookings)
    .where(and(eq(bookings.tenantId, tenantId), eq(bookings.contactId, contactId), eq(bookings.status, 'confirmed'), inArray(bookings.eventId, eventIds)))
    .orderBy(asc(bookings.eventId));
}

/**
 * The booking's rule reminders at schedule version `version` (every status), locked FOR UPDATE: a re-timing and
 * the dispatcher's claim (FOR UPDATE SKIP LOCKED, db/queries/sending/dispatch.ts) never both act on one row.
 */
export async function ruleRemindersOfBookingForUpdate(db: DbOrTx, tenantId: string, bookingId: string, version: number) {
  return db
    .select({ id: reminders.id, ruleId: reminders.ruleId, channel: reminders.channel, status: reminders.status, dueAt: reminders.dueAt, deferredFrom: reminders.deferredFrom, expiresAt: reminders.expiresAt })
    .from(reminders)
    .where(and(eq(reminders.tenantId, tenantId), eq(reminders.bookingId, bookingId), eq(reminders.kind, 'rule'), eq(reminders.scheduleVersion, version)))
    .orderBy(asc(reminders.id))
    .for('update');
}

/**
 * Moves a still-`scheduled` reminder to new due/expiry instants (its row and message key stay), with `reason`
 * as its status reason. Returns whether it moved (false when it left `scheduled` meanwhile — not expected under
 * the row lock of {@link ruleRemindersOfBookingForUpdate}).
 */
export async function retimeReminder(db: DbOrTx, id: string, to: { dueAt: Date; deferredFrom: Date | null; expiresAt: Date }, reason: string | null): Promise<boolean> {
  const rows = await db
    .update(reminders)
    .set({ dueAt: to.dueAt, deferredFrom: to.deferredFrom, expiresAt: to.expiresAt, statusReason: reason, updatedAt: sql`now()` })
    .where(and(eq(reminders.id, id), eq(reminders.status, 'scheduled')))
    .returning({ id: reminders.id });
  return rows.length === 1;
}

/** Per rule of `ruleIds`, the earliest due instant among the event's `scheduled` reminders (what its wake-up must be at). */
export async function earliestScheduledByRule(db: DbOrTx, tenantId: string, eventId: string, ruleIds: string[]): Promise<Map<string, Date>> {
  if (ruleIds.length === 0) return new Map();
  const rows = await db
    .select({ ruleId: reminders.ruleId, ms: sql<number>`(extract(epoch from min(${reminders.dueAt})) * 1000)::float8` })
    .from(reminders)
    .where(and(eq(reminders.tenantId, tenantId), eq(reminders.eventId, eventId), eq(reminders.status, 'scheduled'), inArray(reminders.ruleId, ruleIds)))
    .groupBy(reminders.ruleId);
  return new Map(rows.filter((r) => r.ruleId && r.ms !== null).map((r) => [r.ruleId!, new Date(Math.round(Number(r.ms)))]));
}
