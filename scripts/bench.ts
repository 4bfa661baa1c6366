/**
 * `npm run bench [-- --quick] [--only s1,s2] [--workers W] [--concurrency C]`: prints figures, asserts nothing,
 * and writes them to bench/results.json by section name. Sections (BENCHMARKS.md explains each figure):
 *   bare, bare+render   the bare pipeline (bench/bare-worker.ts), W processes × C, null sink and catcher
 *   drain               N reminders due at once through the full Punctual path (scripts/worker.ts × W), both sinks,
 *                       with ratioToBare, CPU ms per send (worker / PostgreSQL / sink) and worker peak RSS
 *   steady              reminders falling due at 200, 500, 1,000 per second → lag percentiles, keptUp
 *   idle                single reminders due one at a time → lag p50/p99
 *   plan                planning bookings through the bulk path → bookings/s
 *   scale               due query, 100-row claim and an empty dispatcher pass with 1,000,000 reminders; EXPLAIN
 * Uses DATABASE_URL's server (throwaway databases, dropped afterwards) or an embedded PostgreSQL of its own.
 * Throughput runs stop at a time cap (so today's slow path still finishes in time) and say so (`capped`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openServer } from '@/bench/db';
import type { BenchConfig, SinkKind } from '@/bench/common';
import { runPipelines } from '@/bench/pipelines';
import { runPlan } from '@/bench/plan';
import { runScale } from '@/bench/scale';
import { runIdle, runSteady } from '@/bench/steady';
import { root } from './lib';

const ALL = ['bare', 'drain', 'steady', 'idle', 'plan', 'scale'] as const;
type Section = (typeof ALL)[number];

function parseArgs(argv: string[]) {
  const o = { quick: false, only: [...ALL] as Section[], workers: 2, concurrency: Number(process.env.WORKER_CONCURRENCY ?? 10) };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--quick') o.quick = true;
    else if (a.startsWith('--only')) {
      const list = val().split(',').map((s) => s.trim()).filter(Boolean).map((s) => (s === 'bare+render' ? 'bare' : s));
      for (const s of list) if (!(ALL as readonly string[]).includes(s)) throw new Error(`--only: unknown section "${s}" (sections: ${ALL.join(', ')})`);
      o.only = list as Section[];
    } else if (a.startsWith('--workers')) o.workers = Number(val());
    else if (a.startsWith('--concurrency')) o.concurrency = Number(val());
    else if (a === '--help' || a === '-h') {
      console.log('npm run bench -- [--quick] [--only bare,drain,steady,idle,plan,scale] [--workers W] [--concurrency C]');
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isInteger(o.workers) || o.workers < 1) throw new Error('--workers must be a positive integer');
  if (!Number.isInteger(o.concurrency) || o.concurrency < 1) throw new Error('--concurrency must be a positive integer');
  return o;
}

interface Row {
  figure: string;
  value: string;
  target: string;
  met: boolean | null;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const q = args.quick;
  const size = {
    drainN: q ? 2_000 : 20_000,
    capMs: q ? 8_000 : 60_000,
    steadyRates: q ? [200, 500] : [200, 500, 1000],
    steadySeconds: q ? 10 : 30,
    steadyGraceMs: q ? 3_000 : 10_000,
    idleSamples: q ? 8 : 20,
    idleGapMs: 1_500,
    planBookings: q ? 10_000 : 100_000,
    planFallbackCapMs: q ? 6_000 : 20_000,
    scaleRows: q ? 200_000 : 1_000_000,
  };
  const started = performance.now();
  const log = (m: string) => console.log(`[bench +${((performance.now() - started) / 1000).toFixed(0)}s] ${m}`);
  const cfg: BenchConfig = { quick: q, workers: args.workers, concurrency: args.concurrency, log };
  const server = await openServer(log);
  log(`PostgreSQL: ${server.kind === 'embedded' ? 'embedded (own server)' : 'DATABASE_URL (throwaway databases)'}; ${args.workers} workers × concurrency ${args.concurrency}; ${q ? 'quick' : 'full'} run; sections: ${args.only.join(', ')}`);
  const results: Record<string, unknown> = {
    meta: {
      startedAt: new Date().toISOString(),
      quick: q,
      workers: args.workers,
      concurrency: args.concurrency,
      postgres: server.kind,
      node: process.version,
      nodeEnv: process.env.NODE_ENV ?? null,
      sizes: size,
    },
  };
  const has = (s: Section) => args.only.includes(s);
  const sinks: SinkKind[] = ['null', 'catcher'];
  type Tput = { messagesPerSecond: number | null; capped: boolean; cpuMsPerSend: Record<string, number | null> };
  const bare: Partial<Record<SinkKind, Tput>> = {};
  const bareRender: Partial<Record<SinkKind, Tput>> = {};
  const drain: Partial<Record<SinkKind, Tput & Record<string, unknown>>> = {};
  try {
    for (const sink of sinks) {
      if (!has('bare') && !has('drain')) break;
      const r = await runPipelines(server, cfg, sink, size.drainN, size.capMs, { bare: has('bare'), drain: has('drain') });
      if (r.bare) bare[sink] = r.bare;
      if (r.bareRender) bareRender[sink] = r.bareRender;
      if (r.drain) {
        const dr = r.drain;
        const b = bare[sink]?.messagesPerSecond;
        const br = bareRender[sink]?.messagesPerSecond;
        drain[sink] = { ...dr, ratioToBare: b && dr.messagesPerSecond !== null ? Math.round((dr.messagesPerSecond / b) * 1000) / 1000 : null, ratioToBareRender: br && dr.messagesPerSecond !== null ? Math.round((dr.messagesPerSecond / br) * 1000) / 1000 : null };
      }
    }
    if (has('bare')) {
      results.bare = bare;
      results['bare+render'] = bareRender;
      const renderCost = (s: SinkKind) => {
        const a = bareRender[s]?.cpuMsPerSend.worker;
        const b = bare[s]?.cpuMsPerSend.worker;
        return a != null && b != null ? Math.round((a - b) * 100) / 100 : null;
      };
      results.render = { cpuMsPerMessage: renderCost('null'), cpuMsPerMessageCatcherRun: renderCost('catcher'), method: 'bare+render worker CPU per send − bare worker CPU per send (same sink)' };
    }
    if (has('drain')) results.drain = { ...drain.null, ratioToBare: drain.null?.ratioToBare ?? null, null: drain.null, catcher: drain.catcher };
    if (has('steady')) {
      const st: Record<string, unknown> = {};
      for (const rate of size.steadyRates) st[String(rate)] = await runSteady(server, cfg, rate, size.steadySeconds, size.steadyGraceMs);
      results.steady = st;
    }
    if (has('idle')) results.idle = await runIdle(server, cfg, size.idleSamples, size.idleGapMs);
    if (has('plan')) results.plan = await runPlan(server, cfg, size.planBookings, size.planFallbackCapMs);
    if (has('scale')) results.scale = await runScale(server, cfg, size.scaleRows);
  } finally {
    await server.close().catch((e) => console.error(`[bench] closing PostgreSQL: ${(e as Error).message}`));
  }
  const totalS = (performance.now() - started) / 1000;
  (results.meta as Record<string, unknown>).seconds = Math.round(totalS);

  // ------------------------------------------------------------------ table with the issue's targets
  const rows: Row[] = [];
  const fmt = (x: unknown, unit = '') => (x === null || x === undefined ? 'n/a' : `${x}${unit}`);
  const capNote = (t?: { capped: boolean }) => (t?.capped ? ' (capped)' : '');
  for (const s of sinks) {
    if (bare[s]) rows.push({ figure: `bare, ${s} sink`, value: fmt(bare[s]!.messagesPerSecond, ' msg/s') + capNote(bare[s]), target: '', met: null });
    if (bareRender[s]) rows.push({ figure: `bare+render, ${s} sink`, value: fmt(bareRender[s]!.messagesPerSecond, ' msg/s') + capNote(bareRender[s]), target: '', met: null });
    const d = drain[s];
    if (d) {
      rows.push({ figure: `drain, ${s} sink`, value: fmt(d.messagesPerSecond, ' msg/s') + capNote(d), target: s === 'null' ? '≥ 1,000 msg/s' : '', met: s === 'null' && d.messagesPerSecond !== null ? d.messagesPerSecond >= 1000 : null });
      const ratio = d.ratioToBare as number | null;
      rows.push({ figure: `drain ratioToBare, ${s} sink`, value: fmt(ratio), target: '≥ 0.5', met: ratio === null ? null : ratio >= 0.5 });
    }
  }
  const dn = drain.null;
  if (dn) {
    const c = dn.cpuMsPerSend;
    rows.push({ figure: 'CPU/send worker + PostgreSQL (drain, null sink)', value: `${fmt(c.workerPlusPostgres, ' ms')} (worker ${fmt(c.worker)}, PG ${fmt(c.postgres)}, sink ${fmt(c.sink)})`, target: '≤ 10 ms', met: c.workerPlusPostgres == null ? null : c.workerPlusPostgres <= 10 });
    rows.push({ figure: 'worker peak RSS (drain, null sink)', value: fmt(dn.workerPeakRssMb, ' MB'), target: '≤ 300 MB', met: dn.workerPeakRssMb == null ? null : (dn.workerPeakRssMb as number) <= 300 });
  }
  if (drain.catcher) {
    const c = drain.catcher.cpuMsPerSend;
    rows.push({ figure: 'CPU/send (drain, catcher sink)', value: `worker ${fmt(c.worker)}, PG ${fmt(c.postgres)}, sink ${fmt(c.sink)} ms`, target: '', met: null });
  }
  const render = results.render as { cpuMsPerMessage: number | null } | undefined;
  if (render) rows.push({ figure: 'render CPU/message (bare+render − bare)', value: fmt(render.cpuMsPerMessage, ' ms'), target: '≤ 3 ms', met: render.cpuMsPerMessage === null ? null : render.cpuMsPerMessage <= 3 });
  for (const s of Object.values((results.steady ?? {}) as Record<string, { ratePerSecond: number; keptUp: boolean; backlogOneSecondAfterLastDue: number; lagMs: { dueToAccepted: { p50: number; p95: number; p99: number; lowerBound: boolean } } }>)) {
    const l = s.lagMs.dueToAccepted;
    const lb = l.lowerBound ? '≥ ' : '';
    const limit = s.ratePerSecond === 500 ? 500 : s.ratePerSecond === 1000 ? 1000 : null;
    rows.push({
      figure: `steady ${s.ratePerSecond}/s due → accepted p50/p95/p99`,
      value: `${lb}${l.p50} / ${lb}${l.p95} / ${lb}${l.p99} ms; ${s.keptUp ? 'kept up' : `did not keep up (backlog ${s.backlogOneSecondAfterLastDue})`}`,
      target: limit === 500 ? 'p99 ≤ 500 ms' : limit === 1000 ? 'keeps up, p99 ≤ 1 s' : '',
      met: limit === null ? null : l.p99 <= limit && !l.lowerBound && (limit === 500 || s.keptUp),
    });
  }
  const idle = results.idle as { lagMs: { dueToProviderCall: { p50: number; p99: number }; dueToAccepted: { p50: number; p99: number } } } | undefined;
  if (idle) {
    const l = idle.lagMs.dueToProviderCall;
    rows.push({ figure: 'idle due → provider call p50 / p99', value: `${l.p50} / ${l.p99} ms`, target: 'p50 ≤ 100, p99 ≤ 300 ms', met: l.p50 <= 100 && l.p99 <= 300 });
    rows.push({ figure: 'idle due → accepted p50 / p99', value: `${idle.lagMs.dueToAccepted.p50} / ${idle.lagMs.dueToAccepted.p99} ms`, target: '', met: null });
  }
  const plan = results.plan as { bookingsPerSecond: number; bulk: boolean } | undefined;
  if (plan) rows.push({ figure: `plan bookings/s${plan.bulk ? '' : ' (FALLBACK: one by one)'}`, value: fmt(plan.bookingsPerSecond), target: '≥ 20,000', met: plan.bookingsPerSecond >= 20_000 });
  const scale = results.scale as { reminders: number; claim100Ms: number; dueQueryMs: number; emptyDispatcherPassMs: number; explainIndexes: string[] } | undefined;
  if (scale) {
    rows.push({ figure: `scale 100-row claim at ${scale.reminders.toLocaleString('en')} rows`, value: fmt(scale.claim100Ms, ' ms'), target: '≤ 2 ms', met: scale.claim100Ms <= 2 });
    rows.push({ figure: 'scale due query / empty dispatcher pass', value: `${scale.dueQueryMs} ms / ${scale.emptyDispatcherPassMs} ms (index: ${scale.explainIndexes.join(', ') || 'none'})`, target: '', met: null });
  }
  results.table = rows;
  const out = path.join(root, 'bench', 'results.json');
  fs.writeFileSync(out, JSON.stringify(results, null, 2) + '\n');

  const w = [Math.max(6, ...rows.map((r) => r.figure.length)), Math.max(5, ...rows.map((r) => r.value.length)), Math.max(6, ...rows.map((r) => r.target.length))];
  const line = (a: string, b: string, c: string, d: string) => `${a.padEnd(w[0])}  ${b.padEnd(w[1])}  ${c.padEnd(w[2])}  ${d}`;
  console.log('');
  console.log(line('figure', 'value', 'target', 'met?'));
  console.log(line('-'.repeat(w[0]), '-'.repeat(w[1]), '-'.repeat(w[2]), '----'));
  for (const r of rows) console.log(line(r.figure, r.value, r.target, r.met === null ? '' : r.met ? 'yes' : 'NO'));
  console.log('');
  console.log(`${q ? 'quick' : 'full'} run took ${totalS.toFixed(0)} s; figures in ${path.relative(process.cwd(), out)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
