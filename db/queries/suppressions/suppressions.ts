/**
 * The suppression list as staff see it (issue #4, issue #10 §3): one tenant's suppressed addresses, newest first,
 * searchable by address; by default the LIVE entries only, with `removed: true` the history of removed ones (who
 * removed each, when and why — removal is a soft delete). Adding and removing live in server/scheduling/staff-actions.ts
 * (with their audit entries); the send-time check lives in db/queries/suppressions/send-time.ts.
 */
import { and, count, desc, eq, ilike, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { Channel, ReportKind, ReportSource, SuppressionReason } from '@/domain/vocabulary';
import type { DbOrTx } from '@/db/client';
import { deliveryReports, suppressions } from '@/db/schema';

interface SuppressionFilter {
  /** Substring of the address (case-insensitive; `%` and `_` match themselves). */
  q?: string;
  /** true: the removed entries (history) instead of the live ones. */
  removed?: boolean;
}

/** One row of the list. Instants are UTC ISO-8601. */
interface SuppressionListItem {
  id: string;
  address: string;
  /** The channel the entry stops: `email` for an address, `sms` for a number. */
  channel: Channel;
  reason: SuppressionReason;
  /** Where it came from: "manual", "added by ada@…: note", "complaint reported by http_api at …: …". */
  source: string;
  since: string;
  /** The delivery report that caused it (hard bounce, complaint, third soft bounce, SMS STOP), or null. */
  report: { id: string; kind: ReportKind; source: ReportSource; occurredAt: string; deliveryId: string | null } | null;
  /** Set when the entry was removed (soft delete): when, by whom, why. */
  removed: { at: string; by: string | null; reason: string | null } | null;
  /** Row version: removing the entry carries it (invariant 11). */
  version: number;
}

/**
 * A page of tenant `tenantId`'s suppression list (live entries, or with `f.removed` the removed ones), newest
 * first (removed ones: most recently removed first), plus the number of matching rows.
 * @param page `limit` rows from row `offset` (0-based).
 */
export async function listSuppressions(
  db: DbOrTx,
  tenantId: string,
  f: SuppressionFilter,
  page: { limit: number; offset: number },
): Promise<{ items: SuppressionListItem[]; total: number }> {
  const conds: SQL[] = [eq(suppressions.tenantId, tenantId), f.removed ? isNotNull(suppressions.removedAt) : isNull(suppressions.removedAt)];
  if (f.q) conds.push(ilike(suppressions.address, `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  const where = and(...conds);
  const [{ total }] = await db.select({ total: count() }).from(suppressions).where(where);
  const rows = await db
    .select({ s: suppressions, r: { id: deliveryReports.id, kind: deliveryReports.kind, source: deliveryReports.source, occurredAt: deliveryReports.occurredAt, deliveryId: deliveryReports.deliveryId } })
    .from(suppressions)
    .leftJoin(deliveryReports, eq(deliveryReports.id, suppressions.reportId))
    .where(where)
    .orderBy(...(f.removed ? [desc(suppressions.removedAt)] : []), desc(suppressions.createdAt), desc(suppressions.id))
    .limit(page.limit)
    .offset(page.offset);
  return {
    items: rows.map(({ s, r }) => ({
      id: s.id,
      address: s.address,
      channel: s.channel,
      reason: s.reason,
      source: s.source,
      since: s.createdAt.toISOString(),
      report: r ? { id: r.id, kind: r.kind, source: r.source, occurredAt: r.occurredAt.toISOString(), deliveryId: r.deliveryId } : null,
      removed: s.removedAt ? { at: s.removedAt.toISOString(), by: s.removedBy, reason: s.removedReason } : null,
      version: s.version,
    })),
    total,
  };
}
