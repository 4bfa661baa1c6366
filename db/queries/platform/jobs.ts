/**
 * The outbox: jobs are added with `graphile_worker.add_job` through the caller's own connection or
 * transaction, so a domain change and the work it implies commit together or not at all (invariant 1).
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import type { TaskId, TaskPayload } from '@/jobs/registry';

interface EnqueueOptions {
  /** UTC instant the job becomes runnable; omitted = now (database clock). */
  runAt?: Date | null;
  /** Deduplication key; with mode `replace` a newer add replaces the waiting job's payload and run_at. */
  jobKey?: string;
  jobKeyMode?: 'replace' | 'preserve_run_at' | 'unsafe_dedupe';
  maxAttempts?: number;
  priority?: number;
}

/** Adds one job of a registered task (jobs/registry.ts) in the given transaction. `payload` must be JSON-serialisable. */
export async function enqueueJob<T extends TaskId>(
  db: DbOrTx,
  task: T,
  payload: TaskPayload<T>,
  opts: EnqueueOptions = {},
): Promise<void> {
  await db.execute(sql`select graphile_worker.add_job(
    ${task},
    ${JSON.stringify(payload)}::json,
    run_at := ${opts.runAt ? opts.runAt.toISOString() : null}::timestamptz,
    max_attempts := ${opts.maxAttempts ?? null}::int,
    job_key := ${opts.jobKey ?? null}::text,
    priority := ${opts.priority ?? null}::int,
    job_key_mode := ${opts.jobKeyMode ?? 'replace'}::text
  )`);
}

/** One job for `enqueueJobs` (`enqueueJob`'s arguments): a registered task (jobs/registry.ts) and its payload. */
type JobSpec = {
  [T in TaskId]: {
    task: T;
    payload: TaskPayload<T>;
    runAt?: Date | null;
    jobKey?: string;
    maxAttempts?: number;
    priority?: number;
  };
}[TaskId];

/**
 * Adds many jobs in ONE statement (`graphile_worker.add_jobs`, which `add_job` itself calls for the `replace`
 * and `preserve_run_at` key modes: same semantics as `enqueueJob` with those modes). Job keys must be distinct
 * within one call (PostgreSQL cannot update one row twice in a statement). Returns how many were added or
 * replaced (a keyed job that is running is not replaced: add_jobs then adds a new one, like add_job).
 */
export async function enqueueJobs(db: DbOrTx, jobs: JobSpec[], opts: { jobKeyMode?: 'replace' | 'preserve_run_at' } = {}): Promise<number> {
  if (jobs.length === 0) return 0;
  // Jobs added together mostly share task, run_at, attempts and priority: those travel once per distinct
  // combination (a small jsonb), each job as its payload text and key in two text[] parameters and an index.
  const shapes = new Map<string, number>();
  const shapeList: Record<string, unknown>[] = [];
  const idx: number[] = [];
  for (const j of jobs) {
    const runAt = j.runAt ? j.runAt.toISOString() : null;
    const key = `${j.task}|${runAt}|${j.maxAttempts ?? ''}|${j.priority ?? ''}`;
    let k = shapes.get(key);
    if (k === undefined) {
      k = shapeList.length;
      shapes.set(key, k);
      shapeList.push({ i: k, identifier: j.task, run_at: runAt, max_attempts: j.maxAttempts ?? null, priority: j.priority ?? null });
    }
    idx.push(k);
  }
  // The payload travels as text and is cast to json as-is, so the stored payload has enqueueJob's exact bytes.
  const rows = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from graphile_worker.add_jobs(
      array(
        select row(s.identifier, x.payload::json, null, s.run_at, s.max_attempts, x.job_key, s.priority, null)::graphile_worker.job_spec
        from unnest(${textArray(jobs.map((j) => JSON.stringify(j.payload)))}::text[], ${textArray(jobs.map((j) => j.jobKey ?? null))}::text[], ${`{${idx.join(',')}}`}::int[]) as x(payload, job_key, shape)
        join jsonb_to_recordset(${JSON.stringify(shapeList)}::jsonb) as s(i int, identifier text, run_at timestamptz, max_attempts int, priority int) on s.i = x.shape
      ),
      ${opts.jobKeyMode === 'preserve_run_at'}
    )`);
  return rows[0]?.n ?? 0;
}

/** A PostgreSQL array literal of texts (each quoted, `\` and `"` escaped; null → NULL), for one `text[]` parameter. */
function textArray(values: (string | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`)).join(',')}}`;
}
