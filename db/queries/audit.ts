/** The audit log (append-only): writing one entry, and the newest-first page for the audit log screen. */
import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { auditLog, type AuditEntry } from '../schema';
import type { AuditAction } from '../../domain/vocabulary';

/** Appends one audit entry. `details` carries the subject's ids (eventId, bookingId, …) and before/after values. */
export async function appendAudit(
  db: DbOrTx,
  e: { tenantId: string; actor: string; action: AuditAction; reason?: string | null; deliveryId?: string | null; details?: Record<string, unknown>; at: Date },
): Promise<void> {
  await db.insert(auditLog).values({
    tenantId: e.tenantId,
    actor: e.actor,
    action: e.action,
    reason: e.reason ?? null,
    deliveryId: e.deliveryId ?? null,
    details: e.details ?? {},
    createdAt: e.at,
  });
}

/** One page of a tenant's audit entries, newest first, optionally one action and an instant range [from, to). */
export async function listAudit(
  db: DbOrTx,
  tenantId: string,
  f: { action?: AuditAction; from?: Date; to?: Date },
  page: { limit: number; offset: number },
): Promise<{ total: number; items: AuditEntry[] }> {
  const conds: SQL[] = [eq(auditLog.tenantId, tenantId)];
  if (f.action) conds.push(eq(auditLog.action, f.action));
  if (f.from) conds.push(gte(auditLog.createdAt, f.from));
  if (f.to) conds.push(lt(auditLog.createdAt, f.to));
  const where = and(...conds);
  const [{ total }] = await db.select({ total: count() }).from(auditLog).where(where);
  const items = await db.select().from(auditLog).where(where).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(page.limit).offset(page.offset);
  return { total, items };
}
