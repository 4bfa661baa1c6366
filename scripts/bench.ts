/**
 * `npm run bench [-- --quick] [--only s1,s2] [--sinks null,catcher] [--workers W] [--concurrency C]`: prints figures
 * and writes them to bench/results.json by section name; exits 1 (one stderr line per section) when a section sent
 * nothing, otherwise checks no target. Sections (BENCHMARKS.md explains each figure):
 *   bare, bare+render   the bare pipeline (bench/bare-worker.ts), W processes × C, null sink and catcher
 *   drain               N reminders due at once through the full Punctual path (scripts/worker.ts × W), both sinks,
 *                       run to completion, with ratioToBare, CPU ms per send (worker / PostgreSQL / sink; none when
 *                       capped) and worker peak RSS
 *   steady              step search for the highest rate whose warm p99 due → accepted ≤ 1 s (cold = first 10 s)
 *   idle                single reminders due one at a time → lag p50/p99; idle CPU per worker (% of a core)
 *   plan                planning bookings through the bulk path → bookings/s
 *   scale               due query, 100-row claim and an empty dispatcher pass with 1,000,000 reminders; EXPLAIN
 * Uses DATABASE_URL's server (throwaway databases, dropped afterwards) or an embedded PostgreSQL of its own.
 * Throughput runs stop at a time cap (so a slow path still finishes in time) and say so (`capped`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openServer } from '@/bench/db';
import type { BenchConfig, SinkKind } from '@/bench/common';
import { runPipelines } from '@/bench/pipelines';
import { runPlan } from '@/bench/plan';
import { runScale } from '@/bench/scale';
import { runIdle, runSteadySearch } from '@/bench/steady';
import { root } from './lib';

const ALL = ['bare', 'drain', 'steady', 'idle', 'plan', 'scale'] as const;
type Section = (typeof ALL)[number];

function parseArgs(argv: string[]) {
  const o = { quick: false, only: [...ALL] as Section[], sinks: ['null', 'catcher'] as SinkKind[], workers: 2, concurrency: Number(process.env.WORKER_CONCURRENCY ?? 10) };
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
    } else if (a.startsWith('--sinks')) {
      const list = val().split(',').map((x) => x.trim()).filter(Boolean);
      for (const x of list) if (x !== 'null' && x !== 'catcher') throw new Error(`--sinks: unknown sink "${x}" (sinks: null, catcher)`);
      o.sinks = list as SinkKind[];
    } else if (a.startsWith('--workers')) o.workers = Number(val());
    else if (a.startsWith('--concurrency')) o.concurrency = Number(val());
    else if (a === '--help' || a === '-h') {
      console.log('npm run bench -- [--quick] [--only bare,drain,steady,idle,plan,scale] [--sinks null,catcher] [--workers W] [--concurrency C]');
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
    bareN: q ? 1_000 : 20_000,
    bareCapMs: q ? 8_000 : 60_000,
    drainN: q ? 1_000 : 10_000,
    drainCapMs: q ? 30_000 : 240_000,
    /** bare+render with the catcher too (quick: null sink only; the render cost is taken from the null sink). */
    bareRenderCatcher: !q,
    steadySeconds: q ? 15 : 30,
    steadyGraceMs: q ? 3_000 : 8_000,
    steadyBudgetMs: q ? 60_000 : 300_000,
    steadyMaxTrials: q ? 3 : 8,
    steadyFactor: 2,
    idleSamples: q ? 8 : 20,
    idleGapMs: q ? 1_000 : 1_500,
    idleCpuWindowMs: q ? 10_000 : 20_000,
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
  const sinks: SinkKind[] = args.sinks;
  type Tput = { messagesPerSecond: number | null; capped: boolean; cpuMsPerSend: Record<string, number | string | null | undefined> };
  // A section that sent nothing makes the whole run fail (exit code 1, one stderr line each), after the table.
  const failures: string[] = [];
  const nothingSent = (section: string, sent: number | null | undefined, of: number) => {
    if (!sent) failures.push(`bench: FAILED: section "${section}" sent nothing (0 of ${of}) — see the lines above for the cause`);
  };
  const bare: Partial<Record<SinkKind, Tput>> = {};
  const bareRender: Partial<Record<SinkKind, Tput>> = {};
  const drain: Partial<Record<SinkKind, Tput & Record<string, unknown>>> = {};
  try {
    for (const sink of sinks) {
      if (!has('bare') && !has('drain')) break;
      const r = await runPipelines(server, cfg, sink, size, { bare: has('bare'), bareRender: has('bare') && (sink === 'null' || size.bareRenderCatcher), drain: has('drain') });
      if (r.bare) {
        bare[sink] = r.bare;
        nothingSent(`bare/${sink}`, r.bare.sent, r.bare.n);
      }
      if (r.bareRender) {
        bareRender[sink] = r.bareRender;
        nothingSent(`bare+render/${sink}`, r.bareRender.sent, r.bareRender.n);
      }
      if (r.drain) {
        const dr = r.drain;
        nothingSent(`drain/${sink}`, dr.accepted, dr.n);
        const b = bare[sink];
        const br = bareRender[sink]?.messagesPerSecond;
        const ratio = (x: number | null | undefined, y: number | null | undefined) => (x != null && y ? Math.round((x / y) * 1000) / 1000 : null);
        const bareCpu = b ? (b.cpuMsPerSend.worker as number | null) != null && (b.cpuMsPerSend.postgres as number | null) != null ? (b.cpuMsPerSend.worker as number) + (b.cpuMsPerSend.postgres as number) : null : null;
        drain[sink] = {
          ...dr,
          ratioToBare: ratio(dr.messagesPerSecond, b?.messagesPerSecond),
          ratioToBareRender: ratio(dr.messagesPerSecond, br),
          /** Drain CPU per send (worker + PostgreSQL) ÷ bare's, same sink, same run. */
          cpuRatioToBare: ratio(dr.cpuMsPerSend.workerPlusPostgres as number | null, bareCpu),
        };
      }
    }
    if (has('bare')) {
      results.bare = bare;
      results['bare+render'] = bareRender;
      const renderCost = (s: SinkKind) => {
        const a = bareRender[s]?.cpuMsPerSend.worker as number | null | undefined;
        const b = bare[s]?.cpuMsPerSend.worker as number | null | undefined;
        return a != null && b != null ? Math.round((a - b) * 100) / 100 : null;
      };
      results.render = { cpuMsPerMessage: renderCost('null'), cpuMsPerMessageCatcherRun: renderCost('catcher'), method: 'bare+render worker CPU per send − bare worker CPU per send (same sink)' };
    }
    if (has('drain')) results.drain = { ...drain.null, ratioToBare: drain.null?.ratioToBare ?? null, null: drain.null, catcher: drain.catcher };
    if (has('steady')) {
      // Start near what the drain showed (steady load is easier than a burst only up to the drain rate), else 50/s.
      const dr = drain.null?.messagesPerSecond;
      const startRate = dr ? Math.max(10, dr * 0.6) : 50;
      const st = await runSteadySearch(server, cfg, { startRate, factor: size.steadyFactor, seconds: size.steadySeconds, graceMs: size.steadyGraceMs, budgetMs: size.steadyBudgetMs, maxTrials: size.steadyMaxTrials });
      for (const tr of st.trials) nothingSent(`steady ${tr.ratePerSecond}/s`, tr.accepted, tr.reminders);
      const b = bare.null?.messagesPerSecond;
      results.steady = { ...st, highestPassingRatioToBare: st.highestPassingRate !== null && b ? Math.round((st.highestPassingRate / b) * 1000) / 1000 : null };
    }
    if (has('idle')) {
      const idle = await runIdle(server, cfg, size.idleSamples, size.idleGapMs, size.idleCpuWindowMs);
      nothingSent('idle', idle.accepted, idle.samples);
      results.idle = idle;
    }
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
      rows.push({ figure: `drain, ${s} sink`, value: fmt(d.messagesPerSecond, ' msg/s') + capNote(d), target: '', met: null });
      const ratio = d.ratioToBare as number | null;
      rows.push({ figure: `drain ÷ bare, ${s} sink (same run)`, value: fmt(ratio), target: '≥ 0.6 (moonshot 0.8)', met: ratio === null ? null : ratio >= 0.6 });
    }
  }
  const cpuRow = (label: string, d: (typeof drain)['null']) => {
    if (!d) return;
    const c = d.cpuMsPerSend;
    const wp = c.workerPlusPostgres as number | null;
    const value = wp === null ? `n/a (${c.note ?? 'not measured'})` : `${wp} ms (worker ${fmt(c.worker)}, PG ${fmt(c.postgres)}, sink ${fmt(c.sink)}; ${fmt(d.cpuRatioToBare)} × bare)`;
    rows.push({ figure: `CPU/send worker + PostgreSQL (drain, ${label} sink)`, value, target: label === 'null' ? '≤ 5 ms' : '', met: label === 'null' && wp !== null ? wp <= 5 : null });
  };
  cpuRow('null', drain.null);
  cpuRow('catcher', drain.catcher);
  for (const s of sinks) {
    const b = bare[s];
    if (b) rows.push({ figure: `CPU/send worker + PostgreSQL (bare, ${s} sink)`, value: `worker ${fmt(b.cpuMsPerSend.worker)}, PG ${fmt(b.cpuMsPerSend.postgres)}, sink ${fmt(b.cpuMsPerSend.sink)} ms`, target: '', met: null });
  }
  const dn = drain.null;
  if (dn) rows.push({ figure: 'worker peak RSS (drain, null sink)', value: fmt(dn.workerPeakRssMb, ' MB'), target: '≤ 300 MB', met: dn.workerPeakRssMb == null ? null : (dn.workerPeakRssMb as number) <= 300 });
  const render = results.render as { cpuMsPerMessage: number | null } | undefined;
  if (render) rows.push({ figure: 'render CPU/message (bare+render − bare)', value: fmt(render.cpuMsPerMessage, ' ms'), target: '', met: null });
  type Lag = { p50: number | null; p99: number | null; lowerBound: boolean };
  type Trial = { ratePerSecond: number; pass: boolean; keptUp: boolean; cold: { dueToAccepted: Lag }; warm: { dueToAccepted: Lag } };
  const steady = results.steady as { trials: Trial[]; highestPassingRate: number | null; lowestFailingRate: number | null; highestPassingRatioToBare: number | null } | undefined;
  if (steady) {
    const lb = (l: Lag) => (l.lowerBound ? '≥ ' : '');
    for (const t of steady.trials) {
      const w = t.warm.dueToAccepted;
      const c = t.cold.dueToAccepted;
      rows.push({ figure: `steady ${t.ratePerSecond}/s due → accepted p50/p99 warm | cold`, value: `${lb(w)}${w.p50} / ${lb(w)}${w.p99} | ${lb(c)}${c.p50} / ${lb(c)}${c.p99} ms${t.pass ? '' : ' (fail)'}`, target: '', met: null });
    }
    const hp = steady.highestPassingRate;
    rows.push({
      figure: 'steady: highest rate with warm p99 due → accepted ≤ 1 s',
      value: `${hp === null ? 'none' : `${hp}/s`}${steady.lowestFailingRate !== null ? ` (fails at ${steady.lowestFailingRate}/s)` : ' (no failing rate reached)'}; ${fmt(steady.highestPassingRatioToBare)} × bare`,
      target: '≥ 250/s (moonshot 500/s)',
      met: hp === null ? false : hp >= 250,
    });
  }
  const idle = results.idle as { lagMs: { dueToProviderCall: { p50: number; p99: number }; dueToAccepted: { p50: number; p99: number } }; cpu: { perWorkerPercentOfCore: number | null; workerPercentOfCore: (number | null)[]; postgresPercentOfCore: number | null } } | undefined;
  if (idle) {
    const l = idle.lagMs.dueToProviderCall;
    rows.push({ figure: 'idle due → provider call p50 / p99', value: `${l.p50} / ${l.p99} ms`, target: 'p50 ≤ 100, p99 ≤ 300 ms', met: l.p50 <= 100 && l.p99 <= 300 });
    rows.push({ figure: 'idle due → accepted p50 / p99', value: `${idle.lagMs.dueToAccepted.p50} / ${idle.lagMs.dueToAccepted.p99} ms`, target: '', met: null });
    const c = idle.cpu;
    rows.push({ figure: 'idle worker CPU (worker + its share of PostgreSQL)', value: `${fmt(c.perWorkerPercentOfCore, ' %')} of a core (workers ${c.workerPercentOfCore.join(', ')} %; PostgreSQL ${fmt(c.postgresPercentOfCore)} % for all)`, target: '≤ 1 %', met: c.perWorkerPercentOfCore === null ? null : c.perWorkerPercentOfCore <= 1 });
  }
  const plan = results.plan as { bookingsPerSecond: number; bulk: boolean } | undefined;
  if (plan) rows.push({ figure: `plan bookings/s${plan.bulk ? '' : ' (FALLBACK: one by one)'}`, value: fmt(plan.bookingsPerSecond), target: '', met: null });
  const scale = results.scale as { reminders: number; claim100Ms: number; claim100OneJobEachMs: number; dueQueryMs: number; emptyDispatcherPassMs: number; explainIndexes: string[] } | undefined;
  if (scale) {
    rows.push({ figure: `scale 100-row claim at ${scale.reminders.toLocaleString('en')} rows`, value: `${fmt(scale.claim100Ms, ' ms')} in send batches (${fmt(scale.claim100OneJobEachMs, ' ms')} with one job each)`, target: scale.reminders >= 1_000_000 ? '≤ 2 ms' : '(≤ 2 ms at 1 M)', met: scale.reminders >= 1_000_000 ? scale.claim100Ms <= 2 : null });
    rows.push({ figure: 'scale due query / empty dispatcher pass', value: `${scale.dueQueryMs} ms / ${scale.emptyDispatcherPassMs} ms (index: ${scale.explainIndexes.join(', ') || 'none'})`, target: '', met: null });
  }
  results.table = rows;
  results.failures = failures;
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
  if (failures.length) {
    for (const f of failures) console.error(f);
    process.exitCode = 1;
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
