/** Read models for operators: dead letters and unknown outcomes with their evidence (attempts, audit). */
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { auditLog, deliveries, deliveryAttempts, events, reminders, type AuditEntry, type Delivery, type DeliveryAttempt } from '../schema';

export interface DeliveryCase {
  delivery: Delivery;
  /** The event the reminder is for (null for a delivery without a reminder). */
  event: { id: string; title: string; timeZone: string } | null;
  attempts: DeliveryAttempt[];
  audit: AuditEntry[];
}

/**
 * Deliveries of one tenant in `statuses` (e.g. `dead`, `unknown`), newest first, each with every attempt
 * (outcome class, error code and message) and its audit entries.
 */
export async function listDeliveryCases(db: DbOrTx, tenantId: string, statuses: Delivery['status'][], limit = 100): Promise<DeliveryCase[]> {
  const rows = await db
    .select({ delivery: deliveries, eventId: events.id, eventTitle: events.title, eventZone: events.timeZone })
    .from(deliveries)
    .leftJoin(reminders, eq(reminders.id, deliveries.reminderId))
    .leftJoin(events, and(eq(events.id, reminders.eventId), eq(events.tenantId, tenantId)))
    .where(and(eq(deliveries.tenantId, tenantId), inArray(deliveries.status, statuses)))
    .orderBy(desc(deliveries.updatedAt))
    .limit(limit);
  if (rows.length === 0) return [];
  const ds = rows.map((r) => r.delivery);
  const ids = ds.map((d) => d.id);
  const attempts = await db.select().from(deliveryAttempts).where(inArray(deliveryAttempts.deliveryId, ids)).orderBy(asc(deliveryAttempts.attemptNo));
  const audits = await db.select().from(auditLog).where(inArray(auditLog.deliveryId, ids)).orderBy(asc(auditLog.createdAt));
  return rows.map(({ delivery, eventId, eventTitle, eventZone }) => ({
    delivery,
    event: eventId && eventTitle && eventZone ? { id: eventId, title: eventTitle, timeZone: eventZone } : null,
    attempts: attempts.filter((a) => a.deliveryId === delivery.id),
    audit: audits.filter((a) => a.deliveryId === delivery.id),
  }));
}
