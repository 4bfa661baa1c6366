/**
 * What the benchmark's sections share (see BENCHMARKS.md for what each figure means): the run configuration,
 * rounding and percentiles, the sink and worker processes, and the CPU split between them. The sections are
 * bench/pipelines.ts (bare, bare+render, drain), bench/steady.ts (steady, idle), bench/plan.ts and bench/scale.ts.
 * Every section runs in its own fresh database (bench/db.ts) with its own worker processes and SMTP sink process,
 * and returns a plain JSON object that scripts/bench.ts writes to bench/results.json under the section's name.
 *
 * Clocks: every instant compared with a due instant is the database's (reminders.due_at, deliveries.accepted_at,
 * delivery_attempts.started_at, bench_bare.sent_at, now()); durations measured by this process alone (a claim,
 * a query) are wall-clock ms from performance.now(). CPU figures are ms of CPU time from /proc (bench/proc.ts).
 */
import { randomBytes } from 'node:crypto';
import type { BenchServer } from './db';
import { PgCpuMeter } from './db';
import { cpuMs, startNode, type Child } from './proc';

/** The SMTP sink a run sends to (bench/sink.ts): `null` (bench/null-sink.ts, accepts and forgets) or `catcher` (dev/mail-catcher.ts, stores every message). */
export type SinkKind = 'null' | 'catcher';

/** The run's settings (scripts/bench.ts flags): quick sizes, W worker processes × concurrency C, and where progress lines go. */
export interface BenchConfig {
  quick: boolean;
  workers: number;
  concurrency: number;
  log: (m: string) => void;
}

/** `x` rounded to 0.1; null for null, undefined or a non-finite number. */
export const r1 = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? null : Math.round(x * 10) / 10);
/** `x` rounded to 0.01; null for null, undefined or a non-finite number. */
export const r2 = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? null : Math.round(x * 100) / 100);

/** p-th percentile (nearest rank) of ascending `xs`; null when empty. */
export function pct(xs: number[], p: number): number | null {
  if (!xs.length) return null;
  return xs[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))];
}

/** Median (nearest rank) of `xs` in any order; null when empty. */
export const median = (xs: number[]) => pct([...xs].sort((a, b) => a - b), 50);

// ---------------------------------------------------------------------------------------------- processes

/** A running sink process: its SMTP URL and a query for what it received (messages, distinct Message-IDs). */
export interface Sink extends Child {
  url: string;
  stats(): Promise<{ messages: number; distinctMessageIds: number }>;
}

/**
 * Starts the sink process on `port`; the caller may start senders at once (they retry until it listens).
 * The catcher requires SMTP AUTH (dev/mail-catcher.ts): the sink gets a login made here (BENCH_SINK_USER /
 * BENCH_SINK_PASS) and `url` carries it (`smtp://bench:<password>@127.0.0.1:<port>?ignoreTLS=true`), so the
 * Punctual workers (SMTP_URL) and the bare workers (BENCH_SMTP_URL) log in with it. The null sink offers no AUTH and
 * its URL has no login.
 */
export function startSink(kind: SinkKind, dbUrl: string, port: number): Sink & { started: Promise<void> } {
  const auth = kind === 'catcher' ? { user: 'bench', pass: randomBytes(12).toString('hex') } : null;
  const c = startNode(
    'bench/sink.ts',
    { BENCH_SINK: kind, DATABASE_URL: dbUrl, BENCH_SINK_PORT: String(port), ...(auth ? { BENCH_SINK_USER: auth.user, BENCH_SINK_PASS: auth.pass } : {}) },
    /sink ready (\S+)/,
    `sink:${kind}`,
    true,
  );
  return {
    ...c,
    started: c.ready.then(() => undefined),
    url: `smtp://${auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}@` : ''}127.0.0.1:${port}?ignoreTLS=true`,
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
export async function startPunctualWorkers(cfg: BenchConfig, dbUrl: string, smtpUrl: string): Promise<Child[]> {
  const ws = Array.from({ length: cfg.workers }, (_, i) =>
    startNode('scripts/worker.ts', { DATABASE_URL: dbUrl, SMTP_URL: smtpUrl, WORKER_CONCURRENCY: String(cfg.concurrency) }, /running/, `worker${i + 1}`),
  );
  await Promise.all(ws.map((w) => w.ready));
  return ws;
}

/** W bare workers (bench/bare-worker.ts) with DATABASE_URL, BENCH_SMTP_URL and BENCH_CONCURRENCY. */
export async function startBareWorkers(cfg: BenchConfig, dbUrl: string, smtpUrl: string): Promise<Child[]> {
  const ws = Array.from({ length: cfg.workers }, (_, i) =>
    startNode('bench/bare-worker.ts', { DATABASE_URL: dbUrl, BENCH_SMTP_URL: smtpUrl, BENCH_CONCURRENCY: String(cfg.concurrency) }, /bare worker running/, `bare${i + 1}`),
  );
  await Promise.all(ws.map((w) => w.ready));
  return ws;
}

/** CPU of workers, PostgreSQL and the sink between two instants (ms). */
export class CpuSplit {
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

/** CPU ms per send (`ms` over `n` sends, to 0.01); null when unmeasured or nothing was sent. */
export const perSend = (ms: number | null, n: number) => (ms === null || n === 0 ? null : r2(ms / n));

/** Stops every child process and waits for them. */
export async function stopAll(children: Child[]) {
  await Promise.all(children.map((c) => c.stop()));
}
