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

/** Default statement timeout of the web app's pool (PUNCTUAL_DB_STATEMENT_TIMEOUT_MS), ms. */
const DEFAULT_WEB_STATEMENT_TIMEOUT_MS = 15_000;

/** How much longer than the statement timeout the client waits before it gives up on a silent server, ms. */
export const CLIENT_GRACE_MS = 2_000;

/**
 * PUNCTUAL_DB_STATEMENT_TIMEOUT_MS: the web app's statement timeout in ms (default
 * {@link DEFAULT_WEB_STATEMENT_TIMEOUT_MS}; `0` turns it off; at most 600 000).
 * @throws Error naming the variable when it is not such a whole number.
 */
export function statementTimeoutFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env.PUNCTUAL_DB_STATEMENT_TIMEOUT_MS?.trim();
  if (!raw) return DEFAULT_WEB_STATEMENT_TIMEOUT_MS;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n > 600_000) throw new Error(`PUNCTUAL_DB_STATEMENT_TIMEOUT_MS: "${raw}" must be a whole number of milliseconds from 0 (off) to 600000`);
  return n;
}

/**
 * A query (or transaction) that got no answer in time. `code` is `DB_TIMEOUT`; the message says how long was
 * waited and that the database did not answer — what a person reading the log or an error page needs.
 */
export class DatabaseTimeoutError extends Error {
  readonly code = 'DB_TIMEOUT';
  constructor(readonly waitedMs: number) {
    super(`the database did not answer within ${formatSeconds(waitedMs)} (it may be overloaded, locked or unreachable)`);
    this.name = 'DatabaseTimeoutError';
  }
}

const formatSeconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/**
 * `promise`, or a {@link DatabaseTimeoutError} after `ms` if it has not settled by then (the work itself is not
 * stopped: a late result is dropped). For budgets shorter than the pool's, such as the health check's 2 s.
 */
export function withDeadline<T>(promise: PromiseLike<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new DatabaseTimeoutError(ms)), ms);
    timer.unref?.();
    Promise.resolve(promise).then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });
}

/**
 * Opens a pool to `url` (a Unix-socket directory in `?host=/dir` works, db/url.ts). `max` bounds connections (default 10). Notices are dropped (migrations print many).
 *
 * `statementTimeoutMs` (> 0): PostgreSQL cancels any statement — lock waits included — running longer
 * (`statement_timeout`, sent as a connection parameter), AND the client gives up on a query or transaction that
 * got no answer within that time plus {@link CLIENT_GRACE_MS} (a {@link DatabaseTimeoutError}): a server that is
 * frozen or unreachable cannot cancel anything itself, and a request must fail rather than hang. A query given up
 * on keeps its connection until the server answers or the connection dies; the pool opens others meanwhile (up to
 * `max`). Like any lost answer, it may still complete when a frozen server resumes (a transaction given up on is
 * rolled back then, its callback having failed). Behind a transaction-mode pooler that refuses startup parameters (PgBouncer without
 * `ignore_startup_parameters = statement_timeout`), set the timeout on the database role instead and pass 0.
 * @throws nothing until the first query; connection errors surface there.
 */
export function createDb(url: string, opts: { max?: number; prepareAll?: boolean; statementTimeoutMs?: number } = {}): DbHandle {
  const timeout = opts.statementTimeoutMs ?? 0;
  const sql = connectPostgres(url, {
    max: opts.max ?? 10,
    onnotice: () => {},
    connect_timeout: 10,
    ...(timeout > 0 ? { connection: { statement_timeout: timeout } } : {}),
  });
  let client: postgres.Sql = opts.prepareAll ? preparing(sql) : sql;
  if (timeout > 0) client = answering(client, timeout + CLIENT_GRACE_MS);
  const db = drizzle(client, { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

/**
 * The same postgres.js client, except that a query drizzle sends (`unsafe`) rejects with a
 * {@link DatabaseTimeoutError} when it has no answer within `ms`, and a transaction or savepoint (`begin`,
 * `savepoint`) rejects as soon as one of its queries did, or when it could not even start within `ms` — without
 * waiting for the ROLLBACK a silent server would never acknowledge. See {@link createDb}.
 */
function answering<T extends postgres.Sql | postgres.TransactionSql>(client: T, ms: number, failScope?: (e: Error) => void): T {
  return new Proxy(client, {
    get(target, prop) {
      if (prop === 'unsafe') {
        return (...args: unknown[]) => {
          const q = (target.unsafe as (...a: unknown[]) => postgres.PendingQuery<postgres.Row[]>)(...args);
          const run = q.then.bind(q);
          let guarded: Promise<unknown> | undefined;
          // drizzle awaits the query object itself (after `.values()`, which returns it): its `then` is the hook.
          Object.defineProperty(q, 'then', {
            configurable: true,
            value: (onValue?: (v: unknown) => unknown, onError?: (e: unknown) => unknown) => {
              guarded ??= withDeadline({ then: run } as PromiseLike<unknown>, ms).catch((e: unknown) => {
                if (e instanceof DatabaseTimeoutError) failScope?.(e);
                throw e;
              });
              return guarded.then(onValue, onError);
            },
          });
          return q;
        };
      }
      if (prop === 'begin' || prop === 'savepoint') {
        return (...args: unknown[]) => {
          const last = args.length - 1;
          const fn = args[last] as (tx: postgres.TransactionSql) => unknown;
          let fail!: (e: Error) => void;
          const failed = new Promise<never>((_, reject) => (fail = reject));
          failed.catch(() => {});
          // Not started (BEGIN / SAVEPOINT answered and the callback running) within `ms`: give up.
          const startTimer = setTimeout(() => fail(new DatabaseTimeoutError(ms)), ms);
          startTimer.unref?.();
          args[last] = (tx: postgres.TransactionSql) => {
            clearTimeout(startTimer);
            return fn(answering(tx, ms, (e) => (fail(e), failScope?.(e))));
          };
          const inner = (Reflect.get(target, prop, target) as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          inner.then(
            () => clearTimeout(startTimer),
            () => clearTimeout(startTimer),
          );
          return Promise.race([inner, failed]);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The same postgres.js client, except that every query drizzle sends is a named prepared statement
 * (`prepare: true`), inside transactions and savepoints too. drizzle's query builder asks postgres.js for
 * unnamed statements (`prepare: false`) unless a query is `.prepare('name')`d, so PostgreSQL plans every
 * execution again — and planning the send path's joined world select (db/queries/sending/delivery.ts
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
 * The process-wide handle for `DATABASE_URL` (used by the web app; the worker and tests pass their own), with the
 * statement timeout PUNCTUAL_DB_STATEMENT_TIMEOUT_MS (default 15 s, {@link createDb}).
 * @throws Error when DATABASE_URL is unset or PUNCTUAL_DB_STATEMENT_TIMEOUT_MS is invalid.
 */
export function getDb(): Db {
  if (!globalForDb.__punctualDb) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set: start the app with `npm start` or set it');
    // Every web query is bounded (issue #12): a page fails with its error page instead of hanging.
    globalForDb.__punctualDb = createDb(url, { statementTimeoutMs: statementTimeoutFromEnv() });
  }
  return globalForDb.__punctualDb.db;
}
