/**
 * `npm test`: every test, against real PostgreSQL, real SMTP and a real browser.
 *   1. Debian's Chromium is installed when missing (apt-get, as root) — Playwright cannot download browsers here.
 *   2. Type check (tsc --noEmit) of the whole project; at the same time the Next.js build the browser tests need
 *      (scripts/lib.ts ensureNextBuild: only when there is no build or a source file is newer than it).
 *   3. vitest: unit (domain, templates) and integration (test/: real PostgreSQL — DATABASE_URL's server, or
 *      an embedded one — real SMTP catcher, real worker processes).
 *   4. Playwright e2e against `npm start` on a throwaway database (a fresh database on DATABASE_URL's
 *      server, or a throwaway embedded data dir), removed afterwards. The web app listens on 127.0.0.1:E2E_PORT;
 *      unset, a port the OS reports free is picked and handed to Playwright (playwright.config.ts reads E2E_PORT),
 *      so two runs on one machine do not collide.
 * Steps 3 and 4 run at the same time: the browser tests mostly wait (for the worker, for pages; the whole
 * Playwright run uses about a third of one core), and vitest shares nothing with them — its own databases
 * (test/support/global-setup.ts), its own catchers and workers on ports the OS picks. vitest's lines are streamed
 * with a `[vitest]` prefix and kept whole in test-results/vitest.log. They run one after the other with
 * `--serial`, or when both would share DATABASE_URL's server and it has fewer than {@link CONNECTIONS_FOR_BOTH}
 * connections free (two vitest files at a time hold up to ~60, the browser tests' app ~25; a server refusing
 * connections fails tests on both sides). Without DATABASE_URL each has its own embedded server.
 * Ends with how long each step took and one line "N passed, M failed"; exits non-zero when anything failed.
 * Flags: --only typecheck|vitest|e2e (repeatable), --serial.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { freePort } from '@/db/embedded';
import { ensureNextBuild, root } from './lib';

const args = process.argv.slice(2);
const only = args.flatMap((a, i) => (a === '--only' ? [args[i + 1]] : []));
const want = (step: string) => only.length === 0 || only.includes(step);
const serial = args.includes('--serial');
const results = { passed: 0, failed: 0 };
/** Wall time per step, seconds, for the closing summary. */
const timings: [string, number][] = [];
async function timed<T>(step: string, f: () => T | Promise<T>): Promise<T> {
  const t0 = Date.now();
  try {
    return await f();
  } finally {
    timings.push([step, (Date.now() - t0) / 1000]);
  }
}
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Free connections DATABASE_URL's server needs for vitest and the browser tests to run at the same time. */
const CONNECTIONS_FOR_BOTH = 100;

/**
 * Why vitest and the browser tests must not run at once on DATABASE_URL's server (too few free connections:
 * `max_connections` minus those in use now), or null when they may (no DATABASE_URL: separate embedded servers).
 * A server that cannot be asked is left to the steps themselves to report.
 */
async function sharedServerTooSmall(): Promise<string | null> {
  if (!process.env.DATABASE_URL) return null;
  const sql = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
  try {
    const [r] = await sql<{ max: number; used: number }[]>`
      select current_setting('max_connections')::int as max, (select count(*) from pg_stat_activity)::int as used`;
    const free = r.max - r.used;
    return free >= CONNECTIONS_FOR_BOTH ? null : `DATABASE_URL's server has ${free} of ${r.max} connections free, fewer than the ${CONNECTIONS_FOR_BOTH} both need at once`;
  } catch {
    return null;
  } finally {
    await sql.end();
  }
}

function run(cmd: string, argv: string[], env: Record<string, string> = {}): number {
  const r = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

/**
 * Runs a command without blocking this process. With `prefix`, its stdout and stderr go to our stdout line by
 * line with that prefix (so they stay readable beside another step's output) and, unprefixed, to `logFile`;
 * without, they are inherited. @returns the exit code (1 when it died by a signal).
 */
function runAsync(cmd: string, argv: string[], opts: { env?: Record<string, string>; prefix?: string; logFile?: string } = {}): Promise<number> {
  const child = spawn(cmd, argv, { cwd: root, env: { ...process.env, ...opts.env }, stdio: opts.prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  if (opts.prefix) {
    const log = opts.logFile ? fs.createWriteStream(opts.logFile) : undefined;
    for (const stream of [child.stdout!, child.stderr!]) {
      let pending = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        log?.write(chunk);
        const lines = (pending + chunk).split('\n');
        pending = lines.pop()!;
        for (const line of lines) process.stdout.write(`${opts.prefix}${line}\n`);
      });
      stream.on('end', () => pending && process.stdout.write(`${opts.prefix}${pending}\n`));
    }
    child.once('close', () => log?.end());
  }
  return new Promise((resolve) => {
    child.once('error', () => resolve(1));
    child.once('close', (code) => resolve(code ?? 1));
  });
}

function ensureChromium(): void {
  if (fs.existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0 || spawnSync('which', ['apt-get']).status !== 0) {
    throw new Error(`Chromium not found at ${CHROMIUM}; install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  console.log('installing Debian chromium for the browser tests…');
  if (run('apt-get', ['update', '-qq']) !== 0 || run('apt-get', ['install', '-y', '-qq', 'chromium'], { DEBIAN_FRONTEND: 'noninteractive' }) !== 0) {
    throw new Error('apt-get install chromium failed');
  }
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

async function typecheck(): Promise<void> {
  const code = await timed('type check', () => runAsync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', '.']));
  if (code === 0) results.passed += 1;
  else results.failed += 1;
}

async function vitest(prefixed: boolean): Promise<void> {
  const jsonFile = path.join(root, 'test-results', 'vitest.json');
  fs.rmSync(jsonFile, { force: true });
  const argv = [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${jsonFile}`];
  const code = await timed('vitest', () =>
    runAsync(
      process.execPath,
      argv,
      // Piped, vitest would decide on colours by itself: follow our own terminal instead.
      prefixed ? { prefix: '[vitest] ', logFile: path.join(root, 'test-results', 'vitest.log'), env: process.stdout.isTTY ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' } } : {},
    ),
  );
  const report = readJson<{ numPassedTests: number; numFailedTests: number }>(jsonFile);
  if (report) {
    results.passed += report.numPassedTests;
    results.failed += report.numFailedTests + (code !== 0 && report.numFailedTests === 0 ? 1 : 0);
  } else results.failed += 1;
  if (prefixed) console.log(`[vitest] finished (exit ${code}); its whole output: test-results/vitest.log`);
}

/** The Playwright run; the Next.js build must be done (see main). */
async function e2e(besideVitest: boolean): Promise<void> {
  const jsonFile = path.join(root, 'test-results', 'playwright.json');
  fs.rmSync(jsonFile, { force: true });
  // E2E_PORT as given, else a free one: a second `npm test` on the same machine must not find ours taken.
  const port = process.env.E2E_PORT || String(await freePort());
  console.log(`web app for the browser tests on 127.0.0.1:${port} (E2E_PORT${process.env.E2E_PORT ? '' : ', picked free'})`);
  const env: Record<string, string> = { PLAYWRIGHT_JSON_OUTPUT_NAME: jsonFile, CHROMIUM_PATH: CHROMIUM, E2E_PORT: port };
  // One browser worker while vitest runs beside it, two alone (E2E_WORKERS overrides). Measured on 2 cores: two
  // browser workers beside vitest's two files made the run longer (1,837 s against 1,664 s) and stretched a
  // CPU-bound integration test past its timeout — the cores, not the waits, are what is short then.
  if (!process.env.E2E_WORKERS) env.E2E_WORKERS = besideVitest ? '1' : '2';
  let dropDb: (() => Promise<void>) | undefined;
  // Always a throwaway data folder: its pid files and (without DATABASE_URL) its embedded PostgreSQL.
  const dataDir = path.join('.data', `e2e-${randomBytes(4).toString('hex')}`);
  env.PUNCTUAL_DATA_DIR = dataDir;
  if (process.env.DATABASE_URL) {
    const name = `punctual_e2e_${randomBytes(4).toString('hex')}`;
    const admin = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = `/${name}`;
    env.DATABASE_URL = u.toString();
    dropDb = async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    };
  }
  try {
    await timed('playwright', () => runAsync(process.execPath, [path.join(root, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '--reporter=list,json'], { env }));
  } finally {
    await dropDb?.();
    {
      const pidFile = path.join(root, dataDir, 'pg', 'postmaster.pid');
      if (fs.existsSync(pidFile)) {
        const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
        try {
          process.kill(pid, 'SIGINT');
          await new Promise((r) => setTimeout(r, 1500));
        } catch {
          /* already gone */
        }
      }
      fs.rmSync(path.join(root, dataDir), { recursive: true, force: true });
    }
  }
  const report = readJson<{ stats: { expected: number; unexpected: number; flaky: number } }>(jsonFile);
  if (!report) {
    console.error('e2e: no Playwright report was written');
    results.failed += 1;
    return;
  }
  results.passed += report.stats.expected + report.stats.flaky;
  results.failed += report.stats.unexpected;
  if (report.stats.unexpected > 0) console.log('e2e: the app\'s own logs of this run: test-results/e2e-server.log (its terminal) and test-results/e2e-logs/ (worker.log, web.log)');
}

async function main() {
  const t0 = Date.now();
  fs.mkdirSync(path.join(root, 'test-results'), { recursive: true });
  // The build the browser tests need starts with the type check (it skips type checking itself: next.config.ts).
  let build: Promise<boolean> = Promise.resolve(true);
  if (want('e2e')) {
    try {
      ensureChromium();
    } catch (e) {
      console.error(e instanceof Error ? e.message : e);
      results.failed += 1;
      build = Promise.resolve(false);
    }
  }
  if (want('typecheck')) console.log(`\n== type check${want('e2e') ? ' (and, at the same time, the web app build for the browser tests)' : ''} ==`);
  if (want('e2e') && (await build)) {
    // Build the web app before Playwright starts the server, so its start-up limit covers starting, not a
    // build (which takes minutes on a busy 2-core machine).
    build = timed('next build', () => ensureNextBuild((m) => console.log(m))).then(
      () => true,
      (e: unknown) => {
        console.error(e instanceof Error ? e.message : e);
        results.failed += 1;
        return false;
      },
    );
  }
  if (want('typecheck')) await typecheck();
  const built = await build;
  const steps: Promise<void>[] = [];
  let together = !serial && want('vitest') && want('e2e') && built;
  const tooSmall = together ? await sharedServerTooSmall() : null;
  if (tooSmall) {
    console.log(`\nvitest and the browser tests run one after the other: ${tooSmall}`);
    together = false;
  }
  if (want('vitest')) {
    console.log(together ? '\n== vitest (unit + integration), alongside the browser tests: its lines start with [vitest] ==' : '\n== vitest (unit + integration) ==');
    const v = vitest(together);
    if (together) steps.push(v);
    else await v;
  }
  if (want('e2e') && built) {
    console.log('\n== browser (Playwright, Debian Chromium) ==');
    steps.push(e2e(together));
  }
  await Promise.all(steps);
  timings.push(['total', (Date.now() - t0) / 1000]);
  console.log(`\n${timings.map(([step, sec]) => `${step} ${sec.toFixed(0)} s`).join(', ')}`);
  console.log(`${results.passed} passed, ${results.failed} failed`);
  process.exit(results.failed === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  console.log(`\n${results.passed} passed, ${results.failed + 1} failed`);
  process.exit(1);
});
