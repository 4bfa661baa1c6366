/**
 * `npm test`: every test, against real PostgreSQL, real SMTP and a real browser.
 *   1. Debian's Chromium is installed when missing (apt-get, as root) — Playwright cannot download browsers here.
 *   2. Type check (tsc --noEmit) of the whole project.
 *   3. vitest: unit (domain, templates) and integration (test/: real PostgreSQL — DATABASE_URL's server, or
 *      an embedded one — real SMTP catcher, real worker processes).
 *   4. Playwright e2e against `npm start` on a throwaway database (a fresh database on DATABASE_URL's
 *      server, or a throwaway embedded data dir), removed afterwards.
 * Ends with one line "N passed, M failed"; exits non-zero when anything failed.
 * Flags: --only typecheck|vitest|e2e (repeatable).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { ensureNextBuild, root } from './lib';

const args = process.argv.slice(2);
const only = args.flatMap((a, i) => (a === '--only' ? [args[i + 1]] : []));
const want = (step: string) => only.length === 0 || only.includes(step);
const results = { passed: 0, failed: 0 };
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function run(cmd: string, argv: string[], env: Record<string, string> = {}): number {
  const r = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
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

async function e2e(): Promise<void> {
  ensureChromium();
  // Build the web app before Playwright starts the server, so its start-up limit covers starting, not a
  // build (which takes minutes on a busy 2-core machine).
  await ensureNextBuild((m) => console.log(m));
  const jsonFile = path.join(root, 'test-results', 'playwright.json');
  fs.rmSync(jsonFile, { force: true });
  const env: Record<string, string> = { PLAYWRIGHT_JSON_OUTPUT_NAME: jsonFile, CHROMIUM_PATH: CHROMIUM };
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
    run(process.execPath, [path.join(root, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '--reporter=list,json'], env);
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
}

async function main() {
  fs.mkdirSync(path.join(root, 'test-results'), { recursive: true });
  if (want('typecheck')) {
    console.log('\n== type check ==');
    const ok = run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', '.']) === 0;
    if (ok) results.passed += 1;
    else results.failed += 1;
  }
  if (want('vitest')) {
    console.log('\n== vitest (unit + integration) ==');
    const jsonFile = path.join(root, 'test-results', 'vitest.json');
    fs.rmSync(jsonFile, { force: true });
    const code = run(process.execPath, [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${jsonFile}`]);
    const report = readJson<{ numPassedTests: number; numFailedTests: number }>(jsonFile);
    if (report) {
      results.passed += report.numPassedTests;
      results.failed += report.numFailedTests + (code !== 0 && report.numFailedTests === 0 ? 1 : 0);
    } else results.failed += 1;
  }
  if (want('e2e')) {
    console.log('\n== browser (Playwright, Debian Chromium) ==');
    await e2e();
  }
  console.log(`\n${results.passed} passed, ${results.failed} failed`);
  process.exit(results.failed === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  console.log(`\n${results.passed} passed, ${results.failed + 1} failed`);
  process.exit(1);
});
