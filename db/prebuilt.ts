/**
 * Statements of the hot send path whose SQL text is built ONCE per process (issue #24 §1: "drizzle's builders run
 * at start-up, not per send"). drizzle builds a select's SQL text on every execution (`getSQL` + `sqlToQuery` walk
 * the whole column list: for the send path's 12-table world read that was ≈ 5 % of the worker's CPU during a drain,
 * profile in BENCHMARKS.md). Here the builder runs on the first call and is kept as a drizzle prepared query; every
 * later call executes it, with its placeholders filled, on the connection of the database handle or transaction it
 * is given — so it reads and locks inside the caller's transaction exactly as the builder would.
 *
 * How: a drizzle 0.45 postgres-js prepared query executes on its `client` field (the postgres.js client of the session
 * that built it); a transaction's session holds its own reserved client (`tx.session.client`). The kept query is
 * never changed: each call runs a shallow derivative with the caller's client. When a handle has no such session
 * (another driver, a drizzle upgrade that moved it), the statement is built per call, as before — slower, never
 * wrong. test/platform/prebuilt.test.ts proves the statement runs inside the caller's transaction.
 */
import type { DbOrTx } from './client';

/** What a drizzle prepared query offers that this module uses. */
interface Executable<R> {
  execute(placeholderValues?: Record<string, unknown>): Promise<R>;
}

/** The postgres.js client a drizzle handle or transaction sends its statements on, or undefined when not found. */
function clientOf(db: DbOrTx): unknown {
  const session = (db as unknown as { session?: { client?: unknown } }).session;
  return session?.client;
}

/**
 * A statement built once by `build` (a drizzle query ended with `.prepare(name)`, using `sql.placeholder(...)` for
 * every value that changes between calls) and executed on the handle or transaction each call names.
 * @returns `(db, values) => rows`: `values` fill the placeholders by name; rejects with what the query rejects with.
 */
export function prebuilt<R>(build: (db: DbOrTx) => Executable<R>): (db: DbOrTx, values: Record<string, unknown>) => Promise<R> {
  let kept: (Executable<R> & { client?: unknown }) | undefined;
  return (db, values) => {
    const client = clientOf(db);
    if (client === undefined) return build(db).execute(values);
    kept ??= build(db) as Executable<R> & { client?: unknown };
    if (!('client' in kept)) return build(db).execute(values);
    const bound = Object.create(kept) as Executable<R> & { client: unknown };
    bound.client = client;
    return bound.execute(values);
  };
}
