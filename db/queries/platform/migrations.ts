/**
 * Which migrations the database has applied: drizzle's bookkeeping table `drizzle.__drizzle_migrations`
 * (domain/platform/schema-version.ts says how it is compared with this build's journal). Not tenant data.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';

/**
 * The newest `created_at` (ms since the epoch: the journal `when` of the newest applied migration), or null when
 * the table does not exist or is empty (a database `npm run migrate` never ran on). Two statements: PostgreSQL
 * resolves every table a statement names before running it, so one statement cannot ask "if it exists".
 */
export async function lastAppliedMigrationWhen(db: DbOrTx): Promise<number | null> {
  const [exists] = await db.execute<{ t: string | null }>(sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`);
  if (!exists?.t) return null;
  const [row] = await db.execute<{ last: string | null }>(sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`);
  return row?.last == null ? null : Number(row.last);
}
