/**
 * Benchmark sections steady and idle (BENCHMARKS.md): lag from due instant to provider call and acceptance, at a
 * steady rate and one reminder at a time.
 * Shared helpers, clocks and units: bench/common.ts.
 */
import postgres from 'postgres';
import { freePort } from '@/db/embedded';
import type { BenchServer } from './db';
import { makeDue, plantBatch, setupTenant } from './fixtures';
import { performance } from 'node:perf_hooks';
import { PgCpuMeter } from './db';
import { cpuMs, sleep, type Child } from './proc';
import { type BenchConfig, CpuSplit, pct, perSend, r1, r2, startPunctualWorkers, startSink, stopAll } from './common';

interface LagRow {
  due: Date;
  call: Date | null;
  accepted: Date | null;
}

async function lagRows(sql: postgres.Sql): Promise<LagRow[]> {
  return sql<LagRow[]>`
    select r.due_at as due, a.started_at as call, d.accepted_at as accepted
    from reminders r
    left join deliveries d on d.reminder_id = r.id
    left join delivery_attempts a on a.delivery_id = d.id and a.attempt_no = 1`;
}

/** Percentiles of lag (ms) from due to `field`; rows without it count as (now − due), a lower bound. */
function lagStats(rows: LagRow[], field: 'call' | 'accepted', now: Date) {
  const missing = rows.filter((r) => !r[field]).length;
  const xs = rows.map((r) => (r[field] ?? now).getTime() - r.due.getTime()).sort((a, b) => a - b);
  return { p50: r1(pct(xs, 50)), p95: r1(pct(xs, 95)), p99: r1(pct(xs, 99)), max: r1(xs[xs.length - 1]), missing, lowerBound: missing > 0 };
}

/** Lags of the reminders whose due instant lies in [from, to) (database clock, ms since epoch). */
function lagPhase(rows: LagRow[], from: number, to: number, now: Date) {
  const sel = rows.filter((r) => r.due.getTime() >= from && r.due.getTime() < to);
  return { reminders: sel.length, dueToProviderCall: lagStats(sel, 'call', now), dueToAccepted: lagStats(sel, 'accepted', now) };
}

/** The pass rule of the steady search: warm p99 due → accepted ≤ this many ms, with every warm reminder accepted. */
export const STEADY_WARM_P99_LIMIT_MS = 1000;
/** The first ms of a steady trial (from its first due instant) that count as cold: fresh workers, cold JIT, pools, plans. */
export const STEADY_COLD_MS = 10_000;

/**
 * One steady trial: reminders falling due at `rate` per second for `seconds` (10 due instants a second, rate/10
 * reminders each, one event per instant, each with its wake-up), null sink, W freshly started workers.
 * Lags due → provider call (attempt start) and due → accepted, split into **cold** (due in the first
 * {@link STEADY_COLD_MS}) and **warm** (due after). `pass`: warm p99 due → accepted ≤ {@link STEADY_WARM_P99_LIMIT_MS}
 * with none of the warm reminders missing. keptUp: 1 s after the last due instant at most 1 % of all (and at most
 * rate/10) are due but not yet accepted. After the last due instant it waits up to `graceMs` for the rest; those still
 * not accepted count with (now − due), so their percentiles are lower bounds.
 */
export async function runSteady(server: BenchServer, cfg: BenchConfig, rate: number, seconds: number, graceMs: number) {
  const d = await server.freshDatabase(`steady${rate}`);
  const sql = postgres(d.url, { max: 2, onnotice: () => {} });
  const children: Child[] = [];
  const wallStart = Date.now();
  try {
    const t = await setupTenant(d.url);
    const n = rate * seconds;
    const instants = seconds * 10;
    await plantBatch(sql, t, 's', n, instants);
    const sink = startSink('null', d.url, await freePort());
    children.push(sink);
    const workers = await startPunctualWorkers(cfg, d.url, sink.url);
    children.push(...workers);
    await sink.started;
    const cpu = new CpuSplit(server, d.name, workers, sink);
    await cpu.start();
    const t0 = await makeDue(sql, t, 's', { leadMs: 1500, stepMs: 100 });
    const lastDue = t0.getTime() + (instants - 1) * 100;
    // Wait for (database) lastDue + 1 s, then count the backlog.
    const [{ now: n0 }] = await sql<{ now: Date }[]>`select clock_timestamp() as now`;
    await sleep(Math.max(0, lastDue + 1000 - n0.getTime()));
    const [{ backlog }] = await sql<{ backlog: number }[]>`
      select count(*)::int as backlog from reminders r where r.due_at <= now() and not exists (select 1 from deliveries d where d.reminder_id = r.id and d.accepted_at is not null)`;
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline) {
      const [{ a }] = await sql<{ a: number }[]>`select count(*)::int as a from deliveries where accepted_at is not null`;
      if (a >= n) break;
      await sleep(200);
    }
    const [{ now }] = await sql<{ now: Date }[]>`select clock_timestamp() as now`;
    const rows = await lagRows(sql);
    const split = await cpu.stop();
    await stopAll(workers);
    const accepted = rows.filter((r) => r.accepted).length;
    const keptUp = backlog <= Math.max(1, Math.min(n * 0.01, rate / 10));
    const cold = lagPhase(rows, -Infinity, t0.getTime() + STEADY_COLD_MS, now);
    const warm = lagPhase(rows, t0.getTime() + STEADY_COLD_MS, Infinity, now);
    const wa = warm.dueToAccepted;
    const pass = warm.reminders > 0 && !wa.lowerBound && wa.p99 !== null && wa.p99 <= STEADY_WARM_P99_LIMIT_MS;
    const out = {
      ratePerSecond: rate,
      seconds,
      reminders: n,
      accepted,
      backlogOneSecondAfterLastDue: backlog,
      keptUp,
      pass,
      cold,
      warm,
      lagMs: { dueToProviderCall: lagStats(rows, 'call', now), dueToAccepted: lagStats(rows, 'accepted', now) },
      cpuMsPerSend: { worker: perSend(split.worker, accepted), postgres: perSend(split.postgres, accepted) },
      wallSeconds: Math.round((Date.now() - wallStart) / 1000),
    };
    const ca = cold.dueToAccepted;
    const lb = (l: { lowerBound: boolean }) => (l.lowerBound ? '≥ ' : '');
    cfg.log(
      `steady ${rate}/s × ${seconds} s: ${pass ? 'PASS' : 'fail'} — warm due → accepted p50 ${lb(wa)}${wa.p50} p99 ${lb(wa)}${wa.p99} ms; cold p50 ${lb(ca)}${ca.p50} p99 ${lb(ca)}${ca.p99} ms; backlog ${backlog} 1 s after the last due instant (${keptUp ? 'kept up' : 'did NOT keep up'})${wa.lowerBound || ca.lowerBound ? `; ${n - accepted} not accepted` : ''}`,
    );
    return out;
  } finally {
    await stopAll(children);
    await sql.end({ timeout: 2 });
    await d.drop();
  }
}

/** A steady rate as the fixtures can make it: a positive multiple of 10 (10 due instants a second). */
const steadyRate = (x: number) => Math.max(10, Math.round(x / 10) * 10);

/**
 * The steady search: the highest rate whose warm p99 due → accepted stays ≤ 1 s ({@link runSteady}'s `pass`), by a
 * step search within a wall-clock budget. From `startRate` it multiplies by `factor` while trials pass and divides
 * while they fail; once it has a passing and a failing rate it bisects between them (rates are multiples of 10).
 * It stops when the next trial would overrun `budgetMs` (estimated from the longest trial so far), when the bracket
 * is within 15 % (or 10/s), after `maxTrials`, or below 10/s.
 * @returns every trial, `highestPassingRate` (null if none passed) and `lowestFailingRate` (null if none failed):
 * the answer lies in [highestPassingRate, lowestFailingRate).
 */
export async function runSteadySearch(server: BenchServer, cfg: BenchConfig, o: { startRate: number; factor: number; seconds: number; graceMs: number; budgetMs: number; maxTrials: number }) {
  const started = Date.now();
  const trials: Awaited<ReturnType<typeof runSteady>>[] = [];
  let lo: number | null = null;
  let hi: number | null = null;
  let rate = steadyRate(o.startRate);
  let longest = 0; // the longest trial so far (wall-clock ms): the estimate of the next
  let stopReason = 'maxTrials';
  while (trials.length < o.maxTrials) {
    if (Date.now() - started + longest > o.budgetMs && trials.length > 0) {
      stopReason = 'budget';
      break;
    }
    const t0 = Date.now();
    const tr = await runSteady(server, cfg, rate, o.seconds, o.graceMs);
    trials.push(tr);
    longest = Math.max(longest, Date.now() - t0);
    if (tr.pass) lo = Math.max(lo ?? 0, rate);
    else hi = Math.min(hi ?? Infinity, rate);
    let next: number;
    if (lo !== null && hi !== null) {
      if (hi - lo <= Math.max(10, lo * 0.15)) {
        stopReason = 'bracketed';
        break;
      }
      next = steadyRate((lo + hi) / 2);
      if (next === lo || next === hi) {
        stopReason = 'bracketed';
        break;
      }
    } else next = steadyRate(tr.pass ? rate * o.factor : rate / o.factor);
    if (!tr.pass && rate <= 10) {
      stopReason = 'nothing passes at 10/s';
      break;
    }
    rate = next;
  }
  const out = {
    limitMs: STEADY_WARM_P99_LIMIT_MS,
    coldMs: STEADY_COLD_MS,
    highestPassingRate: lo,
    lowestFailingRate: hi,
    stopReason,
    budgetSeconds: Math.round(o.budgetMs / 1000),
    seconds: Math.round((Date.now() - started) / 1000),
    trials,
  };
  cfg.log(`steady search: highest rate with warm p99 due → accepted ≤ ${STEADY_WARM_P99_LIMIT_MS} ms: ${lo ?? 'none'}/s${hi !== null ? ` (fails at ${hi}/s)` : ' (no failing rate found)'}; ${trials.length} trials in ${out.seconds} s (${stopReason})`);
  return out;
}

/**
 * The idle section: `samples` single reminders due `gapMs` apart (one event each, its own wake-up), null sink,
 * W workers, with `futureJobs` wake-ups waiting a day ahead in the queue (as a planned month has; they must not make
 * an idle worker's reads dearer). Lags due → provider call and due → accepted, p50/p99.
 *
 * Then the idle cost: after the samples (and 1 s to settle), nothing is due for `cpuWindowMs`; the bench does not
 * query during the window. Figures in % of one core (CPU ms / window ms × 100):
 *  - `workerPercentOfCore`: each worker process (utime + stime, /proc) — its polls, timers, metrics, clock samples;
 *  - `postgresPercentOfCore`: the PostgreSQL backends connected to the section's database (the workers' connections;
 *    an autovacuum worker that visits it too), sampled every second from pg_stat_activity and /proc — on the
 *    embedded server too: its background processes (checkpointer, WAL writer…) are not the workers' cost;
 *  - `perWorkerPercentOfCore`: max worker + PostgreSQL's share (÷ W): what one idle worker costs the machine.
 * The minute cron's dispatcher pass falls into a window now and then; it is part of the idle cost.
 */
export async function runIdle(server: BenchServer, cfg: BenchConfig, samples: number, gapMs: number, cpuWindowMs: number, futureJobs = 1000) {
  const d = await server.freshDatabase('idle');
  const sql = postgres(d.url, { max: 2, onnotice: () => {} });
  const children: Child[] = [];
  try {
    const t = await setupTenant(d.url);
    await plantBatch(sql, t, 'i', samples, samples);
    await sql`
      select graphile_worker.add_jobs(array_agg(row('dispatch_due', json_build_object('reason', 'wake'), null, now() + interval '1 day' + g * interval '1 second', null, 'bench-future:' || g, null, null)::graphile_worker.job_spec))
      from generate_series(1, ${futureJobs}::int) g`;
    const sink = startSink('null', d.url, await freePort());
    children.push(sink);
    const workers = await startPunctualWorkers(cfg, d.url, sink.url);
    children.push(...workers);
    await sink.started;
    await sleep(1000); // let the start-up dispatcher pass and first polls settle
    await makeDue(sql, t, 'i', { leadMs: 2000, stepMs: gapMs });
    const deadline = Date.now() + 2000 + samples * gapMs + 10_000;
    while (Date.now() < deadline) {
      const [{ a }] = await sql<{ a: number }[]>`select count(*)::int as a from deliveries where accepted_at is not null`;
      if (a >= samples) break;
      await sleep(250);
    }
    const [{ now }] = await sql<{ now: Date }[]>`select clock_timestamp() as now`;
    const rows = await lagRows(sql);
    // Idle cost: nothing due, nobody querying but the workers.
    await sleep(1000);
    const w0 = workers.map((w) => cpuMs(w.pid));
    const pg = new PgCpuMeter(server, d.name, { backendsOnly: true });
    await pg.start();
    const c0 = performance.now();
    await sleep(cpuWindowMs);
    const windowMs = performance.now() - c0;
    const w1 = workers.map((w) => cpuMs(w.pid));
    const pgMs = await pg.stop();
    const pct100 = (ms: number | null, over: number) => (ms === null ? null : r2((ms / over) * 100));
    const workerPercent = workers.map((_, i) => (w0[i] === null || w1[i] === null ? null : pct100(w1[i]! - w0[i]!, windowMs)));
    const pgPercent = pgMs === null ? null : (pgMs / windowMs) * 100;
    const maxWorker = workerPercent.some((x) => x === null) ? null : Math.max(...(workerPercent as number[]));
    const out = {
      samples,
      gapMs,
      workers: cfg.workers,
      futureJobs,
      accepted: rows.filter((r) => r.accepted).length,
      lagMs: { dueToProviderCall: lagStats(rows, 'call', now), dueToAccepted: lagStats(rows, 'accepted', now) },
      cpu: {
        windowSeconds: r2(windowMs / 1000),
        workerPercentOfCore: workerPercent,
        postgresPercentOfCore: r2(pgPercent),
        perWorkerPercentOfCore: maxWorker === null || pgPercent === null ? null : r2(maxWorker + pgPercent / cfg.workers),
      },
    };
    cfg.log(
      `idle: ${samples} single reminders ${gapMs} ms apart: due → provider call p50 ${out.lagMs.dueToProviderCall.p50} p99 ${out.lagMs.dueToProviderCall.p99} ms; due → accepted p50 ${out.lagMs.dueToAccepted.p50} p99 ${out.lagMs.dueToAccepted.p99} ms; idle CPU per worker ${out.cpu.perWorkerPercentOfCore} % of a core (workers ${workerPercent.join(', ')} %, PostgreSQL backends ${out.cpu.postgresPercentOfCore} %)`,
    );
    return out;
  } finally {
    await stopAll(children);
    await sql.end({ timeout: 2 });
    await d.drop();
  }
}
