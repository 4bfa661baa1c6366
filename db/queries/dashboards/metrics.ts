/**
 * SQL of the metrics endpoint (issue #11 §3; server/dashboards/metrics.ts): the workers' metric snapshots (`worker_metrics`)
 * and the gauges /api/metrics computes at scrape time. These are the operator's view of the whole installation:
 * they count across tenants on purpose and return no tenant data (no ids, addresses or texts — only counts,
 * channels, statuses and task names).
 *
 * Clock: the database's `now()` (invariant 10) — a snapshot's freshness and a reminder's age are judged by the
 * same clock that wrote them, so neither a skewed web host nor a skewed worker host moves them.
 *
 * Cost (each statement reads a partial index, so a scrape stays in the milliseconds however much history grows):
 * - dead letters / unknown outcomes / expired deliveries: `deliveries_attention_idx` (status, channel) WHERE status
 *   in ('dead','unknown','expired') — an index-only count over those rows alone;
 * - expired reminders: `reminders_expired_idx` (channel) WHERE status = 'expired';
 * - oldest due-but-unsent: `reminders_due_idx` (due_at) WHERE status = 'scheduled' and `reminders_dispatched_due_idx`
 *   (due_at) WHERE status = 'dispatched', each read in due order up to the first unexpired row;
 * - queue depth: one pass over `graphile_worker._private_jobs`, which holds only jobs not yet completed
 *   (graphile-worker deletes a job when it succeeds), joined to its handful of task names.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';

// ---------------------------------------------------------------------------------------------- snapshots

/**
 * Stores worker `workerId`'s snapshot (prom-client `getMetricsAsJSON()` output), stamped with the database's now().
 * Also removes rows not refreshed for an hour (a worker killed without stopping cannot delete its own).
 */
export async function upsertWorkerSnapshot(db: DbOrTx, workerId: string, snapshot: unknown): Promise<void> {
  await db.execute(sql`
    insert into worker_metrics (worker_id, snapshot, updated_at) values (${workerId}, ${JSON.stringify(snapshot)}::jsonb, now())
    on conflict (worker_id) do update set snapshot = excluded.snapshot, updated_at = excluded.updated_at`);
  await db.execute(sql`delete from worker_metrics where updated_at < now() - interval '1 hour'`);
}

/** Removes worker `workerId`'s snapshot (the worker stops). */
export async function deleteWorkerSnapshot(db: DbOrTx, workerId: string): Promise<void> {
  await db.execute(sql`delete from worker_metrics where worker_id = ${workerId}`);
}

/** The snapshots refreshed within the last `maxAgeSeconds` (database clock), by worker id. One row per worker: a tiny table. */
export async function freshWorkerSnapshots(db: DbOrTx, maxAgeSeconds: number): Promise<{ workerId: string; snapshot: unknown; updatedAt: Date }[]> {
  const rows = await db.execute<{ worker_id: string; snapshot: unknown; updated_at: string | Date }>(sql`
    select worker_id, snapshot, updated_at from worker_metrics
    where updated_at > now() - make_interval(secs => ${maxAgeSeconds})
    order by worker_id`);
  return rows.map((r) => ({
    workerId: r.worker_id,
    snapshot: typeof r.snapshot === 'string' ? JSON.parse(r.snapshot) : r.snapshot,
    updatedAt: r.updated_at instanceof Date ? r.updated_at : new Date(r.updated_at),
  }));
}

// ---------------------------------------------------------------------------------------------- gauges

/** Queue job states: runnable now, scheduled for later (run_at in the future), locked by a worker, out of attempts. */
type QueueState = 'ready' | 'waiting' | 'running' | 'failed';

interface MetricsGauges {
  /** Deliveries by status (`dead`, `unknown`, `expired`) and channel; a combination with no rows is absent. */
  deliveries: { status: 'dead' | 'unknown' | 'expired'; channel: string; count: number }[];
  /** Reminders `expired` (past their expiry instant before any send), by channel. */
  expiredReminders: { channel: string; count: number }[];
  /**
   * Seconds since the due instant of the oldest reminder still `scheduled`/`dispatched`, due and not expired —
   * the same set as the `oldest_due` alert (db/queries/alerts/alerts.ts oldestDueReminder); 0 when there is none.
   */
  oldestDueAgeSeconds: number;
  /** graphile-worker jobs by task identifier and state. */
  queue: { task: string; state: QueueState; count: number }[];
}

/**
 * The scrape-time gauges (see module doc for the index each statement reads). Five statements, run concurrently, no
 * transaction.
 * The queue part is empty when graphile-worker has not installed its schema yet (no worker ever started).
 * @throws the driver's error when the database is unreachable.
 */
export async function readMetricsGauges(db: DbOrTx): Promise<MetricsGauges> {
  const [deliveryRows, reminderRows, oldest, queue] = await Promise.all([
    db.execute<{ status: 'dead' | 'unknown' | 'expired'; channel: string; n: number }>(sql`
      select status::text as status, channel::text as channel, count(*)::int as n
      from deliveries where status in ('dead', 'unknown', 'expired')
      group by status, channel order by status, channel`),
    db.execute<{ channel: string; n: number }>(sql`
      select channel::text as channel, count(*)::int as n
      from reminders where status = 'expired'
      group by channel order by channel`),
    db.execute<{ age: number | null }>(sql`
      select extract(epoch from now() - least(
        (select min(due_at) from reminders where status = 'scheduled' and due_at <= now() and expires_at > now()),
        (select min(due_at) from reminders where status = 'dispatched' and due_at <= now() and expires_at > now())
      ))::float8 as age`),
    readQueueDepth(db),
  ]);
  return {
    deliveries: deliveryRows.map((r) => ({ status: r.status, channel: r.channel, count: Number(r.n) })),
    expiredReminders: reminderRows.map((r) => ({ channel: r.channel, count: Number(r.n) })),
    oldestDueAgeSeconds: Math.max(0, Number(oldest[0]?.age ?? 0)),
    queue,
  };
}

async function readQueueDepth(db: DbOrTx): Promise<MetricsGauges['queue']> {
  const [installed] = await db.execute<{ ok: boolean }>(sql`select to_regclass('graphile_worker._private_jobs') is not null as ok`);
  if (!installed?.ok) return [];
  const rows = await db.execute<{ task: string; ready: number; waiting: number; running: number; failed: number }>(sql`
    select t.identifier as task,
      count(*) filter (where j.locked_at is null and j.attempts < j.max_attempts and j.run_at <= now())::int as ready,
      count(*) filter (where j.locked_at is null and j.attempts < j.max_attempts and j.run_at > now())::int as waiting,
      count(*) filter (where j.locked_at is not null)::int as running,
      count(*) filter (where j.locked_at is null and j.attempts >= j.max_attempts)::int as failed
    from graphile_worker._private_jobs j
    join graphile_worker._private_tasks t on t.id = j.task_id
    group by t.identifier order by t.identifier`);
  return rows.flatMap((r) => (['ready', 'waiting', 'running', 'failed'] as const).map((state) => ({ task: r.task, state, count: Number(r[state]) })));
}
