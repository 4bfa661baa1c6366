/**
 * The idle worker's wake timer (jobs/wake-timer.ts) and its queue read (db/queries/platform/job-wake.ts), against
 * real PostgreSQL and graphile-worker's real queue: it sleeps until the next job's run_at by the database's clock,
 * wakes the pool then (not before), learns of a sooner job when asked to re-read, and reads a queue full of far
 * future wake-ups without scanning it.
 */
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { queueWakeQuery, readQueueWake } from '@/db/queries/platform/job-wake';
import { startWakeTimer, type WakeTimer } from '@/jobs/wake-timer';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { waitFor } from '@/test/support/processes';
import { databaseNow } from '@/test/support/lock-wait';

let tdb: TestDatabase;
const timers: WakeTimer[] = [];
const log = pino({ level: 'silent' });

beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterEach(async () => {
  timers.splice(0).forEach((t) => t.stop());
  await tdb.reset();
});
afterAll(async () => tdb?.close());

/** A wake-up job (dispatch_due) at `runAt`, keyed like planning's. */
const wakeAt = (runAt: Date, key: string) => enqueueJob(tdb.db, 'dispatch_due', { reason: 'wake' }, { runAt, jobKey: key });

describe('reading the queue', () => {
  it('counts runnable jobs and the delay to the next future run_at by the database clock', async () => {
    const now = await databaseNow(tdb.db);
    expect(await readQueueWake(tdb.db, 10)).toEqual({ ready: 0, nextInMs: null });
    await wakeAt(new Date(now.getTime() - 1000), 'past-1');
    await wakeAt(new Date(now.getTime() - 500), 'past-2');
    await wakeAt(new Date(now.getTime() + 60_000), 'future-1');
    await wakeAt(new Date(now.getTime() + 30_000), 'future-2');
    const q = await readQueueWake(tdb.db, 10);
    expect(q.ready).toBe(2);
    // 30 s from `now`, read a moment later: a little under 30 s, never more.
    expect(q.nextInMs).toBeLessThanOrEqual(30_000);
    expect(q.nextInMs).toBeGreaterThan(25_000);
    expect((await readQueueWake(tdb.db, 1)).ready).toBe(1);
    // A locked job (being worked) is neither ready nor next.
    await tdb.db.execute(sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'w' where key in ('past-1', 'future-2')`);
    const q2 = await readQueueWake(tdb.db, 10);
    expect(q2.ready).toBe(1);
    expect(q2.nextInMs).toBeGreaterThan(55_000);
  });

  it('reads 20,000 far-future wake-ups with a few index probes, not a scan of them', async () => {
    await tdb.db.execute(sql`
      select graphile_worker.add_jobs(array_agg(row('dispatch_due', '{"reason":"wake"}'::json, null, now() + interval '1 day' + g * interval '1 second', null, 'far:' || g, null, null)::graphile_worker.job_spec))
      from generate_series(1, 20000) g`);
    await tdb.db.execute(sql`analyze graphile_worker._private_jobs`);
    const q = await readQueueWake(tdb.db, 10);
    expect(q.ready).toBe(0);
    expect(q.nextInMs).toBeGreaterThan(86_000_000);
    // The plan touches a handful of index pages (loose index scan per priority), whatever the queue length: a scan
    // of 20,000 index entries would read well over a hundred pages.
    const [plan] = await tdb.db.execute<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }>(sql`explain (analyze, buffers, format json) ${queueWakeQuery(10)}`);
    const text = JSON.stringify(plan['QUERY PLAN']);
    expect(text).not.toContain('Seq Scan');
    const top = plan['QUERY PLAN'][0].Plan as { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
    expect(top['Shared Hit Blocks'] + top['Shared Read Blocks']).toBeLessThan(60);
    const started = performance.now();
    for (let i = 0; i < 20; i++) await readQueueWake(tdb.db, 10);
    const perRead = (performance.now() - started) / 20;
    // Generous for a shared 2-core machine; a scan of 20,000 entries would be several ms per read.
    expect(perRead).toBeLessThan(20);
  });
});

describe('the timer', () => {
  it('nudges the pool when the next run_at comes, not before, and sleeps again after', async () => {
    const nudges: { at: Date; n: number }[] = [];
    const now = await databaseNow(tdb.db);
    const runAt = new Date(now.getTime() + 1500);
    await wakeAt(runAt, 'soon-1');
    await wakeAt(runAt, 'soon-2');
    const t = startWakeTimer({
      db: tdb.db,
      maxNudge: 10,
      maxSleepMs: 10_000,
      log,
      nudge: (n) => {
        // Record the database's instant of the nudge (asynchronously: the nudge itself must not block).
        void databaseNow(tdb.db).then((at) => nudges.push({ at, n }));
      },
    });
    timers.push(t);
    await waitFor(async () => nudges.length > 0, 10_000, () => JSON.stringify(t.stats()));
    const first = nudges[0];
    expect(first.n).toBe(2);
    expect(first.at.getTime()).toBeGreaterThanOrEqual(runAt.getTime());
    // Within 300 ms of the run_at (the idle lag budget), on a busy machine.
    expect(first.at.getTime() - runAt.getTime()).toBeLessThan(300);
    // Nothing else is waiting: the timer sleeps (re-reading only every maxSleepMs) — the ready jobs are the pool's.
    expect(t.stats().armedInMs).toBeGreaterThan(5_000);
  });

  it('learns of a sooner job when asked to re-read (as on a jobs:insert NOTIFY)', async () => {
    const nudges: number[] = [];
    const now = await databaseNow(tdb.db);
    await wakeAt(new Date(now.getTime() + 3_600_000), 'later');
    const t = startWakeTimer({ db: tdb.db, maxNudge: 10, maxSleepMs: 30_000, log, nudge: (n) => nudges.push(n) });
    timers.push(t);
    await waitFor(async () => t.stats().reads > 0, 5_000, () => JSON.stringify(t.stats()));
    expect(t.stats().armedInMs).toBeGreaterThan(20_000);
    const soon = new Date((await databaseNow(tdb.db)).getTime() + 800);
    await wakeAt(soon, 'sooner');
    t.refresh();
    await waitFor(async () => t.stats().armedInMs !== null && t.stats().armedInMs! < 1_000, 5_000, () => JSON.stringify(t.stats()));
    await waitFor(async () => nudges.length > 0, 5_000, () => JSON.stringify(t.stats()));
    expect(nudges[0]).toBe(1);
    expect((await databaseNow(tdb.db)).getTime()).toBeGreaterThanOrEqual(soon.getTime());
  });
});
