/**
 * Database handles. One postgres.js pool per process wrapped in drizzle; queries in db/queries take a
 * `DbOrTx` so the same function runs inside a caller's transaction (the outbox) or on its own.
 */
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema';

export type Db = PostgresJsDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A database handle or an open transaction; every query function accepts either. */
export type DbOrTx = Db | Tx;

export interface DbHandle {
  db: Db;
  sql: postgres.Sql;
  close(): Promise<void>;
}

/**
 * Opens a pool to `url`. `max` bounds connections (default 10). Notices are dropped (migrations print many).
 * @throws nothing until the first query; connection errors surface there.
 */
export function createDb(url: string, opts: { max?: number } = {}): DbHandle {
  const sql = postgres(url, { max: opts.max ?? 10, onnotice: () => {}, connect_timeout: 10 });
  const db = drizzle(sql, { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

const globalForDb = globalThis as unknown as { __punctualDb?: DbHandle };

/**
 * The process-wide handle for `DATABASE_URL` (used by the web app; the worker and tests pass their own).
 * @throws Error when DATABASE_URL is unset.
 */
export function getDb(): Db {
  if (!globalForDb.__punctualDb) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set: start the app with `npm start` or set it');
    globalForDb.__punctualDb = createDb(url);
  }
  return globalForDb.__punctualDb.db;
}
