/**
 * What an idle worker needs to know about graphile-worker's queue to sleep until the next job's run_at instead of
 * polling for it (jobs/wake-timer.ts): how many jobs are runnable now and how far away the next future run_at is,
 * both by the DATABASE's clock (invariant 10: graphile-worker runs a job when PostgreSQL's now() reaches its run_at).
 *
 * Reads graphile-worker's own table (`graphile_worker._private_jobs`, schema of graphile-worker 0.18: `is_available`
 * = not locked and attempts left; partial index `jobs_main_index (priority, run_at) where is_available`). The queue
 * orders by priority first, so both figures are taken per distinct priority (a loose index scan: one index probe per
 * priority in use — normally only 0), never by scanning every waiting job: a queue with 100,000 future wake-ups
 * costs the same few probes as an empty one.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';

/** The queue as an idle worker sees it (see the module doc). */
export interface QueueWake {
  /** Jobs available now (run_at ≤ now(), not locked, attempts left), counted up to `cap`. */
  ready: number;
  /** ms from the database's clock_timestamp() to the earliest future run_at of an available job; null when none. */
  nextInMs: number | null;
}

/**
 * Runnable-now count (at most `cap`) and the delay to the next future run_at, in one statement (module doc).
 * Jobs of named queues and flagged jobs are counted like any other (Punctual uses neither); a count that includes
 * a job this worker cannot take only costs one empty fetch.
 */
export async function readQueueWake(db: DbOrTx, cap: number): Promise<QueueWake> {
  const rows = await db.execute<{ ready: number; next_in_ms: number | null }>(queueWakeQuery(cap));
  const r = rows[0];
  return { ready: Math.min(cap, r?.ready ?? 0), nextInMs: r?.next_in_ms ?? null };
}

/** The statement of {@link readQueueWake} (columns `ready`, `next_in_ms`), for EXPLAIN in tests. */
export function queueWakeQuery(cap: number) {
  return sql`
    with recursive p(priority) as (
      (select priority from graphile_worker._private_jobs where is_available order by priority limit 1)
      union all
      select (select j.priority from graphile_worker._private_jobs j where j.is_available and j.priority > p.priority order by j.priority limit 1)
      from p where p.priority is not null
    )
    select
      (select count(*)::int from p cross join lateral (
         select 1 from graphile_worker._private_jobs j
         where j.is_available and j.priority = p.priority and j.run_at <= now()
         limit ${cap}::int) r
       where p.priority is not null) as ready,
      (select (extract(epoch from (min(n.run_at) - clock_timestamp())) * 1000)::float8 from p cross join lateral (
         select j.run_at from graphile_worker._private_jobs j
         where j.is_available and j.priority = p.priority and j.run_at > now()
         order by j.run_at limit 1) n
       where p.priority is not null) as next_in_ms`;
}
