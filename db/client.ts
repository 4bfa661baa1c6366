/**
 * Database handles. One postgres.js pool per process wrapped in drizzle; queries in db/queries take a
 * `DbOrTx` so the same function runs inside a caller's transaction (the outbox) or on its own.
 */
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import type postgres from 'postgres';
import * as schema from './schema';
import { connectPostgres } from './url';

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
 * Opens a pool to `url` (a Unix-socket directory in `?host=/dir` works, db/url.ts). `max` bounds connections
 * (default 10). Notices are dropped (migrations print many).
 * @throws nothing until the first query; connection errors surface there.
 */
export function createDb(url: string, opts: { max?: number; prepareAll?: boolean } = {}): DbHandle {
  const sql = connectPostgres(url, { max: opts.max ?? 10, onnotice: () => {}, connect_timeout: 10 });
  const db = drizzle(opts.prepareAll ? preparing(sql) : sql, { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

/**
 * The same postgres.js client, except that every query drizzle sends is a named prepared statement
 * (`prepare: true`), inside transactions and savepoints too. drizzle's query builder asks postgres.js for
 * unnamed statements (`prepare: false`) unless a query is `.prepare('name')`d, so PostgreSQL plans every
 * execution again — and planning the send path's joined world select (db/queries/delivery.ts
 * `loadReminderWorld`, nine tables) costs 2–17 ms of server CPU against ≈ 0.1 ms to run it (EXPLAIN ANALYZE
 * SUMMARY, issue #11). A prepared statement is planned on its first executions and then runs PostgreSQL's
 * generic plan (plan_cache_mode auto). postgres.js keeps the statements per connection, keyed by the SQL text
 * and parameter types, and drops them with the connection (max_lifetime, 30–60 min): meant for processes with a
 * bounded set of query shapes — the worker.
 */
function preparing<T extends postgres.Sql | postgres.TransactionSql>(client: T): T {
  return new Proxy(client, {
    get(target, prop) {
      if (prop === 'unsafe') {
        return (query: string, params?: unknown[], options?: Record<string, unknown>) =>
          (target.unsafe as (q: string, p?: unknown[], o?: Record<string, unknown>) => unknown)(query, params, { ...options, prepare: true });
      }
      if (prop === 'begin' || prop === 'savepoint') {
        return (...args: unknown[]) => {
          const last = args.length - 1;
          const fn = args[last] as (tx: postgres.TransactionSql) => unknown;
          args[last] = (tx: postgres.TransactionSql) => fn(preparing(tx));
          return (Reflect.get(target, prop, target) as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
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
