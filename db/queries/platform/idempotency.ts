/**
 * SQL of idempotency keys (`idempotency_keys`, db/schema/platform.ts): one row per (tenant, staff user, key), written
 * in the transaction of the creation it answers (server/platform/idempotency.ts). Expiry is measured by the
 * database's clock (`now()`, invariant 10) against `created_at`.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { idempotencyKeys } from '@/db/schema';

interface IdempotencyKeyId {
  tenantId: string;
  /** The staff user's id (keys are per client). */
  actorId: string;
  key: string;
}

interface StoredIdempotencyKey {
  route: string;
  fingerprint: string;
  responseStatus: number;
  responseBody: unknown;
  createdAt: Date;
}

/**
 * Takes the key for this request: inserts its row (with a placeholder response, status 0, filled in by
 * {@link storeIdempotentResponse} before commit), or takes over a row older than `ttlHours` (an expired key
 * is a new request). When another transaction holds an uncommitted row for the same key, PostgreSQL makes
 * this INSERT wait on the unique index `idempotency_keys_uq` until that transaction ends: after its commit
 * this returns false (the key is taken — read it with {@link findIdempotencyKey}); after its rollback the
 * insert goes ahead and this returns true.
 * @returns true when this transaction now owns the key.
 */
export async function claimIdempotencyKey(db: DbOrTx, id: IdempotencyKeyId, req: { route: string; fingerprint: string }, ttlHours: number): Promise<boolean> {
  const rows = await db
    .insert(idempotencyKeys)
    .values({ ...id, route: req.route, fingerprint: req.fingerprint, responseStatus: 0, responseBody: sql`'null'::jsonb` })
    .onConflictDoUpdate({
      target: [idempotencyKeys.tenantId, idempotencyKeys.actorId, idempotencyKeys.key],
      set: { route: req.route, fingerprint: req.fingerprint, responseStatus: 0, responseBody: sql`'null'::jsonb`, createdAt: sql`now()` },
      setWhere: sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${ttlHours})`,
    })
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

/** The stored row of a key (committed by an earlier request), or undefined. */
export async function findIdempotencyKey(db: DbOrTx, id: IdempotencyKeyId): Promise<StoredIdempotencyKey | undefined> {
  const [row] = await db
    .select({
      route: idempotencyKeys.route,
      fingerprint: idempotencyKeys.fingerprint,
      responseStatus: idempotencyKeys.responseStatus,
      responseBody: idempotencyKeys.responseBody,
      createdAt: idempotencyKeys.createdAt,
    })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.tenantId, id.tenantId), eq(idempotencyKeys.actorId, id.actorId), eq(idempotencyKeys.key, id.key)));
  return row;
}

/** Records the response of the request that owns the key (same transaction as its creation). */
export async function storeIdempotentResponse(db: DbOrTx, id: IdempotencyKeyId, response: { status: number; body: unknown }): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ responseStatus: response.status, responseBody: sql`${JSON.stringify(response.body)}::jsonb` })
    .where(and(eq(idempotencyKeys.tenantId, id.tenantId), eq(idempotencyKeys.actorId, id.actorId), eq(idempotencyKeys.key, id.key)));
}

/**
 * Deletes keys older than `ttlHours` (the minute sweep calls this; an expired key may be reused anyway).
 * @returns how many rows were deleted.
 */
export async function deleteExpiredIdempotencyKeys(db: DbOrTx, ttlHours: number): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${ttlHours})`)
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
