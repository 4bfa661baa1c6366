/**
 * SQL of a contact's channel preferences and quiet hours (server/notifications/contact-preferences.ts), edited by staff and by
 * the person through a signed link, each with the row version they saw (invariant 11). Every query is scoped
 * to one tenant (invariant 9).
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { bookings, contacts, events, tenants, type Contact, type Tenant } from '@/db/schema';

/** The contact with its tenant, or undefined when it is not this tenant's. No lock. */
export async function readContactWithTenant(db: DbOrTx, tenantId: string, contactId: string): Promise<{ contact: Contact; tenant: Tenant } | undefined> {
  const [row] = await db
    .select({ contact: contacts, tenant: tenants })
    .from(contacts)
    .innerJoin(tenants, eq(tenants.id, contacts.tenantId))
    .where(and(eq(contacts.tenantId, tenantId), eq(contacts.id, contactId)));
  return row;
}

/** The contact row locked FOR UPDATE (version check and write under it), or undefined when not this tenant's. */
export async function lockContact(db: DbOrTx, tenantId: string, contactId: string): Promise<Contact | undefined> {
  const [row] = await db.select().from(contacts).where(and(eq(contacts.tenantId, tenantId), eq(contacts.id, contactId))).for('update');
  return row;
}

/**
 * Ids of the events (in id order) on which the contact has a live booking: the booking confirmed, the event
 * scheduled. These are the events whose reminders follow a change of the person's preferences.
 */
export async function liveEventIdsOfContact(db: DbOrTx, tenantId: string, contactId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ id: events.id })
    .from(bookings)
    .innerJoin(events, and(eq(events.id, bookings.eventId), eq(events.tenantId, tenantId)))
    .where(and(eq(bookings.tenantId, tenantId), eq(bookings.contactId, contactId), eq(bookings.status, 'confirmed'), eq(events.status, 'scheduled')))
    .orderBy(asc(events.id));
  return rows.map((r) => r.id);
}

/**
 * Locks the given events of the tenant FOR UPDATE in id order (the order every writer of several events uses,
 * so two of them cannot deadlock). Taken BEFORE the contact row: adding a booking locks its event first and
 * the contact second, and this keeps the same order.
 */
export async function lockEventsInOrder(db: DbOrTx, tenantId: string, eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), inArray(events.id, eventIds)))
    .orderBy(asc(events.id))
    .for('update');
}

/**
 * Writes some of the contact's editable columns and `updatedAt = at` (the row-version trigger bumps `version` and
 * sets `updated_by`). Returns the row. The one write behind the preference edit (here) and the participant edit
 * (updateContactDetails, db/queries/scheduling/participants.ts).
 */
export async function updateContactColumns(
  db: DbOrTx,
  tenantId: string,
  contactId: string,
  values: Partial<Pick<Contact, 'name' | 'email' | 'phone' | 'timeZone' | 'locale' | 'preferences' | 'quietHours'>>,
  at: Date,
): Promise<Contact> {
  const [row] = await db
    .update(contacts)
    .set({ ...values, updatedAt: at })
    .where(and(eq(contacts.tenantId, tenantId), eq(contacts.id, contactId)))
    .returning();
  return row;
}

/** Writes the contact's preference columns (the trigger bumps `version` and sets `updated_by`). */
export const updateContactPreferences: (db: DbOrTx, tenantId: string, contactId: string, values: Partial<Pick<Contact, 'preferences' | 'quietHours' | 'phone'>>, at: Date) => Promise<Contact> =
  updateContactColumns;
