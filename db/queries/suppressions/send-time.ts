/**
 * The send-time suppression check (invariant 4: checked at send time, never only at enqueue time): which live entries
 * of the suppression lists stop an address — for one message (the single send path) or for a whole wave of the batch
 * send path in one statement. The list as staff see it is db/queries/suppressions/suppressions.ts.
 */
import { and, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { suppressions } from '@/db/schema';
import type { Channel } from '@/domain/vocabulary';

/** A PostgreSQL `uuid[]` literal of ids (uuids need no quoting), for one array parameter. */
const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

/** A live suppression entry, with the address it was looked up for (as given). */
export type SuppressionHit = typeof suppressions.$inferSelect & { lookedUp: string };

/**
 * The LIVE suppression entries on the lists of any of `tenantIds` that stop any of `addresses` (case-insensitive, by
 * PostgreSQL's `lower()` — the unique index's own rule), each with the address it matched (as given). Removed entries
 * (soft-deleted, `removed_at` set) are history and stop nothing. One statement for a wave of the batch send path
 * (server/sending/send-batch.ts); {@link suppressionOf} picks one delivery's entry from the result.
 */
export async function findSuppressions(db: DbOrTx, tenantIds: readonly string[], addresses: readonly string[], channels: readonly Channel[]): Promise<SuppressionHit[]> {
  if (tenantIds.length === 0 || addresses.length === 0 || channels.length === 0) return [];
  // One text[] parameter whatever the count (one statement text, one prepared plan): a PostgreSQL array literal.
  const list = sql`${`{${addresses.map((x) => `"${x.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`}::text[]`;
  const rows = await db
    .select({ s: suppressions, lookedUp: sql<string[]>`array(select x from unnest(${list}) as x where lower(x) = lower(${suppressions.address}))` })
    .from(suppressions)
    .where(
      and(
        sql`${suppressions.tenantId} = any(${uuidArray(tenantIds)})`,
        sql`${suppressions.channel}::text = any(${`{${channels.join(',')}}`}::text[])`,
        sql`lower(${suppressions.address}) in (select lower(x) from unnest(${list}) as x)`,
        isNull(suppressions.removedAt),
      ),
    );
  return rows.flatMap((r) => r.lookedUp.map((lookedUp) => ({ ...r.s, lookedUp })));
}

/**
 * The entry that stops `address` on `channel` for a sender whose lists are `tenantIds`, among `hits` looked up for it
 * ({@link findSuppressions}), or null. An email address's entry stops email, a number's entry SMS (a STOP at the
 * carrier stops SMS only, issue #10 §3).
 */
export function suppressionOf(hits: readonly SuppressionHit[], tenantIds: readonly string[], address: string, channel: Channel): SuppressionHit | null {
  return hits.find((h) => h.lookedUp === address && h.channel === channel && tenantIds.includes(h.tenantId)) ?? null;
}

/** The LIVE suppression of `address` on `channel` on the list of any of `tenantIds`, or null (see {@link findSuppressions}). */
export async function findSuppression(db: DbOrTx, tenantIds: string[], address: string, channel: Channel) {
  return suppressionOf(await findSuppressions(db, tenantIds, [address], [channel]), tenantIds, address, channel);
}
