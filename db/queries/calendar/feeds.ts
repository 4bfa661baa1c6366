/**
 * Calendar feeds: a contact's feed settings (generation, alarms, version), rotating them, and what the feed lists —
 * the contact's live bookings at live events ending after a cut-off, and the due instants of the reminders planned
 * for them. Every statement is scoped to one tenant (invariant 9).
 */
import { and, asc, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { bookings, calendarFeeds, contacts, events, reminders, tenants, type Booking, type Contact, type Event, type Tenant } from '@/db/schema';

/** A contact's feed settings; a contact without a row has generation 0, alarms off, version 0 (never saved). */
export interface FeedState {
  generation: number;
  alarms: boolean;
  version: number;
  rotatedAt: Date | null;
  rotatedBy: string | null;
}

/** The contact and its tenant, with the feed settings; undefined when the contact is not this tenant's. */
export async function feedOwner(db: DbOrTx, tenantId: string, contactId: string): Promise<{ contact: Contact; tenant: Tenant; feed: FeedState } | undefined> {
  const [row] = await db
    .select({ contact: contacts, tenant: tenants, feed: calendarFeeds })
    .from(contacts)
    .innerJoin(tenants, eq(tenants.id, contacts.tenantId))
    .leftJoin(calendarFeeds, and(eq(calendarFeeds.tenantId, contacts.tenantId), eq(calendarFeeds.contactId, contacts.id)))
    .where(and(eq(contacts.tenantId, tenantId), eq(contacts.id, contactId)));
  if (!row) return undefined;
  const f = row.feed;
  return {
    contact: row.contact,
    tenant: row.tenant,
    feed: f ? { generation: f.generation, alarms: f.alarms, version: f.version, rotatedAt: f.rotatedAt, rotatedBy: f.rotatedBy } : { generation: 0, alarms: false, version: 0, rotatedAt: null, rotatedBy: null },
  };
}

/**
 * Writes a contact's feed settings when the stored version is still `expectedVersion` (0: no row yet), bumping
 * the version; `rotate` also bumps the generation and records who and when. Returns the new state, or undefined
 * when the version moved on (a stale save: nothing written).
 */
export async function saveFeedState(
  db: DbOrTx,
  tenantId: string,
  contactId: string,
  change: { expectedVersion: number; rotate: boolean; alarms: boolean; actor: string; now: Date },
): Promise<FeedState | undefined> {
  const { expectedVersion, rotate, alarms, actor, now } = change;
  const rows =
    expectedVersion === 0
      ? await db
          .insert(calendarFeeds)
          .values({ tenantId, contactId, generation: rotate ? 1 : 0, alarms, version: 1, rotatedAt: rotate ? now : null, rotatedBy: rotate ? actor : null, updatedAt: now })
          .onConflictDoNothing()
          .returning()
      : await db
          .update(calendarFeeds)
          .set({
            generation: rotate ? sql`${calendarFeeds.generation} + 1` : calendarFeeds.generation,
            alarms,
            version: sql`${calendarFeeds.version} + 1`,
            rotatedAt: rotate ? now : calendarFeeds.rotatedAt,
            rotatedBy: rotate ? actor : calendarFeeds.rotatedBy,
            updatedAt: now,
          })
          .where(and(eq(calendarFeeds.tenantId, tenantId), eq(calendarFeeds.contactId, contactId), eq(calendarFeeds.version, expectedVersion)))
          .returning();
  const f = rows[0];
  return f ? { generation: f.generation, alarms: f.alarms, version: f.version, rotatedAt: f.rotatedAt, rotatedBy: f.rotatedBy } : undefined;
}

/**
 * The contact's bookings that are not cancelled, at events that are not cancelled and end after `since` (UTC
 * instant), earliest start first — every role, so a host's feed holds everything they host.
 */
export async function feedBookings(db: DbOrTx, tenantId: string, contactId: string, since: Date): Promise<{ booking: Booking; event: Event }[]> {
  return db
    .select({ booking: bookings, event: events })
    .from(bookings)
    .innerJoin(events, and(eq(events.tenantId, bookings.tenantId), eq(events.id, bookings.eventId)))
    .where(and(eq(bookings.tenantId, tenantId), eq(bookings.contactId, contactId), ne(bookings.status, 'cancelled'), ne(events.status, 'cancelled'), gt(events.endsAt, since)))
    .orderBy(asc(events.startsAt), asc(bookings.id));
}

/**
 * The due instants of the rule reminders planned for these bookings at their event's current schedule version
 * and not ended otherwise (`scheduled`, `dispatched`, `done`) — what the person's phone should ring for.
 */
export async function plannedReminderDues(db: DbOrTx, tenantId: string, bookingIds: string[]): Promise<{ bookingId: string; dueAt: Date }[]> {
  if (bookingIds.length === 0) return [];
  return db
    .select({ bookingId: reminders.bookingId, dueAt: reminders.dueAt })
    .from(reminders)
    .innerJoin(events, and(eq(events.tenantId, reminders.tenantId), eq(events.id, reminders.eventId)))
    .where(
      and(
        eq(reminders.tenantId, tenantId),
        inArray(reminders.bookingId, bookingIds),
        eq(reminders.kind, 'rule'),
        eq(reminders.scheduleVersion, events.scheduleVersion),
        inArray(reminders.status, ['scheduled', 'dispatched', 'done']),
      ),
    );
}
