/**
 * The suppression list as staff see it (issue #4): one tenant's suppressed addresses, newest first, searchable
 * by address. Adding and removing live in server/staff-actions.ts (with their audit entries); the send-time
 * check lives in db/queries/delivery.ts.
 */
import { and, count, desc, eq, ilike, type SQL } from 'drizzle-orm';
import type { SuppressionReason } from '../../domain/vocabulary';
import type { DbOrTx } from '../client';
import { suppressions } from '../schema';

export interface SuppressionFilter {
  /** Substring of the address (case-insensitive; `%` and `_` match themselves). */
  q?: string;
}

/** One row of the list. `since` is the UTC instant (ISO-8601) the address was added. */
export interface SuppressionListItem {
  id: string;
  address: string;
  reason: SuppressionReason;
  /** Where it came from: "manual", "added by ada@…: note", "provider rejected the address (550) on …". */
  source: string;
  since: string;
  /** Row version: removing the entry carries it (invariant 11). */
  version: number;
}

/**
 * A page of tenant `tenantId`'s suppression list, newest first, plus the number of matching rows.
 * @param page `limit` rows from row `offset` (0-based).
 */
export async function listSuppressions(
  db: DbOrTx,
  tenantId: string,
  f: SuppressionFilter,
  page: { limit: number; offset: number },
): Promise<{ items: SuppressionListItem[]; total: number }> {
  const conds: SQL[] = [eq(suppressions.tenantId, tenantId)];
  if (f.q) conds.push(ilike(suppressions.address, `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  const where = and(...conds);
  const [{ total }] = await db.select({ total: count() }).from(suppressions).where(where);
  const rows = await db
    .select()
    .from(suppressions)
    .where(where)
    .orderBy(desc(suppressions.createdAt), desc(suppressions.id))
    .limit(page.limit)
    .offset(page.offset);
  return {
    items: rows.map((r) => ({ id: r.id, address: r.address, reason: r.reason, source: r.source, since: r.createdAt.toISOString(), version: r.version })),
    total,
  };
}
