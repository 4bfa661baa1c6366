/** The deliveries log for staff: search and filter one tenant's deliveries; one delivery's full story. */
import { and, asc, count, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { auditLog, deliveries, deliveryAttempts, events, reminderRules, reminders, type Delivery } from '../schema';
import type { DeliveryStatus } from '../../domain/vocabulary';

export interface DeliveryFilter {
  /** Substring of the address or the subject (case-insensitive). */
  q?: string;
  status?: DeliveryStatus;
  /** Created at or after (UTC instant). */
  from?: Date;
  /** Created before (UTC instant). */
  to?: Date;
}

export interface DeliveryLogRow {
  delivery: Delivery;
  eventId: string | null;
  eventTitle: string | null;
  eventZone: string | null;
}

/** One page of a tenant's deliveries, newest first, with the event each is for. */
export async function searchDeliveries(
  db: DbOrTx,
  tenantId: string,
  f: DeliveryFilter,
  page: { limit: number; offset: number },
): Promise<{ items: DeliveryLogRow[]; total: number }> {
  const conds: SQL[] = [eq(deliveries.tenantId, tenantId)];
  if (f.q) {
    const like = `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conds.push(or(ilike(deliveries.address, like), ilike(deliveries.subject, like))!);
  }
  if (f.status) conds.push(eq(deliveries.status, f.status));
  if (f.from) conds.push(gte(deliveries.createdAt, f.from));
  if (f.to) conds.push(lt(deliveries.createdAt, f.to));
  const where = and(...conds);
  const [{ total }] = await db.select({ total: count() }).from(deliveries).where(where);
  const items = await db
    .select({ delivery: deliveries, eventId: events.id, eventTitle: events.title, eventZone: events.timeZone })
    .from(deliveries)
    .leftJoin(reminders, eq(reminders.id, deliveries.reminderId))
    .leftJoin(events, and(eq(events.id, reminders.eventId), eq(events.tenantId, tenantId)))
    .where(where)
    .orderBy(desc(deliveries.createdAt), desc(deliveries.id))
    .limit(page.limit)
    .offset(page.offset);
  return { items, total };
}

/** A delivery with its reminder, rule, event, attempts and audit entries; null when not this tenant's. */
export async function getDeliveryStory(db: DbOrTx, tenantId: string, deliveryId: string) {
  const [row] = await db
    .select({ delivery: deliveries, reminder: reminders, rule: reminderRules, event: events })
    .from(deliveries)
    .leftJoin(reminders, eq(reminders.id, deliveries.reminderId))
    .leftJoin(reminderRules, eq(reminderRules.id, reminders.ruleId))
    .leftJoin(events, eq(events.id, reminders.eventId))
    .where(and(eq(deliveries.tenantId, tenantId), eq(deliveries.id, deliveryId)));
  if (!row) return null;
  const attempts = await db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, deliveryId)).orderBy(asc(deliveryAttempts.attemptNo));
  // The delivery's own entries, and the request that made its reminder (a staff nudge names the reminder).
  const byReminder = row.delivery.reminderId ? sql`${auditLog.details}->>'reminderId' = ${row.delivery.reminderId}` : sql`false`;
  const audit = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.tenantId, tenantId), or(eq(auditLog.deliveryId, deliveryId), byReminder)))
    .orderBy(asc(auditLog.createdAt));
  return { ...row, attempts, audit };
}
