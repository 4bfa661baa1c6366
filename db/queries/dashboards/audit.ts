/** The audit log (append-only): writing one entry, and the newest-first page for the audit log screen. */
import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { auditLog, deliveries, events, type AuditEntry } from '@/db/schema';
import type { AuditAction } from '@/domain/vocabulary';
import { cursorText, type KeysetCursor } from './deliveries-log';

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

/**
 * An audit entry with what the log page needs to name its subject: the current address of its delivery
 * (`delivery_id`) and the current title of the event named by `details.eventId` — both null when the entry
 * names none, or names one that is not this tenant's.
 */
export type AuditRow = AuditEntry & { deliveryAddress: string | null; eventTitle: string | null };

/** `details->>'eventId'` as a uuid when it is one, else null (a malformed id never fails the whole page). */
const detailsEventId = sql`case when ${auditLog.details}->>'eventId' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
  then (${auditLog.details}->>'eventId')::uuid end`;

/** The WHERE of a tenant's audit log for filter `f` (the page and its CSV export share it). */
function auditWhere(tenantId: string, f: AuditFilter): SQL {
  const conds: SQL[] = [eq(auditLog.tenantId, tenantId)];
  if (f.action) conds.push(eq(auditLog.action, f.action));
  if (f.from) conds.push(gte(auditLog.createdAt, f.from));
  if (f.to) conds.push(lt(auditLog.createdAt, f.to));
  return and(...conds)!;
}

/** An audit filter: one action and/or an instant range [from, to) on created_at (UTC instants). */
interface AuditFilter {
  action?: AuditAction;
  from?: Date;
  to?: Date;
}

async function auditRows(db: DbOrTx, tenantId: string, where: SQL, page: { limit: number; offset?: number }): Promise<(AuditRow & { cursor: KeysetCursor })[]> {
  const rows = await db
    .select({ entry: auditLog, cursorAt: cursorText(auditLog.createdAt), deliveryAddress: deliveries.address, eventTitle: events.title })
    .from(auditLog)
    .leftJoin(deliveries, and(eq(deliveries.id, auditLog.deliveryId), eq(deliveries.tenantId, tenantId)))
    .leftJoin(events, and(eq(events.tenantId, tenantId), sql`${events.id} = ${detailsEventId}`))
    .where(where)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(page.limit)
    .offset(page.offset ?? 0);
  return rows.map((r) => ({ ...r.entry, deliveryAddress: r.deliveryAddress, eventTitle: r.eventTitle, cursor: { at: r.cursorAt, id: r.entry.id } }));
}

/**
 * One page of a tenant's audit entries, newest first (ties by id), optionally one action and an instant range
 * [from, to) on created_at (UTC instants). `total` counts every entry matching the filter.
 */
export async function listAudit(db: DbOrTx, tenantId: string, f: AuditFilter, page: { limit: number; offset: number }): Promise<{ total: number; items: AuditRow[] }> {
  const where = auditWhere(tenantId, f);
  const [{ total }] = await db.select({ total: count() }).from(auditLog).where(where);
  return { total, items: (await auditRows(db, tenantId, where, page)).map(({ cursor: _c, ...r }) => r) };
}

/**
 * The next `limit` audit entries after `after` (null: from the newest), same rows, order and filter as
 * {@link listAudit}: a keyset page for the CSV export (server/people/csv-exports.ts).
 */
export async function auditAfter(db: DbOrTx, tenantId: string, f: AuditFilter, after: KeysetCursor | null, limit: number) {
  const where = auditWhere(tenantId, f);
  return auditRows(db, tenantId, after ? and(where, sql`(${auditLog.createdAt}, ${auditLog.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`)! : where, { limit });
}
