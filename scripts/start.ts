/**
 * `npm start`: the whole product on one machine with zero configuration.
 *   DATABASE_URL unset → embedded PostgreSQL with its data in $PUNCTUAL_DATA_DIR/pg (default .data/pg).
 *   SMTP_URL unset     → the built-in mail catcher (messages readable at /mailbox).
 * Then: migrations, demo seed, web app (built if needed), worker. Ctrl-C / SIGTERM: stop claiming work,
 * let in-flight sends finish, stop the web app, the catcher and PostgreSQL, exit.
 */
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { createDb } from '../db/client';
import { startEmbeddedPostgres, type EmbeddedPg } from '../db/embedded';
import { migrateDatabase } from '../db/migrate';
import { startWorker, type RunningWorker } from '../jobs/worker';
import { startMailCatcher, type MailCatcher } from '../server/mail-catcher';
import { seedDemo } from '../server/seed';
import { processClock } from '../server/clock';
import { ensureNextBuild, root, startNext, stopChild } from './lib';

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
    log('stopped cleanly');
  } catch (e) {
    console.error('error during shutdown:', e);
    code = code || 1;
  }
  process.exit(code);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

async function main() {
  const port = Number(process.env.PORT ?? 3000);
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const dataDir = path.resolve(root, process.env.PUNCTUAL_DATA_DIR ?? '.data', 'pg');
    log(`DATABASE_URL not set: starting embedded PostgreSQL (data in ${path.relative(root, dataDir)})`);
    pg = await startEmbeddedPostgres({ dataDir, log });
    databaseUrl = pg.url;
    log(`embedded PostgreSQL at ${pg.url} (CLI commands such as import:ics find it on their own while this runs)`);
  }
  await migrateDatabase(databaseUrl);
  log('database migrated');
  appDb = createDb(databaseUrl, { max: 4 });
  let smtpUrl = process.env.SMTP_URL;
  if (!smtpUrl) {
    catcher = await startMailCatcher({ db: appDb.db, port: Number(process.env.SMTP_CATCHER_PORT ?? 0) });
    smtpUrl = catcher.url;
    log(`SMTP_URL not set: built-in mail catcher listening on 127.0.0.1:${catcher.port}`);
  }
  const seeded = await seedDemo(appDb.db, processClock().now());
  log(seeded.createdEvents ? `demo data seeded (${seeded.createdEvents} events starting minutes from now)` : 'demo data present');
  // The worker first: reminders already due go out while the web app builds.
  worker = await startWorker({ databaseUrl, config: { smtpUrl }, handleSignals: false });
  log('worker running');
  ensureNextBuild(log);
  web = await startNext(port, { DATABASE_URL: databaseUrl, PUNCTUAL_MAILBOX: catcher ? '1' : '0' }, log);
  web.once('exit', (code) => {
    if (!stopping) {
      console.error(`web server exited unexpectedly (code ${code})`);
      void shutdown('web exit', 1);
    }
  });
  console.log(`\n  Punctual is up at http://127.0.0.1:${port}/events   (mail: http://127.0.0.1:${port}/mailbox)\n  Ctrl-C stops it.\n`);
}

main().catch(async (e) => {
  console.error(`start failed: ${e instanceof Error ? e.message : String(e)}`);
  await shutdown('error', 1);
});
