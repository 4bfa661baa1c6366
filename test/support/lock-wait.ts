/**
 * Waiting for PostgreSQL to block a statement on a lock, instead of sleeping and hoping it has: polls
 * `pg_stat_activity` of the test's database until at least `count` backends wait on a heavyweight lock
 * (`wait_event_type = 'Lock'`: a row, tuple, transaction id or relation lock). Tests that prove "the second writer
 * waits for the first" use it before they release the first, so they neither flake on a busy machine (the
 * statement had not reached the lock yet) nor waste a fixed pause on a quiet one.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';

/**
 * Resolves once `count` (default 1) backends of the current database wait on a lock; polls every 10 ms.
 * @throws after `timeoutMs` (default 10 000) with how many were waiting.
 */
export async function waitForLockWaiters(db: DbOrTx, count = 1, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = (await db.execute(
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    )) as unknown as { n: number }[];
    const n = rows[0]?.n ?? 0;
    if (n >= count) return;
    if (Date.now() > until) throw new Error(`waited ${timeoutMs} ms for ${count} backend(s) to wait on a lock; ${n} did`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Resolves once graphile-worker's queue is idle: no job is locked (running) and none is runnable now (due and
 * attempts left) — "every straggler has finished", a condition rather than a pause. Jobs planned for later do
 * not count, nor jobs locked before `opts.ignoreLockedBefore` (a database instant: the jobs a killed worker still
 * holds, which graphile-worker frees only hours later); with `opts.tasks`, only jobs of those task identifiers count
 * (a running worker's cron sweep and heartbeat are always about to run). Polls every 50 ms.
 * @throws after `opts.timeoutMs` (default 20 000) with how many were still busy.
 */
export async function waitForQueueIdle(db: DbOrTx, opts: { timeoutMs?: number; ignoreLockedBefore?: Date; tasks?: string[] } = {}): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const until = Date.now() + timeoutMs;
  const since = (opts.ignoreLockedBefore ?? new Date(0)).toISOString();
  for (;;) {
    const rows = (await db.execute(
      sql`select count(*)::int as n from graphile_worker.jobs
          where ((locked_at is not null and locked_at >= ${since}::timestamptz) or (locked_at is null and run_at <= now() and attempts < max_attempts))
            and (${opts.tasks ? `{${opts.tasks.join(',')}}` : null}::text[] is null or task_identifier = any(${opts.tasks ? `{${opts.tasks.join(',')}}` : null}::text[]))`,
    )) as unknown as { n: number }[];
    const n = rows[0]?.n ?? 0;
    if (n === 0) return;
    if (Date.now() > until) throw new Error(`waited ${timeoutMs} ms for the job queue to be idle; ${n} job(s) still running or runnable`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The database's clock now (the instant `waitForQueueIdle`'s `ignoreLockedBefore` compares with). */
export async function databaseNow(db: DbOrTx): Promise<Date> {
  const rows = (await db.execute(sql`select now() as now`)) as unknown as { now: Date | string }[];
  return new Date(rows[0].now);
}
