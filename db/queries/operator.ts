/** Read models for operators: dead letters and unknown outcomes with their evidence (attempts, audit). */
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { auditLog, deliveries, deliveryAttempts, type AuditEntry, type Delivery, type DeliveryAttempt } from '../schema';

export interface DeliveryCase {
  delivery: Delivery;
  attempts: DeliveryAttempt[];
  audit: AuditEntry[];
}

/**
 * Deliveries of one tenant in `statuses` (e.g. `dead`, `unknown`), newest first, each with every attempt
 * (outcome class, error code and message) and its audit entries.
 */
export async function listDeliveryCases(db: DbOrTx, tenantId: string, statuses: Delivery['status'][], limit = 100): Promise<DeliveryCase[]> {
  const ds = await db
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.tenantId, tenantId), inArray(deliveries.status, statuses)))
    .orderBy(desc(deliveries.updatedAt))
    .limit(limit);
  if (ds.length === 0) return [];
  const ids = ds.map((d) => d.id);
  const attempts = await db.select().from(deliveryAttempts).where(inArray(deliveryAttempts.deliveryId, ids)).orderBy(asc(deliveryAttempts.attemptNo));
  const audits = await db.select().from(auditLog).where(inArray(auditLog.deliveryId, ids)).orderBy(asc(auditLog.createdAt));
  return ds.map((delivery) => ({
    delivery,
    attempts: attempts.filter((a) => a.deliveryId === delivery.id),
    audit: audits.filter((a) => a.deliveryId === delivery.id),
  }));
}
