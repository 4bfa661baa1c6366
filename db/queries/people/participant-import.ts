/** Look-ups of a CSV import (issue #13, server/people/participant-import.ts): what the tenant already has for the file's addresses. */
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import type { ContactDetails } from '@/domain/scheduling/contact-kept';
import { events, type Event } from '@/db/schema';

/**
 * The tenant's contacts among `lowerEmails` (lower-cased addresses), keyed by lower-cased address, with the details a
 * booking would keep (domain/scheduling/contact-kept.ts). One statement: an index probe on contacts (tenant, lower(email)) each.
 */
export async function contactsByLowerEmail(db: DbOrTx, tenantId: string, lowerEmails: string[]): Promise<Map<string, ContactDetails>> {
  if (lowerEmails.length === 0) return new Map();
  const rows = await db.execute<{ e: string; name: string; locale: string; time_zone: string | null; phone: string | null }>(sql`
    select x.e, c.name, c.locale, c.time_zone, c.phone
    from jsonb_array_elements_text(${JSON.stringify(lowerEmails)}::jsonb) as x(e)
    join contacts c on c.tenant_id = ${tenantId} and lower(c.email) = x.e`);
  return new Map(rows.map((r) => [r.e, { name: r.name, locale: r.locale, timeZone: r.time_zone, phone: r.phone }]));
}

/** The tenant's event `eventId` (no lock: the preview only reads), or undefined. */
export async function eventOfTenant(db: DbOrTx, tenantId: string, eventId: string): Promise<Event | undefined> {
  const [e] = await db.select().from(events).where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
  return e;
}
