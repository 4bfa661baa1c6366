/**
 * `npm start`: the whole product on one machine with zero configuration.
 *   DATABASE_URL unset → embedded PostgreSQL with its data in $PUNCTUAL_DATA_DIR/pg (default .data/pg).
 *   SMTP_URL unset     → the built-in mail catcher (messages readable at /mailbox).
 * Then: migrations, demo seed, web app (built if needed), worker. Ctrl-C / SIGTERM: stop claiming work,
 * let in-flight sends finish, stop the web app, the catcher and PostgreSQL, exit.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { createDb } from '../db/client';
import { isFree, startEmbeddedPostgres, type EmbeddedPg } from '../db/embedded';
import { migrateDatabase } from '../db/migrate';
import { startWorker, type RunningWorker } from '../jobs/worker';
import { startMailCatcher, type MailCatcher } from '../server/mail-catcher';
import { seedDemo } from '../server/seed';
import { databaseClock } from '../server/clock';
import { DEMO_PASSWORD, demoAccounts } from '../server/staff';
import { authSecret, ensureNextBuild, root, startNext, stopChild } from './lib';

const t0 = Date.now();
const log = (m: string) => console.log(`[punctual +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);

let pg: EmbeddedPg | undefined;
let catcher: MailCatcher | undefined;
let worker: RunningWorker | undefined;
let web: ChildProcess | undefined;
let appDb: ReturnType<typeof createDb> | undefined;
let stopping = false;

async function shutdown(signal: string, code = 0) {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping — no new work is claimed; waiting for in-flight sends…`);
  try {
    await worker?.stop();
    await stopChild(web);
    await catcher?.close();
    await appDb?.close();
    await pg?.stop();
    for (const f of [webPidFile, startPidFile]) if (readPid(f) === (f === webPidFile ? web?.pid : process.pid)) fs.rmSync(f, { force: true });
    log('stopped cleanly');
  } catch (e) {
    console.error('error during shutdown:', e);
    code = code || 1;
  }
  process.exit(code);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
// A library's stray rejection (e.g. graphile-worker failing to release jobs while PostgreSQL restarts) is
// logged, not fatal: recovery is built in. An uncaught exception leaves unknown state: stop in order.
process.on('unhandledRejection', (e) => console.error(`[punctual] unhandled rejection (continuing): ${e instanceof Error ? e.message : String(e)}`));
process.on('uncaughtException', (e) => {
  console.error(`[punctual] uncaught exception: ${e.stack ?? e.message}`);
  void shutdown('uncaught exception', 1);
});

const dataRoot = path.resolve(root, process.env.PUNCTUAL_DATA_DIR ?? '.data');
const startPidFile = path.join(dataRoot, 'start.pid');
const webPidFile = path.join(dataRoot, 'web.pid');
const portsFile = path.join(dataRoot, 'ports.json');

/** Whether `pid` is alive and its command line contains `needle` (Linux /proc; elsewhere: alive). */
function running(pid: number, needle: string): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle);
  } catch {
    return true;
  }
}
const readPid = (file: string) => {
  try {
    return Number(fs.readFileSync(file, 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
};

/**
 * One `npm start` per data folder: a second one would stop the first one's database. A web server left by a
 * start that was killed with SIGKILL is stopped so its port is free again.
 */
function claimDataFolder(): void {
  fs.mkdirSync(dataRoot, { recursive: true });
  const other = readPid(startPidFile);
  if (other && other !== process.pid && running(other, 'start.ts')) {
    throw new Error(`another \`npm start\` (pid ${other}) is running with ${path.relative(root, dataRoot) || '.'}; stop it first, or set PUNCTUAL_DATA_DIR`);
  }
  fs.writeFileSync(startPidFile, String(process.pid));
  const oldWeb = readPid(webPidFile);
  if (oldWeb && running(oldWeb, 'next')) {
    log(`stopping a web server left running by an earlier start (pid ${oldWeb})`);
    try {
      process.kill(oldWeb, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** Ports of the last start (embedded PostgreSQL, mail catcher), reused when free so URLs stay stable. */
function lastPorts(): { pg?: number; smtp?: number } {
  try {
    return JSON.parse(fs.readFileSync(portsFile, 'utf8')) as { pg?: number; smtp?: number };
  } catch {
    return {};
  }
}
async function portIfFree(port: number | undefined): Promise<number | undefined> {
  return port && (await isFree(port)) ? port : undefined;
}

async function main() {
  const port = Number(process.env.PORT ?? 3000);
  claimDataFolder();
  const ports = lastPorts();
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const dataDir = path.join(dataRoot, 'pg');
    log(`DATABASE_URL not set: starting embedded PostgreSQL (data in ${path.relative(root, dataDir)})`);
    pg = await startEmbeddedPostgres({ dataDir, log, preferPort: ports.pg });
    databaseUrl = pg.url;
    log(`embedded PostgreSQL at ${pg.url} (CLI commands such as import:ics find it on their own while this runs)`);
  }
  await migrateDatabase(databaseUrl);
  log('database migrated');
  appDb = createDb(databaseUrl, { max: 4 });
  let smtpUrl = process.env.SMTP_URL;
  if (!smtpUrl) {
    catcher = await startMailCatcher({ db: appDb.db, port: Number(process.env.SMTP_CATCHER_PORT ?? 0) || (await portIfFree(ports.smtp)) || 0 });
    smtpUrl = catcher.url;
    log(`SMTP_URL not set: built-in mail catcher listening on 127.0.0.1:${catcher.port}`);
  }
  const seedClock = databaseClock(appDb.db);
  await seedClock.ready;
  seedClock.stop();
  const seeded = await seedDemo(appDb.db, seedClock.now());
  log(seeded.createdEvents ? `demo data seeded (${seeded.createdEvents} events starting minutes from now)` : 'demo data present');
  // The worker first: reminders already due go out while the web app builds.
  worker = await startWorker({ databaseUrl, config: { smtpUrl }, handleSignals: false });
  log('worker running');
  await ensureNextBuild(log);
  fs.writeFileSync(portsFile, JSON.stringify({ pg: pg?.port, smtp: catcher?.port }));
  web = await startNext(port, { DATABASE_URL: databaseUrl, PUNCTUAL_MAILBOX: catcher ? '1' : '0', BETTER_AUTH_SECRET: authSecret(dataRoot) }, log);
  if (web.pid) fs.writeFileSync(webPidFile, String(web.pid));
  web.once('exit', (code) => {
    if (!stopping) {
      console.error(`web server exited unexpectedly (code ${code})`);
      void shutdown('web exit', 1);
    }
  });
  console.log(`\n  Punctual is up at http://127.0.0.1:${port}/   (mail: http://127.0.0.1:${port}/mailbox)\n`);
  console.log(`  Demo accounts (password: ${DEMO_PASSWORD}):`);
  for (const a of demoAccounts) console.log(`    ${a.email.padEnd(30)} ${a.role.padEnd(7)} tenant ${a.tenantSlug}`);
  console.log('\n  Ctrl-C stops it.\n');
}

main().catch(async (e) => {
  console.error(`start failed: ${e instanceof Error ? e.message : String(e)}`);
  await shutdown('error', 1);
});
