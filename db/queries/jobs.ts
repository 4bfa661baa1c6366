/**
 * The outbox: jobs are added with `graphile_worker.add_job` through the caller's own connection or
 * transaction, so a domain change and the work it implies commit together or not at all (invariant 1).
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';

export interface EnqueueOptions {
  /** UTC instant the job becomes runnable; omitted = now (database clock). */
  runAt?: Date | null;
  /** Deduplication key; with mode `replace` a newer add replaces the waiting job's payload and run_at. */
  jobKey?: string;
  jobKeyMode?: 'replace' | 'preserve_run_at' | 'unsafe_dedupe';
  maxAttempts?: number;
  priority?: number;
}

/** Adds one job in the given transaction. `payload` must be JSON-serialisable. */
export async function enqueueJob(
  db: DbOrTx,
  task: string,
  payload: Record<string, unknown>,
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
