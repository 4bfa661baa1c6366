/**
 * Benchmark sections steady and idle (BENCHMARKS.md): lag from due instant to provider call and acceptance, at a
 * steady rate and one reminder at a time.
 * Shared helpers, clocks and units: bench/common.ts.
 */
import postgres from 'postgres';
import { freePort } from '@/db/embedded';
import type { BenchServer } from './db';
import { makeDue, plantBatch, setupTenant } from './fixtures';
import { sleep, type Child } from './proc';
import { type BenchConfig, CpuSplit, pct, perSend, r1, startPunctualWorkers, startSink, stopAll } from './common';

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

/**
 * Reminders falling due at `rate` per second for `seconds` (10 due instants a second, rate/10 reminders each,
 * one event per instant), null sink. keptUp: 1 s after the last due instant, at most 1 % of them (and at most
 * rate/10) are due but not yet accepted. Lags due → provider call (attempt start) and due → accepted.
 */
export async function runSteady(server: BenchServer, cfg: BenchConfig, rate: number, seconds: number, graceMs: number) {
  const d = await server.freshDatabase(`steady${rate}`);
  const sql = postgres(d.url, { max: 2, onnotice: () => {} });
  const children: Child[] = [];
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
      await sleep(250);
    }
    const [{ now }] = await sql<{ now: Date }[]>`select clock_timestamp() as now`;
    const rows = await lagRows(sql);
    const split = await cpu.stop();
    await stopAll(workers);
    const accepted = rows.filter((r) => r.accepted).length;
    const keptUp = backlog <= Math.max(1, Math.min(n * 0.01, rate / 10));
    const out = {
      ratePerSecond: rate,
      seconds,
      reminders: n,
      accepted,
      backlogOneSecondAfterLastDue: backlog,
      keptUp,
      lagMs: { dueToProviderCall: lagStats(rows, 'call', now), dueToAccepted: lagStats(rows, 'accepted', now) },
      cpuMsPerSend: { worker: perSend(split.worker, accepted), postgres: perSend(split.postgres, accepted) },
    };
    const l = out.lagMs.dueToAccepted;
    cfg.log(`steady ${rate}/s × ${seconds} s: backlog ${backlog} 1 s after the last due instant (${keptUp ? 'kept up' : 'did NOT keep up'}); due → accepted p50 ${l.p50} p95 ${l.p95} p99 ${l.p99} ms${l.lowerBound ? ` (lower bounds: ${l.missing} not accepted)` : ''}`);
    return out;
  } finally {
    await stopAll(children);
    await sql.end({ timeout: 2 });
    await d.drop();
  }
}

/** `samples` single reminders due `gapMs` apart (one event each, its own wake-up), null sink, W workers. */
export async function runIdle(server: BenchServer, cfg: BenchConfig, samples: number, gapMs: number) {
  const d = await server.freshDatabase('idle');
  const sql = postgres(d.url, { max: 2, onnotice: () => {} });
  const children: Child[] = [];
  try {
    const t = await setupTenant(d.url);
    await plantBatch(sql, t, 'i', samples, samples);
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
    const out = {
      samples,
      gapMs,
      workers: cfg.workers,
      accepted: rows.filter((r) => r.accepted).length,
      lagMs: { dueToProviderCall: lagStats(rows, 'call', now), dueToAccepted: lagStats(rows, 'accepted', now) },
    };
    cfg.log(`idle: ${samples} single reminders ${gapMs} ms apart: due → provider call p50 ${out.lagMs.dueToProviderCall.p50} p99 ${out.lagMs.dueToProviderCall.p99} ms; due → accepted p50 ${out.lagMs.dueToAccepted.p50} p99 ${out.lagMs.dueToAccepted.p99} ms`);
    return out;
  } finally {
    await stopAll(children);
    await sql.end({ timeout: 2 });
    await d.drop();
  }
}
