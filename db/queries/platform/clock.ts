/** The database's clock: the one clock that decides due-ness, leases and expiry (DESIGN invariant 10). */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';

/**
 * PostgreSQL's current instant as epoch milliseconds (fractional). `clock_timestamp()`, not `now()`: `now()`
 * is the start of the surrounding transaction, and this is read to compare with a local moment.
 */
export async function databaseNowMs(db: DbOrTx): Promise<number> {
  const [r] = await db.execute<{ ms: number }>(sql`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`);
  return Number(r.ms);
}
