/**
 * A worker whose graphile-worker runner ends by itself (graphile-worker 0.18 aborts its pool when a batched job
 * completion fails, e.g. "deadlock detected") keeps taking jobs: startWorker replaces the runner. Real PostgreSQL,
 * a real in-process worker; the runner is stopped behind the worker's back as its pool's abort would stop it, then a
 * job added afterwards must run. Waits for conditions, never for a fixed time.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { TASK } from '@/jobs/registry';
import { startWorker, type RunningWorker } from '@/jobs/worker';
import { createHarness, type Harness } from '@/test/support/harness';
import { waitForQueueIdle } from '@/test/support/lock-wait';
import { waitFor } from '@/test/support/processes';

let h: Harness;
let worker: RunningWorker | undefined;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await worker?.stop();
  await h?.close();
});

it('a runner that ends by itself is replaced, and jobs added after it run', async () => {
  worker = await startWorker({ databaseUrl: h.tdb.url, channel: h.ctx.channel, clock: h.clock, config: { concurrency: 2 } });
  const first = worker.runner;
  // What graphile-worker does to itself when its pool fails: the runner stops while the worker is not stopping.
  await first.stop();
  await waitFor(async () => worker!.runner !== first, 15_000, () => 'the worker did not start a new runner');
  // The new runner takes jobs: a dispatcher pass added now runs to completion.
  await enqueueJob(h.tdb.db, TASK.dispatchDue, { reason: 'after-restart' });
  await waitForQueueIdle(h.tdb.db, { tasks: [TASK.dispatchDue], timeoutMs: 15_000 });
  // And stopping the worker stops the new runner (no restart after a requested stop).
  const second = worker.runner;
  await worker.stop();
  worker = undefined;
  await expect(second.promise).resolves.toBeUndefined();
});
