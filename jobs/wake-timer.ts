/**
 * The idle worker's alarm clock: ONE in-process timer armed at the next job's run_at, so graphile-worker's own
 * per-slot polling can be slow (jobs/worker.ts `slotPollIntervalMs`) without making wake-ups at due instants late.
 *
 * Why: graphile-worker 0.18 without a local queue polls per task slot — every idle slot runs one `get_jobs` every
 * `pollInterval` (worker.js `doNextTimer`), so a worker at concurrency 10 and 100 ms made ~100 fetches a second
 * doing nothing. Jobs added for "now" never needed the poll: `add_job`/`add_jobs` NOTIFY `jobs:insert` and the
 * pool nudges idle slots at once. Only jobs whose run_at lies in the future (the dispatcher's wake-up at each due
 * instant, retries) were found by polling.
 *
 * How: the timer reads the queue (db/queries/platform/job-wake.ts: runnable-now count, delay to the next future
 * run_at, both by the database's clock) and sleeps until that run_at (+ {@link LATE_MS}); when it fires it reads
 * again and nudges that many idle slots (`WorkerPool.nudge`, the same call graphile-worker makes on a NOTIFY), then
 * re-arms. It re-reads (coalesced: one read in flight, one queued; at most one per {@link MIN_GAP_MS}) when
 *  - a `jobs:insert` NOTIFY arrives (a new job may be due sooner than the armed instant — add_job notifies for
 *    future jobs too, and so does replacing a keyed job's run_at),
 *  - a job of this process failed (graphile-worker moved its run_at to the retry instant, without a NOTIFY),
 *  - the LISTEN connection (re)connected (notifications may have been missed while it was down),
 *  - and at the latest every `maxSleepMs` (WORKER_POLL_INTERVAL_MS): a retry scheduled by ANOTHER process announces
 *    nothing, so it is learned within one interval and then run on time; a job that is runnable but was missed
 *    (a NOTIFY lost while LISTEN reconnected, a lock released) is nudged then.
 * Whatever the timer misses, graphile-worker's own slow poll still finds: the timer only makes things earlier, never
 * decides whether a job runs. With several worker processes each one's timer fires; SKIP
 * LOCKED gives each job to one of them and the others' fetches come back empty.
 */
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { readQueueWake } from '@/db/queries/platform/job-wake';

/**
 * Least ms between two reads asked for by events (NOTIFYs arrive by the hundred during a burst; the ready-now jobs
 * they announce are graphile-worker's own business, the timer only needs to learn a new earliest run_at).
 */
export const MIN_GAP_MS = 200;

/** ms the timer fires after the run_at it was armed for: graphile-worker's fetch compares run_at ≤ now(). */
export const LATE_MS = 2;

export interface WakeTimer {
  /** Asks for a re-read (coalesced, at most one per MIN_GAP_MS); `delayMs` waits first (e.g. for a batched job failure to be written). */
  refresh(delayMs?: number): void;
  /** Stops the timer; pending reads finish but arm nothing. */
  stop(): void;
  /** Reads and nudges so far (for tests and the benchmark's idle figures). */
  stats(): { reads: number; nudges: number; armedInMs: number | null };
}

/**
 * Starts the timer (it reads the queue at once).
 * @param opts.nudge wakes up to n idle task slots (graphile-worker's `WorkerPool.nudge`).
 * @param opts.maxNudge the most slots one firing wakes (the worker's concurrency).
 * @param opts.maxSleepMs the longest the timer sleeps without a re-read (ms; the poll interval).
 * A failed read is logged and retried after `maxSleepMs`.
 */
export function startWakeTimer(opts: { db: Db; nudge: (n: number) => void; maxNudge: number; maxSleepMs: number; log: Logger; minGapMs?: number }): WakeTimer {
  const minGapMs = opts.minGapMs ?? MIN_GAP_MS;
  let timer: NodeJS.Timeout | undefined;
  let trailing: NodeJS.Timeout | undefined;
  let lastRead = -Infinity;
  let armedAt: number | null = null;
  let reading = false;
  let again = false;
  let stopped = false;
  let reads = 0;
  let nudges = 0;

  const arm = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    const delay = Math.max(0, Math.min(opts.maxSleepMs, ms));
    armedAt = Date.now() + delay;
    timer = setTimeout(() => {
      armedAt = null;
      void read();
    }, delay);
    timer.unref?.();
  };

  async function read(): Promise<void> {
    if (stopped) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        lastRead = performance.now();
        const q = await readQueueWake(opts.db, opts.maxNudge);
        reads++;
        if (stopped) return;
        if (q.ready > 0) {
          nudges++;
          opts.nudge(q.ready);
        }
        arm(q.nextInMs === null ? opts.maxSleepMs : q.nextInMs + LATE_MS);
      } while (again && !stopped);
    } catch (e) {
      opts.log.warn({ err: e }, 'wake timer: reading the queue failed');
      arm(opts.maxSleepMs);
    } finally {
      reading = false;
    }
  }

  void read();
  const api: WakeTimer = {
    refresh(delayMs = 0) {
      if (stopped) return;
      if (delayMs > 0) {
        setTimeout(() => api.refresh(), delayMs).unref?.();
        return;
      }
      // Throttled: during a burst every add_jobs NOTIFYs; one read per minGapMs (the last request is never dropped).
      const wait = lastRead + minGapMs - performance.now();
      if (wait <= 0) void read();
      else if (!trailing)
        trailing = setTimeout(() => {
          trailing = undefined;
          void read();
        }, wait);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(trailing);
    },
    stats: () => ({ reads, nudges, armedInMs: armedAt === null ? null : armedAt - Date.now() }),
  };
  return api;
}
