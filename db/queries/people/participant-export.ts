/** An event's participants for the CSV export (issue #13), in keyset pages. */
import { and, asc, eq, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { bookings, contacts, reminders, tenants } from '@/db/schema';
import { cursorText, type KeysetCursor } from '@/db/queries/dashboards/deliveries-log';

interface ParticipantExportRow {
  bookingId: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  role: (typeof bookings.$inferSelect)['role'];
  status: (typeof bookings.$inferSelect)['status'];
  statusReason: string | null;
  /** The person's own IANA zone, null when none is on file. */
  timeZone: string | null;
  locale: string | null;
  /** For an external guest: the name of their own organisation. */
  guestOrganisation: string | null;
  bookedAt: Date;
  /** The earliest reminder still waiting to go out (`scheduled`), or null. */
  nextDueAt: Date | null;
  cursor: KeysetCursor;
}

/**
 * The next `limit` bookings of event `eventId` of tenant `tenantId` after `after` (null: from the first), in the
 * order they were made (`created_at`, then id), each with its contact and its next waiting reminder. Every
 * booking is listed, cancelled ones and earlier bookings of people booked again included (the status says so).
 * A guest's contact may live in the guest's own tenant: it is read only through this tenant's booking, as on
 * the event page (db/queries/scheduling/event-views.ts getEventPage).
 */
export async function participantsAfter(db: DbOrTx, tenantId: string, eventId: string, after: KeysetCursor | null, limit: number): Promise<ParticipantExportRow[]> {
  const nextDue = sql<string | null>`(select to_char(min(r.due_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') from ${reminders} r
    where r.booking_id = ${bookings.id} and r.tenant_id = ${tenantId} and r.status = 'scheduled')`;
  const rows = await db
    .select({
      bookingId: bookings.id,
      cursorAt: cursorText(bookings.createdAt),
      bookedAt: bookings.createdAt,
      role: bookings.role,
      status: bookings.status,
      statusReason: bookings.statusReason,
      name: contacts.name,
      email: contacts.email,
      phone: contacts.phone,
      timeZone: contacts.timeZone,
      locale: contacts.locale,
      guestOrganisation: tenants.name,
      nextDue,
    })
    .from(bookings)
    .leftJoin(contacts, and(eq(contacts.id, bookings.contactId), or(eq(contacts.tenantId, tenantId), eq(contacts.tenantId, bookings.guestTenantId))))
    .leftJoin(tenants, eq(tenants.id, bookings.guestTenantId))
    .where(
      and(
        eq(bookings.tenantId, tenantId),
        eq(bookings.eventId, eventId),
        after ? sql`(${bookings.createdAt}, ${bookings.id}) > (${after.at}::timestamptz, ${after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(asc(bookings.createdAt), asc(bookings.id))
    .limit(limit);
  return rows.map(({ cursorAt, nextDue: due, ...r }) => ({ ...r, nextDueAt: due ? new Date(due) : null, cursor: { at: cursorAt, id: r.bookingId } }));
}
