import { execFileSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests: Debian's Chromium (Playwright cannot download browsers here) against the whole app
 * started by `scripts/start.ts` — web, worker, database (embedded unless DATABASE_URL is set) and mail
 * catcher (built in unless SMTP_URL is set) — on 127.0.0.1:E2E_PORT.
 *
 * E2E_PORT unset (`npx playwright test` by hand; `npm test` always sets it, see scripts/test.ts): a port the OS
 * reports free is picked here and written back to process.env, so the test workers Playwright starts later —
 * which load this file again and inherit the environment — use the same one, and two runs on one machine do not
 * collide.
 */
if (!process.env.E2E_PORT) {
  const script = "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  process.env.E2E_PORT = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim();
}
const PORT = process.env.E2E_PORT;
// This run's id, for the names of the organisations the specs make (e2e/support.ts tenantSlugFor): set here once, so
// the workers (which load this file again and inherit the environment) agree, and a later run on the same database
// (`npx playwright test` reuses .data) makes new ones.
process.env.E2E_RUN ??= Date.now().toString(36);
const baseURL = `http://127.0.0.1:${PORT}`;

// The test runner plays the reverse proxy in front of the app: specs may name their client in X-Forwarded-For
// (e2e/auth.spec.ts, sign-in limits); requests without one are the runner itself (127.0.0.1).
// PUNCTUAL_ALERT_QUIET_MS (tests only, server/alerts/evaluation.ts alertTimingFromEnv): a dead letter's alert is grouped for
// 2 s instead of a minute, so e2e/alerts.spec.ts does not wait out a real minute.
const serverEnv: Record<string, string> = {
  PORT,
  PUNCTUAL_TRUSTED_PROXIES: process.env.PUNCTUAL_TRUSTED_PROXIES ?? '127.0.0.1',
  PUNCTUAL_ALERT_QUIET_MS: '2000',
  // The signing secret of the inbound calendar-reply webhook (e2e/calendar-replies.spec.ts signs its posts with it).
  PUNCTUAL_INBOUND_REPLY_SECRET: 'e2e-inbound-reply-secret',
  // The worker's and web app's JSON logs (npm start writes them to files) stay beside the runner's results, not in
  // the throwaway data folder.
  PUNCTUAL_LOG_DIR: process.env.PUNCTUAL_LOG_DIR ?? 'test-results/e2e-logs',
};
if (process.env.DATABASE_URL) serverEnv.DATABASE_URL = process.env.DATABASE_URL;
// Without DATABASE_URL, start.ts runs embedded PostgreSQL in $PUNCTUAL_DATA_DIR/pg: npm test passes a throwaway dir.
if (process.env.PUNCTUAL_DATA_DIR) serverEnv.PUNCTUAL_DATA_DIR = process.env.PUNCTUAL_DATA_DIR;

export default defineConfig({
  testDir: 'e2e',
  // Not `test-results` itself: Playwright empties its outputDir, and vitest's report lives there.
  outputDir: 'test-results/playwright',
  // Every spec file works in its own organisation (e2e/support.ts `test`, e2e/tenants.ts), so files run side by side;
  // the tests inside a file run in order (fullyParallel: false).
  // Two workers by default (E2E_WORKERS overrides): every worker drives the same app (one web process, one worker,
  // one database) on a 2-core machine, so a third mostly adds contention. `npm test` passes 1 while vitest runs beside
  // the browser tests (scripts/test.ts): then the cores are what is short.
  workers: Number(process.env.E2E_WORKERS) || 2,
  retries: 0,
  fullyParallel: false,
  // A test's wall time grows with a second worker on 2 cores: the a11y sweep (16 pages, axe on each) took 1.6 min in
  // one two-worker run and ran out of 180 s in another, while other builds loaded the machine (load average 25).
  timeout: 300_000,
  // An assertion waits up to 20 s for its condition (it returns as soon as it holds): a CI run of the whole suite on 2
  // slow cores saw a sign-in's dashboard and a dialog's close take over 10 s while vitest ran beside the browser tests.
  expect: { timeout: 20_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL,
    headless: true,
    browserName: 'chromium',
    viewport: { width: 1360, height: 900 },
    // Screenshots a spec saves on purpose go to test-results/screens (e2e/support.ts screen); Playwright's own only on failure.
    screenshot: 'only-on-failure',
    // A trace records every action's screenshots and DOM snapshots for the whole test, failing or not — real CPU on
    // a 2-core machine running vitest beside it. Off unless E2E_TRACE=1 (then kept for failures only).
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    // Its terminal output goes to a file, not into the runner's (the JSON logs are in test-results/e2e-logs): a failure is found in seconds.
    // `exec`, so the SIGTERM below reaches start.ts itself.
    command: 'mkdir -p test-results && exec node --import tsx scripts/start.ts > test-results/e2e-server.log 2>&1',
    // SIGTERM lets start.ts stop the worker, web app and embedded PostgreSQL in order.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    url: `${baseURL}/api/health`,
    env: serverEnv,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
