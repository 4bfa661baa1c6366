/**
 * SQL of notification planning (server/notifications/notify.ts): the people of an event with their contact rows, and the
 * insert of planned notifications keyed by message key.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { bookings, contacts, domainEvents, events, notificationSettings, reminders, tenants, type Booking, type Contact, type Event, type NewReminder, type NotificationSettings, type Tenant } from '@/db/schema';

interface BookingWithContact {
  booking: Booking;
  contact: Contact;
}

/** Every booking of an event (any status) with its contact, tenant-scoped (invariant 9). */
export async function bookingsWithContacts(db: DbOrTx, tenantId: string, eventId: string): Promise<BookingWithContact[]> {
  return db
    .select({ booking: bookings, contact: contacts })
    .from(bookings)
    .innerJoin(contacts, eq(contacts.id, bookings.contactId))
    .where(and(eq(bookings.tenantId, tenantId), eq(bookings.eventId, eventId)));
}

/** The event and its tenant (no lock: the domain event already holds what changed). */
export async function eventWithTenant(db: DbOrTx, tenantId: string, eventId: string): Promise<{ event: Event; tenant: Tenant } | undefined> {
  const [row] = await db
    .select({ event: events, tenant: tenants })
    .from(events)
    .innerJoin(tenants, eq(tenants.id, events.tenantId))
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
  return row;
}

/** Notification settings of several tenants (the host and its guests' own organisations), by tenant id. */
export async function settingsOf(db: DbOrTx, tenantIds: string[]): Promise<Map<string, NotificationSettings>> {
  if (tenantIds.length === 0) return new Map();
  const rows = await db.select().from(notificationSettings).where(inArray(notificationSettings.tenantId, tenantIds));
  return new Map(rows.map((r) => [r.tenantId, r]));
}

/**
 * Inserts planned notifications; one whose message key already exists is left as it is (a redelivered
 * notify job plans nothing twice). Returns the rows actually inserted.
 */
export async function insertNotifications(db: DbOrTx, rows: NewReminder[]) {
  if (rows.length === 0) return [];
  return db
    .insert(reminders)
    .values(rows)
    .onConflictDoNothing({ target: reminders.messageKey })
    .returning({ id: reminders.id, dueAt: reminders.dueAt, status: reminders.status });
}

/** Contacts of these bookings (for planning reminders per the person's channel preferences). */
export async function contactsOfBookings(db: DbOrTx, tenantId: string, bookingIds: string[]): Promise<Map<string, Contact>> {
  if (bookingIds.length === 0) return new Map();
  const rows = await db
    .select({ bookingId: bookings.id, contact: contacts })
    .from(bookings)
    .innerJoin(contacts, eq(contacts.id, bookings.contactId))
    .where(and(eq(bookings.tenantId, tenantId), inArray(bookings.id, bookingIds)));
  return new Map(rows.map((r) => [r.bookingId, r.contact]));
}


/**
 * Every notification row of the contact's bookings whose domain event still has a message WAITING
 * (`scheduled`) for them, with its domain event: what a preferences save may add channels to.
 */
export async function notificationsWaitingFor(db: DbOrTx, tenantId: string, contactId: string) {
  return db
    .select({ reminder: reminders, domainEvent: domainEvents })
    .from(reminders)
    .innerJoin(bookings, eq(bookings.id, reminders.bookingId))
    .innerJoin(domainEvents, eq(domainEvents.id, reminders.domainEventId))
    .where(
      and(
        eq(reminders.tenantId, tenantId),
        eq(bookings.contactId, contactId),
        eq(reminders.kind, 'notification'),
        sql`exists (select 1 from reminders w where w.domain_event_id = ${reminders.domainEventId} and w.booking_id = ${reminders.bookingId} and w.status = 'scheduled')`,
      ),
    );
}
