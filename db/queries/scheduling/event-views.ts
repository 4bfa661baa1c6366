/**
 * Read models for the staff UI pages. Every function takes the tenant id and filters every table it reads
 * on `tenant_id` (invariant 9), so a page can never show another tenant's rows even for a guessed id.
 *
 * Instants are returned as ISO-8601 UTC strings: the same object is rendered by a server page and sent as
 * JSON by a route handler, and the client sees exactly what the server rendered.
 */
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { BookingStatus, DeliveryStatus, EventStatus, ReminderStatus } from '@/domain/vocabulary';
import type { DbOrTx } from '@/db/client';
import { bookings, deliveries, events, reminders } from '@/db/schema';

/** Delivery statuses meaning the message left us (the provider took it, whatever happened after). */
const wentOutStatuses: readonly DeliveryStatus[] = ['accepted', 'delivered', 'soft_bounced', 'bounced', 'complained'];

export type { ReportView } from '@/db/queries/reports/reports';
export { isUuid } from '@/domain/ids';

const iso = (d: Date) => d.toISOString();


// ---------------------------------------------------------------------------------------------------------
// Events list

/** One row of the events table. */
export interface EventListItem {
  id: string;
  title: string;
  startsAt: string;
  endsAt: string;
  allDay: boolean;
  timeZone: string;
  status: EventStatus;
  statusReason: string | null;
  scheduleVersion: number;
  /** All bookings, whatever their status. */
  participantCount: number;
  bookingsByStatus: Partial<Record<BookingStatus, number>>;
  /** Reminders of every schedule version, by status. */
  remindersByStatus: Partial<Record<ReminderStatus, number>>;
  /** Reminders planned from the current schedule version. */
  remindersPlanned: number;
  /** Of those, how many have a delivery the provider accepted (accepted, delivered, bounced, complained). */
  remindersSent: number;
}

/** A page of a list plus the total number of rows. */
export interface ListPage<T> {
  items: T[];
  total: number;
}

/** Optional narrowing of the events list; every part is ANDed. */
interface EventFilter {
  /** Substring of the title or the location (case-insensitive; `%` and `_` match themselves). */
  q?: string;
  /** Events starting at or after this instant (the page passes a local midnight in the tenant's zone). */
  from?: Date;
  /** Events starting before this instant (exclusive: the midnight after the last day asked for). */
  to?: Date;
  status?: EventStatus;
}

/**
 * The tenant's events, upcoming first (by start), then past (latest first), with booking and reminder counts,
 * narrowed by `filter` (none: every event). `total` counts the matching events.
 * Counts come from three grouped queries over the page's event ids, not from per-row subqueries.
 */
export async function listEvents(
  db: DbOrTx,
  tenantId: string,
  page: { limit: number; offset: number },
  filter: EventFilter = {},
): Promise<ListPage<EventListItem>> {
  const conds: SQL[] = [eq(events.tenantId, tenantId)];
  if (filter.q) {
    const like = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conds.push(or(ilike(events.title, like), ilike(events.location, like))!);
  }
  if (filter.from) conds.push(gte(events.startsAt, filter.from));
  if (filter.to) conds.push(lt(events.startsAt, filter.to));
  if (filter.status) conds.push(eq(events.status, filter.status));
  const where = and(...conds);
  const [{ total }] = await db.select({ total: count() }).from(events).where(where);
  const rows = await db
    .select()
    .from(events)
    .where(where)
    // Upcoming and running events first (soonest first), then past ones (most recent first): what staff
    // work on is on page 1 even after importing years of history.
    .orderBy(
      sql`(${events.endsAt} < now())`,
      sql`case when ${events.endsAt} >= now() then ${events.startsAt} end asc`,
      desc(events.startsAt),
      asc(events.id),
    )
    .limit(page.limit)
    .offset(page.offset);
  if (rows.length === 0) return { items: [], total };

  const ids = rows.map((e) => e.id);
  const bookingCounts = await db
    .select({ eventId: bookings.eventId, status: bookings.status, n: count() })
    .from(bookings)
    .where(and(eq(bookings.tenantId, tenantId), inArray(bookings.eventId, ids)))
    .groupBy(bookings.eventId, bookings.status);
  const reminderCounts = await db
    .select({
      eventId: reminders.eventId,
      status: reminders.status,
      current: sql<boolean>`${reminders.scheduleVersion} = ${events.scheduleVersion}`,
      // A cancelled booking expects nothing, whatever its reminders ended as before the cancellation.
      live: sql<boolean>`${bookings.status} <> 'cancelled'`,
      // distinct: a reminder with several deliveries still counts once
      n: sql<number>`count(distinct ${reminders.id})`.mapWith(Number),
      sent: sql<number>`count(distinct ${reminders.id}) filter (where ${inArray(deliveries.status, [...wentOutStatuses])})`.mapWith(
        Number,
      ),
    })
    .from(reminders)
    .innerJoin(events, and(eq(events.id, reminders.eventId), eq(events.tenantId, tenantId)))
    .innerJoin(bookings, eq(bookings.id, reminders.bookingId))
    .leftJoin(deliveries, and(eq(deliveries.reminderId, reminders.id), eq(deliveries.tenantId, tenantId)))
    // Rule reminders only, like the event page's coverage line (domain/scheduling/coverage.ts): nudges are extra.
    .where(and(eq(reminders.tenantId, tenantId), inArray(reminders.eventId, ids), eq(reminders.kind, 'rule')))
    .groupBy(reminders.eventId, reminders.status, sql`${reminders.scheduleVersion} = ${events.scheduleVersion}`, sql`${bookings.status} <> 'cancelled'`);

  const items = rows.map((e): EventListItem => {
    const item: EventListItem = {
      id: e.id,
      title: e.title,
      startsAt: iso(e.startsAt),
      endsAt: iso(e.endsAt),
      allDay: e.allDay,
      timeZone: e.timeZone,
      status: e.status,
      statusReason: e.statusReason,
      scheduleVersion: e.scheduleVersion,
      participantCount: 0,
      bookingsByStatus: {},
      remindersByStatus: {},
      remindersPlanned: 0,
      remindersSent: 0,
    };
    for (const b of bookingCounts) {
      if (b.eventId !== e.id) continue;
      item.participantCount += b.n;
      item.bookingsByStatus[b.status] = (item.bookingsByStatus[b.status] ?? 0) + b.n;
    }
    for (const r of reminderCounts) {
      if (r.eventId !== e.id) continue;
      item.remindersByStatus[r.status] = (item.remindersByStatus[r.status] ?? 0) + r.n;
      // Planned = the coverage line's "expected": current version, not cancelled (a cancelled booking expects nothing).
      if (r.current && r.live && r.status !== 'cancelled' && r.status !== 'superseded') {
        item.remindersPlanned += r.n;
        item.remindersSent += r.sent;
      }
    }
    return item;
  });
  return { items, total };
}

// The event page's read model lives in its own module; re-exported so existing imports keep working.
export * from './event-page';
