/**
 * Benchmark sections bare, bare+render and drain (BENCHMARKS.md): throughput of the bare pipeline and of the full
 * Punctual path, per sink.
 * Shared helpers, clocks and units: bench/common.ts.
 */
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { freePort } from '@/db/embedded';
import type { BenchServer } from './db';
import { makeDue, plantBatch, setupTenant, type BenchTenant } from './fixtures';
import { peakRssMb, sleep, type Child } from './proc';
import { type BenchConfig, CpuSplit, type Sink, type SinkKind, perSend, r1, r2, startBareWorkers, startPunctualWorkers, startSink, stopAll } from './common';

/**
 * The three throughput runs for one sink, side by side in one database with one sink process:
 *  1. bare: `size.bareN` bare_send jobs (bench/bare-worker.ts × W, concurrency C) added in one transaction;
 *     messages/s = sent / (last sent_at − commit instant); stops at `size.bareCapMs`;
 *  2. bare+render (when `which.bareRender`): the same with Punctual's render per message;
 *  3. drain: `size.drainN` reminders (planned first, 1,000 per event) made due at one instant after planning committed,
 *     through W Punctual workers (scripts/worker.ts); messages/s = accepted / (last accepted_at − due instant).
 *     Verifies: accepted count, delivery/reminder states, 0 duplicates (sink Message-IDs, deliveries per reminder).
 *     It runs until all are accepted or `size.drainCapMs`.
 * A run that hits its cap says `capped: true` and its rate is what was sent within the cap. CPU ms per send is split
 * into worker / PostgreSQL / sink (bench/proc.ts, bench/db.ts); a bare job is one send, so a capped bare run divides
 * the CPU of the sends it made by their number, but a capped drain reports no CPU per send (its dispatcher claimed
 * more reminders than were accepted).
 */
export async function runPipelines(
  server: BenchServer,
  cfg: BenchConfig,
  sinkKind: SinkKind,
  size: { bareN: number; bareCapMs: number; drainN: number; drainCapMs: number },
  which: { bare: boolean; bareRender: boolean; drain: boolean },
) {
  const d = await server.freshDatabase(`pipelines${sinkKind}`);
  const sql = postgres(d.url, { max: 2, onnotice: () => {} });
  const children: Child[] = [];
  const result: { bare?: Awaited<ReturnType<typeof bareRun>>; bareRender?: Awaited<ReturnType<typeof bareRun>>; drain?: Awaited<ReturnType<typeof drainRun>> } = {};
  try {
    const t: BenchTenant = await setupTenant(d.url);
    const planStart = performance.now();
    if (which.drain) await plantBatch(sql, t, 'd', size.drainN, Math.max(1, Math.ceil(size.drainN / 1000)));
    const planMs = performance.now() - planStart;
    await sql`create table bench_bare (id int primary key, sent_at timestamptz, message_id text)`;
    const sink = startSink(sinkKind, d.url, await freePort());
    children.push(sink);
    if (which.bare) {
      const workers = await startBareWorkers(cfg, d.url, sink.url);
      children.push(...workers);
      await sink.started;
      result.bare = await bareRun(server, cfg, d.name, sql, sink, workers, sinkKind, false, size.bareN, size.bareCapMs);
      if (which.bareRender) result.bareRender = await bareRun(server, cfg, d.name, sql, sink, workers, sinkKind, true, size.bareN, size.bareCapMs);
      await stopAll(workers);
    }
    if (which.drain) {
      const workers = await startPunctualWorkers(cfg, d.url, sink.url);
      children.push(...workers);
      await sink.started;
      result.drain = await drainRun(server, cfg, d.name, sql, sink, workers, t, sinkKind, size.drainN, size.drainCapMs, planMs);
    }
    return result;
  } finally {
    await stopAll(children);
    await sql.end({ timeout: 2 });
    await d.drop();
  }
}

async function bareRun(server: BenchServer, cfg: BenchConfig, dbName: string, sql: postgres.Sql, sink: Sink, workers: Child[], sinkKind: SinkKind, render: boolean, n: number, capMs: number) {
  const label = `${render ? 'bare+render' : 'bare'}/${sinkKind}`;
  const first = render ? n + 1 : 1;
  const s0 = await sink.stats();
  await sql`insert into bench_bare (id) select g from generate_series(${first}::int, ${first + n - 1}::int) g`;
  const cpu = new CpuSplit(server, dbName, workers, sink);
  await sql.begin(
    (tx) =>
      tx`select graphile_worker.add_jobs(array_agg(row('bare_send', json_build_object('id', g, 'render', ${render}::boolean), null, null, null, null, null, null)::graphile_worker.job_spec))
         from generate_series(${first}::int, ${first + n - 1}::int) g`,
  );
  const [{ t0 }] = await sql<{ t0: Date }[]>`select clock_timestamp() as t0`;
  await cpu.start();
  const deadline = Date.now() + capMs;
  let sent = 0;
  while (Date.now() < deadline) {
    [{ sent }] = await sql<{ sent: number }[]>`select count(sent_at)::int as sent from bench_bare where id >= ${first}`;
    if (sent >= n) break;
    await sleep(250);
  }
  const split = await cpu.stop();
  const [{ last, sentNow, now }] = await sql<{ last: Date | null; sentNow: number; now: Date }[]>`
    select max(sent_at) as last, count(sent_at)::int as "sentNow", clock_timestamp() as now from bench_bare where id >= ${first}`;
  const capped = sentNow < n;
  if (capped) {
    // Take the rest off the queue (jobs being worked finish), so the next run starts on an empty queue.
    await sql`select graphile_worker.permanently_fail_jobs(array(select id from graphile_worker.jobs where task_identifier = 'bare_send'), 'bench: time cap')`;
    await sleep(1000);
  }
  const spanMs = (capped ? now : last ?? now).getTime() - t0.getTime();
  const s = await sink.stats();
  const out = {
    sink: sinkKind,
    n,
    sent: sentNow,
    capped,
    seconds: r2(spanMs / 1000),
    messagesPerSecond: r1(sentNow / (spanMs / 1000)),
    cpuMsPerSend: { worker: perSend(split.worker, sent), postgres: perSend(split.postgres, sent), sink: perSend(split.sink, sent) },
    sinkMessages: s.messages - s0.messages,
    duplicates: s.messages - s0.messages - (s.distinctMessageIds - s0.distinctMessageIds),
  };
  cfg.log(`${label}: ${out.sent}/${n} sent in ${out.seconds} s → ${out.messagesPerSecond} msg/s${capped ? ' (stopped at the time cap)' : ''}; CPU/send worker ${out.cpuMsPerSend.worker} ms, PG ${out.cpuMsPerSend.postgres} ms, sink ${out.cpuMsPerSend.sink} ms`);
  return out;
}

async function drainRun(server: BenchServer, cfg: BenchConfig, dbName: string, sql: postgres.Sql, sink: Sink, workers: Child[], t: BenchTenant, sinkKind: SinkKind, n: number, capMs: number, planMs: number) {
  const s0 = await sink.stats();
  const cpu = new CpuSplit(server, dbName, workers, sink);
  const t0 = await makeDue(sql, t, 'd', { leadMs: 1000, stepMs: 0 });
  const [{ committed }] = await sql<{ committed: Date }[]>`select clock_timestamp() as committed`;
  const start = new Date(Math.max(t0.getTime(), committed.getTime()));
  // CPU from the due instant on (not the idle second before it) until every one of the n is accepted: the window
  // holds the claim, the sends and the outcomes of exactly the n sends it is divided by.
  await sleep(Math.max(0, start.getTime() - committed.getTime() - 20));
  await cpu.start();
  const deadline = Date.now() + capMs + 20;
  let accepted = 0;
  let rss = 0;
  while (Date.now() < deadline) {
    [{ accepted }] = await sql<{ accepted: number }[]>`select count(*)::int as accepted from deliveries where accepted_at is not null`;
    for (const w of workers) rss = Math.max(rss, peakRssMb(w.pid) ?? 0);
    if (accepted >= n) break;
    await sleep(100);
  }
  const split = await cpu.stop();
  for (const w of workers) rss = Math.max(rss, peakRssMb(w.pid) ?? 0);
  const [{ last, acceptedNow, now }] = await sql<{ last: Date | null; acceptedNow: number; now: Date }[]>`
    select max(accepted_at) as last, count(accepted_at)::int as "acceptedNow", clock_timestamp() as now from deliveries`;
  const capped = acceptedNow < n;
  const spanMs = (capped ? now : last ?? now).getTime() - start.getTime();
  await stopAll(workers);
  const s = await sink.stats();
  const states = await sql<{ status: string; n: number }[]>`select status::text, count(*)::int as n from deliveries group by 1 order by 1`;
  const reminderStates = await sql<{ status: string; n: number }[]>`select status::text, count(*)::int as n from reminders group by 1 order by 1`;
  const [{ multi }] = await sql<{ multi: number }[]>`select count(*)::int as multi from (select reminder_id from deliveries group by 1 having count(*) > 1) x`;
  const [{ retried }] = await sql<{ retried: number }[]>`select count(*)::int as retried from deliveries where attempt_count > 1`;
  const [{ finalAccepted }] = await sql<{ finalAccepted: number }[]>`select count(accepted_at)::int as "finalAccepted" from deliveries`;
  const sinkMessages = s.messages - s0.messages;
  const out = {
    sink: sinkKind,
    n,
    workers: cfg.workers,
    concurrency: cfg.concurrency,
    planSeconds: r2(planMs / 1000),
    dueAt: start.toISOString(),
    accepted: acceptedNow,
    capped,
    seconds: r2(spanMs / 1000),
    messagesPerSecond: r1(acceptedNow / (spanMs / 1000)),
    // A capped drain has claimed (and partly composed) more reminders than were accepted: its CPU is not divided
    // by the accepted few (BENCHMARKS.md, "CPU ms per send") — the figures are null and say why.
    cpuMsPerSend: accepted < n
      ? { worker: null, postgres: null, sink: null, workerPlusPostgres: null, note: `not measured: capped at ${Math.round(capMs / 1000)} s with ${acceptedNow} of ${n} accepted` }
      : {
          worker: perSend(split.worker, n),
          postgres: perSend(split.postgres, n),
          sink: perSend(split.sink, n),
          workerPlusPostgres: perSend(split.worker === null || split.postgres === null ? null : split.worker + split.postgres, n),
        },
    workerPeakRssMb: r1(rss),
    deliveryStates: Object.fromEntries(states.map((x) => [x.status, x.n])),
    reminderStates: Object.fromEntries(reminderStates.map((x) => [x.status, x.n])),
    sinkMessages,
    duplicates: {
      sinkMessageIds: sinkMessages - (s.distinctMessageIds - s0.distinctMessageIds),
      remindersWithTwoDeliveries: multi,
      deliveriesWithRetries: retried,
    },
    /** After the workers stopped (in-flight sends finished): every message the sink got is an accepted delivery. */
    sinkMatchesAccepted: sinkMessages === finalAccepted,
    allAccepted: finalAccepted === n,
  };
  cfg.log(`drain/${sinkKind}: ${acceptedNow}/${n} accepted in ${out.seconds} s → ${out.messagesPerSecond} msg/s${capped ? ' (stopped at the time cap)' : ''}; CPU/send worker ${out.cpuMsPerSend.worker} ms, PG ${out.cpuMsPerSend.postgres} ms, sink ${out.cpuMsPerSend.sink} ms; peak RSS ${out.workerPeakRssMb} MB; duplicates at sink ${out.duplicates.sinkMessageIds}`);
  return out;
}
