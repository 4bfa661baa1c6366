/**
 * Which migrations the database has applied: drizzle's bookkeeping table `drizzle.__drizzle_migrations`
 * (domain/schema-version.ts says how it is compared with this build's journal). Not tenant data.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';

/**
 * The newest `created_at` (ms since the epoch: the journal `when` of the newest applied migration), or null when
 * the table does not exist or is empty (a database `npm run migrate` never ran on).
 */
export async function lastAppliedMigrationWhen(db: DbOrTx): Promise<number | null> {
  const [row] = await db.execute<{ last: string | null }>(sql`
    select case when to_regclass('drizzle.__drizzle_migrations') is null then null
      else (select max(created_at)::text from drizzle.__drizzle_migrations) end as last`);
  return row?.last == null ? null : Number(row.last);
}
