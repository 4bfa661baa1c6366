/**
 * The benchmark's sections (see BENCHMARKS.md for what each figure means). Every section runs in its own fresh
 * database (bench/db.ts) with its own worker processes and SMTP sink process, and returns a plain JSON object
 * that scripts/bench.ts writes to bench/results.json under the section's name.
 *
 * Clocks: every instant compared with a due instant is the database's (reminders.due_at, deliveries.accepted_at,
 * delivery_attempts.started_at, bench_bare.sent_at, now()); durations measured by this process alone (a claim,
 * a query) are wall-clock ms from performance.now(). CPU figures are ms of CPU time from /proc (bench/proc.ts).
 */
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { claimDueReminders } from '@/db/queries/sending/dispatch';
import { createDb } from '@/db/client';
import { freePort } from '@/db/embedded';
import type { BenchServer } from './db';
import { PgCpuMeter } from './db';
import { makeDue, plantBatch, setupTenant, type BenchTenant } from './fixtures';
import { cpuMs, peakRssMb, sleep, startNode, type Child } from './proc';

export type SinkKind = 'null' | 'catcher';

export interface BenchConfig {
  quick: boolean;
  workers: number;
  concurrency: number;
  log: (m: string) => void;
}

const r1 = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? null : Math.round(x * 10) / 10);
const r2 = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? null : Math.round(x * 100) / 100);

/** p-th percentile (nearest rank) of ascending `xs`; null when empty. */
function pct(xs: number[], p: number): number | null {
  if (!xs.length) return null;
  return xs[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))];
}

const median = (xs: number[]) => pct([...xs].sort((a, b) => a - b), 50);

// ---------------------------------------------------------------------------------------------- processes

interface Sink extends Child {
  url: string;
  stats(): Promise<{ messages: number; distinctMessageIds: number }>;
}

/** Starts the sink process on `port`; the caller may start senders at once (they retry until it listens). */
function startSink(kind: SinkKind, dbUrl: string, port: number): Sink & { started: Promise<void> } {
  const c = startNode('bench/sink.ts', { BENCH_SINK: kind, DATABASE_URL: dbUrl, BENCH_SINK_PORT: String(port) }, /sink ready (\S+)/, `sink:${kind}`, true);
  return {
    ...c,
    started: c.ready.then(() => undefined),
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    stats: () =>
      new Promise((resolve) => {
        const onMsg = (m: { type?: string; messages: number; distinctMessageIds: number }) => {
          if (m?.type !== 'stats') return;
          c.proc.off('message', onMsg);
          resolve({ messages: m.messages, distinctMessageIds: m.distinctMessageIds });
        };
        c.proc.on('message', onMsg);
        c.proc.send({ type: 'stats' });
      }),
  };
}

/** W Punctual workers: scripts/worker.ts with DATABASE_URL, SMTP_URL and WORKER_CONCURRENCY. */
async function startPunctualWorkers(cfg: BenchConfig, dbUrl: string, smtpUrl: string): Promise<Child[]> {
  const ws = Array.from({ length: cfg.workers }, (_, i) =>
    startNode('scripts/worker.ts', { DATABASE_URL: dbUrl, SMTP_URL: smtpUrl, WORKER_CONCURRENCY: String(cfg.concurrency) }, /running/, `worker${i + 1}`),
  );
  await Promise.all(ws.map((w) => w.ready));
  return ws;
}

async function startBareWorkers(cfg: BenchConfig, dbUrl: string, smtpUrl: string): Promise<Child[]> {
  const ws = Array.from({ length: cfg.workers }, (_, i) =>
    startNode('bench/bare-worker.ts', { DATABASE_URL: dbUrl, BENCH_SMTP_URL: smtpUrl, BENCH_CONCURRENCY: String(cfg.concurrency) }, /bare worker running/, `bare${i + 1}`),
  );
  await Promise.all(ws.map((w) => w.ready));
  return ws;
}

/** CPU of workers, PostgreSQL and the sink between two instants (ms). */
class CpuSplit {
  private w0: number[] = [];
  private s0 = 0;
  private pg: PgCpuMeter;
  constructor(
    server: BenchServer,
    dbName: string,
    private workers: Child[],
    private sink: Child,
  ) {
    this.pg = new PgCpuMeter(server, dbName);
  }
  async start() {
    this.w0 = this.workers.map((w) => cpuMs(w.pid) ?? NaN);
    this.s0 = cpuMs(this.sink.pid) ?? NaN;
    await this.pg.start();
  }
  async stop(): Promise<{ worker: number | null; postgres: number | null; sink: number | null }> {
    const worker = this.workers.reduce((s, w, i) => s + ((cpuMs(w.pid) ?? NaN) - this.w0[i]), 0);
    const sink = (cpuMs(this.sink.pid) ?? NaN) - this.s0;
    const postgres = await this.pg.stop();
    return { worker: Number.isFinite(worker) ? worker : null, postgres, sink: Number.isFinite(sink) ? sink : null };
  }
}

const perSend = (ms: number | null, n: number) => (ms === null || n === 0 ? null : r2(ms / n));

async function stopAll(children: Child[]) {
  await Promise.all(children.map((c) => c.stop()));
}

// ---------------------------------------------------------------------------------------------- bare, bare+render, drain

/**
 * The three throughput runs for one sink, side by side in one database with one sink process:
 *  1. bare: `n` bare_send jobs (bench/bare-worker.ts × W, concurrency C) added in one transaction;
 *     messages/s = sent / (last sent_at − commit instant);
 *  2. bare+render: the same with Punctual's render per message;
 *  3. drain: `n` reminders (planned first, 1,000 per event) made due at one instant after planning committed,
 *     through W Punctual workers (scripts/worker.ts); messages/s = accepted / (last accepted_at − due instant).
 *     Verifies: accepted count, delivery/reminder states, 0 duplicates (sink Message-IDs, deliveries per reminder).
 * Each run stops at `capMs` (then `capped: true` and the rate is what was sent within the cap); CPU ms per send is
 * split into worker / PostgreSQL / sink (bench/proc.ts, bench/db.ts).
 */
export async function runPipelines(server: BenchServer, cfg: BenchConfig, sinkKind: SinkKind, n: number, capMs: number, which: { bare: boolean; drain: boolean }) {
  const d = await server.freshDatabase(`pipelines${sinkKind}`);
  const sql = postgres(d.url, { max: 2, onnotice: () => {} });
  const children: Child[] = [];
  const result: { bare?: Awaited<ReturnType<typeof bareRun>>; bareRender?: Awaited<ReturnType<typeof bareRun>>; drain?: Awaited<ReturnType<typeof drainRun>> } = {};
  try {
    const t: BenchTenant = await setupTenant(d.url);
    const planStart = performance.now();
    if (which.drain) await plantBatch(sql, t, 'd', n, Math.max(1, Math.ceil(n / 1000)));
    const planMs = performance.now() - planStart;
    await sql`create table bench_bare (id int primary key, sent_at timestamptz, message_id text)`;
    const sink = startSink(sinkKind, d.url, await freePort());
    children.push(sink);
    if (which.bare) {
      const workers = await startBareWorkers(cfg, d.url, sink.url);
      children.push(...workers);
      await sink.started;
      result.bare = await bareRun(server, cfg, d.name, sql, sink, workers, sinkKind, false, n, capMs);
      result.bareRender = await bareRun(server, cfg, d.name, sql, sink, workers, sinkKind, true, n, capMs);
      await stopAll(workers);
    }
    if (which.drain) {
      const workers = await startPunctualWorkers(cfg, d.url, sink.url);
      children.push(...workers);
      await sink.started;
      result.drain = await drainRun(server, cfg, d.name, sql, sink, workers, t, sinkKind, n, capMs, planMs);
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
  await cpu.start();
  const deadline = Date.now() + capMs + Math.max(0, start.getTime() - committed.getTime());
  let accepted = 0;
  let rss = 0;
  while (Date.now() < deadline) {
    [{ accepted }] = await sql<{ accepted: number }[]>`select count(*)::int as accepted from deliveries where accepted_at is not null`;
    for (const w of workers) rss = Math.max(rss, peakRssMb(w.pid) ?? 0);
    if (accepted >= n) break;
    await sleep(250);
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
    cpuMsPerSend: {
      worker: perSend(split.worker, accepted),
      postgres: perSend(split.postgres, accepted),
      sink: perSend(split.sink, accepted),
      workerPlusPostgres: perSend(split.worker === null || split.postgres === null ? null : split.worker + split.postgres, accepted),
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
// ---------------------------------------------------------------------------------------------- steady / idle

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

// ---------------------------------------------------------------------------------------------- plan

type BulkFn = (
  db: unknown,
  tenantId: string,
  eventId: string,
  people: { role: 'attendee' | 'host' | 'external'; contact: { email: string; name?: string; timeZone?: string; locale?: string } }[],
  now: Date,
  opts?: { notify?: boolean },
) => Promise<{ bookings: number; reminders: number; skipped: { index: number; reason: string }[] }>;

/**
 * Planning `bookings` bookings (1,000 per event) with server/scheduling/scheduling.ts `addBookingsBulk` when that module
 * exports it (default options); otherwise — clearly labelled — `addBooking` one booking at a time until
 * `fallbackCapMs`. bookings/s = bookings planned / wall-clock seconds of the planning calls (this process).
 */
export async function runPlan(server: BenchServer, cfg: BenchConfig, bookings: number, fallbackCapMs: number) {
  const d = await server.freshDatabase('plan');
  const h = createDb(d.url, { max: 4 });
  try {
    const t = await setupTenant(d.url);
    const scheduling = (await import('@/server/scheduling/scheduling')) as Record<string, unknown>;
    const bulk = typeof scheduling.addBookingsBulk === 'function' ? (scheduling.addBookingsBulk as BulkFn) : null;
    const { createEvent, addBooking } = await import('@/server/scheduling/scheduling');
    const perEvent = 1000;
    const eventCount = Math.ceil(bookings / perEvent);
    const start = new Date(Date.now() + 7 * 86_400_000);
    const eventIds: string[] = [];
    for (let i = 0; i < eventCount; i++) {
      const e = await createEvent(h.db, t.tenantId, { title: `Workshop ${i}`, startsAt: new Date(start.getTime() + i * 60_000), endsAt: new Date(start.getTime() + i * 60_000 + 3_600_000), timeZone: 'Europe/Amsterdam' });
      eventIds.push(e.id);
    }
    const person = (g: number) => ({ role: 'attendee' as const, contact: { email: `bee${g}@bench.test`, name: `Bee ${g}`, locale: 'en' } });
    let planned = 0;
    let reminders = 0;
    let skipped = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    if (bulk) {
      for (let i = 0; i < eventCount; i++) {
        const people = Array.from({ length: Math.min(perEvent, bookings - i * perEvent) }, (_, k) => person(i * perEvent + k));
        const r = await bulk(h.db, t.tenantId, eventIds[i], people, new Date());
        planned += r.bookings;
        reminders += r.reminders;
        skipped += r.skipped.length;
      }
    } else {
      const deadline = t0 + fallbackCapMs;
      for (let g = 0; g < bookings && performance.now() < deadline; g++) {
        await addBooking(h.db, t.tenantId, { eventId: eventIds[Math.floor(g / perEvent)], ...person(g) }, new Date());
        planned++;
      }
    }
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (!bulk) {
      const [{ n }] = await h.sql<{ n: number }[]>`select count(*)::int as n from reminders`;
      reminders = n;
    }
    const out = {
      path: bulk ? 'addBookingsBulk (1,000 people per call, default options)' : 'FALLBACK: addBooking one booking at a time (addBookingsBulk is not exported by server/scheduling/scheduling.ts) — stopped at the time cap',
      bulk: !!bulk,
      target: bookings,
      bookings: planned,
      reminders,
      skipped,
      seconds: r2(ms / 1000),
      bookingsPerSecond: r1(planned / (ms / 1000)),
      benchProcessCpuMsPerBooking: r2((cpu.user + cpu.system) / 1000 / Math.max(1, planned)),
    };
    cfg.log(`plan: ${planned} bookings (${reminders} reminders) in ${out.seconds} s → ${out.bookingsPerSecond} bookings/s via ${bulk ? 'addBookingsBulk' : 'the FALLBACK addBooking loop'}`);
    return out;
  } finally {
    await h.close();
    await d.drop();
  }
}

// ---------------------------------------------------------------------------------------------- scale

/**
 * `rows` reminders in the table (1,000 bookings × rows/1,000 schedule versions): 0.1 % due now, 2 % scheduled in
 * the future, the rest `done` in the past with an accepted/delivered delivery each (0.1 % of those `retrying`
 * later). Then: the due query (median ms of 15), a 100-row claim (db/queries/sending/dispatch.ts claimDueReminders inside
 * a transaction that is rolled back; median of 15), one dispatcher pass with nothing due (server/sending/dispatch.ts
 * dispatchDue at an instant before every due_at: only the expiry/recovery scans run; median of 5), and
 * EXPLAIN (ANALYZE, BUFFERS) of the due query.
 */
export async function runScale(server: BenchServer, cfg: BenchConfig, rows: number) {
  const d = await server.freshDatabase('scale');
  const h = createDb(d.url, { max: 2 });
  const sql = h.sql;
  try {
    const t = await setupTenant(d.url);
    const fill0 = performance.now();
    await sql`
      insert into events (id, tenant_id, title, starts_at, ends_at, time_zone, external_uid)
      select md5('x:e:' || e)::uuid, ${t.tenantId}, 'Workshop ' || e, now() + interval '30 days', now() + interval '30 days 1 hour', 'Europe/Amsterdam', 'x:' || e
      from generate_series(0, 999) e`;
    await sql`
      insert into contacts (id, tenant_id, name, email) select md5('x:c:' || g)::uuid, ${t.tenantId}, 'Bee ' || g, 'bee' || g || '@bench.test' from generate_series(0, 999) g`;
    await sql`
      insert into bookings (id, tenant_id, event_id, contact_id, role)
      select md5('x:b:' || g)::uuid, ${t.tenantId}, md5('x:e:' || g)::uuid, md5('x:c:' || g)::uuid, 'attendee' from generate_series(0, 999) g`;
    await sql`
      insert into reminders (tenant_id, event_id, booking_id, rule_id, schedule_version, channel, due_at, expires_at, status, dispatched_at, created_at, updated_at)
      select ${t.tenantId}, md5('x:e:' || (g % 1000))::uuid, md5('x:b:' || (g % 1000))::uuid, ${t.ruleId}, g / 1000 + 1, 'email', due, due + interval '1 hour',
             st::reminder_status, case when st = 'done' then due end, least(due, now()), least(due, now())
      from (
        select g,
          case when g % 1000 = 7 then 'scheduled' when g % 100 in (1, 2) then 'scheduled' else 'done' end as st,
          case when g % 1000 = 7 then now() - (g % 600) * interval '1 second'
               when g % 100 in (1, 2) then now() + interval '1 day' + (g % 10000) * interval '1 minute'
               else now() - interval '1 day' - (g % 100000) * interval '1 minute' end as due
        from generate_series(0, ${rows - 1}) g
      ) x`;
    await sql`
      insert into deliveries (tenant_id, reminder_id, message_key, channel, address, template, status, attempt_count, accepted_at, next_attempt_at, created_at, updated_at)
      select r.tenant_id, r.id, 'rem:bench:' || r.id, 'email', 'bee@bench.test', 'attendee-reminder',
             case when r.schedule_version % 1000 = 3 then 'retrying' when r.schedule_version % 3 = 0 then 'accepted' else 'delivered' end::delivery_status,
             1, r.due_at, case when r.schedule_version % 1000 = 3 then now() + interval '1 hour' end, r.due_at, r.due_at
      from reminders r where r.status = 'done'`;
    await sql`analyze`;
    const fillMs = performance.now() - fill0;
    const [{ reminders: total, scheduled, due }] = await sql<{ reminders: number; scheduled: number; due: number }[]>`
      select count(*)::int as reminders, count(*) filter (where status = 'scheduled')::int as scheduled,
             count(*) filter (where status = 'scheduled' and due_at <= now())::int as due from reminders`;
    const [{ deliveries }] = await sql<{ deliveries: number }[]>`select count(*)::int as deliveries from deliveries`;
    // drizzle's driver setup returns timestamps as strings on this client: parse them.
    const [{ now: nowRaw }] = await sql<{ now: Date | string }[]>`select now() as now`;
    const now = new Date(nowRaw);
    const nowIso = now.toISOString();
    const dueSelect = (lock: boolean) => `
      select id, due_at from reminders
      where status = 'scheduled' and due_at <= '${nowIso}'::timestamptz and expires_at > '${nowIso}'::timestamptz
      order by due_at, id limit 100${lock ? ' for update skip locked' : ''}`;
    const queryMs: number[] = [];
    for (let i = 0; i < 15; i++) {
      const q0 = performance.now();
      await sql.unsafe(dueSelect(false));
      queryMs.push(performance.now() - q0);
    }
    const claimMs: number[] = [];
    let claimed = 0;
    class Rollback extends Error {}
    for (let i = 0; i < 15; i++) {
      await h.db
        .transaction(async (tx) => {
          const c0 = performance.now();
          claimed = (await claimDueReminders(tx, now, 100)).claimed;
          claimMs.push(performance.now() - c0);
          throw new Rollback();
        })
        .catch((e) => {
          if (!(e instanceof Rollback)) throw e;
        });
    }
    let explain = '';
    await sql
      .begin(async (tx) => {
        const plan = await tx.unsafe<{ 'QUERY PLAN': string }[]>(`explain (analyze, buffers) ${dueSelect(true)}`);
        explain = plan.map((p) => p['QUERY PLAN']).join('\n');
        throw new Rollback();
      })
      .catch((e) => {
        if (!(e instanceof Rollback)) throw e;
      });
    const passMs: number[] = [];
    const { dispatchDue } = await import('@/server/sending/dispatch');
    const before = new Date(now.getTime() - 2 * 86_400_000 - 100_000 * 60_000);
    for (let i = 0; i < 5; i++) {
      const p0 = performance.now();
      await dispatchDue(h.db, before);
      passMs.push(performance.now() - p0);
    }
    const indexes = [...explain.matchAll(/(?:Index (?:Only )?Scan(?: Backward)? using|Bitmap Index Scan on) (\S+)/g)].map((m) => m[1]);
    const out = {
      reminders: total,
      scheduled,
      dueNow: due,
      deliveries,
      fillSeconds: r1(fillMs / 1000),
      dueQueryMs: r2(median(queryMs)),
      claim100Ms: r2(median(claimMs)),
      claimedPerClaim: claimed,
      emptyDispatcherPassMs: r1(median(passMs)),
      explainIndexes: indexes,
      explainSeqScanOnReminders: /Seq Scan on reminders/.test(explain),
      explain,
    };
    cfg.log(`scale: ${total} reminders, ${deliveries} deliveries: due query ${out.dueQueryMs} ms, 100-row claim ${out.claim100Ms} ms (median of 15, rolled back), empty dispatcher pass ${out.emptyDispatcherPassMs} ms; plan uses ${indexes.join(', ') || 'no index'}`);
    return out;
  } finally {
    await h.close();
    await d.drop();
  }
}
