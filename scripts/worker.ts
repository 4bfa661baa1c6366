/**
 * `npm run worker`: one worker process against DATABASE_URL, sending through SMTP_URL (and
 * HTTP_EMAIL_API_URL/KEY for tenants on the HTTP provider); settings in server/platform/config.ts. Run as many as you
 * like on as many machines as you like (DESIGN §5). SIGINT/SIGTERM: stop claiming, finish in-flight sends, exit.
 *
 * Exit codes: 0 after a signal, 2 a missing or invalid setting, 3 the database schema is behind this version (run
 * `npm run migrate` first; a schema newer than this version is fine: old workers keep running during a deploy),
 * 4 the database cannot be reached at start. PUNCTUAL_WORKER_HEALTH_PORT adds `/live` and `/ready`
 * (server/platform/worker-health.ts).
 */
import './production-env';
import { createDb } from '@/db/client';
import { buildJournal } from '@/db/journal';
import { lastAppliedMigrationWhen } from '@/db/queries/platform/migrations';
import { describeConnectionError, redactedUrl } from '@/db/url';
import { schemaBehindLine, schemaStatus } from '@/domain/platform/schema-version';
import { startWorker } from '@/jobs/worker';
import { readWorkerConfig, workerConfigGaps } from '@/server/platform/config';
import { childLogger, errField } from '@/server/platform/log';
import { startWorkerHealthServer, workerHealthAddress } from '@/server/platform/worker-health';
import { requireEnv } from './lib';

/** The driver's error inside drizzle's "Failed query" wrapper. */
const unwrap = (e: unknown) => (e instanceof Error && e.cause instanceof Error ? e.cause : e);

const databaseUrl = requireEnv('DATABASE_URL', 'point it at the PostgreSQL that `npm start` or your deployment uses');
requireEnv('SMTP_URL', 'the standalone worker needs a mail server (smtp://host:port); `npm start` runs a built-in catcher');
const log = childLogger({ role: 'worker' });
let config;
let healthAddr;
try {
  config = readWorkerConfig();
  healthAddr = workerHealthAddress();
} catch (e) {
  log.fatal({ err: errField(e) }, `invalid configuration: ${(e as Error).message}`);
  process.exit(2);
}
// A stray rejection inside a library (e.g. while PostgreSQL restarts) is logged; recovery is built in.
process.on('unhandledRejection', (e) => log.error({ err: errField(e) }, 'unhandled rejection (continuing)'));
// What this worker cannot do is said at start, not discovered later as dead letters or bare emails (a worker that
// claims an SMS without a provider ends it as a configuration dead letter; DESIGN: it says why, it does not guess).
for (const gap of workerConfigGaps(config)) log.warn(gap);
// The schema must be at this version's migration (or newer): a worker whose queries name columns the database does
// not have yet would fail every send. A deploy runs `npm run migrate` before starting the new version.
// A small pool of its own (1 connection, 2 s statement timeout), kept to answer the health port's /ready when there is one.
let probe: ReturnType<typeof createDb>;
try {
  probe = createDb(databaseUrl, { max: 1, statementTimeoutMs: 2_000 });
} catch (e) {
  log.fatal({ err: errField(e) }, (e as Error).message); // a bad sslmode or certificate file (db/url.ts)
  process.exit(2);
}
try {
  const status = schemaStatus(buildJournal, await lastAppliedMigrationWhen(probe.db));
  if (status.state === 'behind') {
    log.fatal({ pending: status.pending }, schemaBehindLine(status.pending));
    await probe.close();
    process.exit(3);
  }
  if (status.state === 'ahead') log.info('the database schema is newer than this version (a newer version migrated it): running on it');
  if (!healthAddr) await probe.close(); // kept only to answer /ready
} catch (e) {
  log.fatal({ err: errField(e) }, `cannot reach the database at ${redactedUrl(databaseUrl)}: ${describeConnectionError(unwrap(e), databaseUrl)}`);
  await probe.close().catch(() => {});
  process.exit(4);
}
let stopping = false;
let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
let health: Awaited<ReturnType<typeof startWorkerHealthServer>> | undefined;
if (healthAddr) {
  try {
    // Not ready until the worker runs.
    health = await startWorkerHealthServer(healthAddr, { db: () => probe.db, stopping: () => stopping || !worker });
  } catch (e) {
    log.fatal({ err: errField(e) }, `PUNCTUAL_WORKER_HEALTH_PORT: cannot listen on ${healthAddr.host}:${healthAddr.port} (${(e as Error).message})`);
    process.exit(2);
  }
  log.info(`health: http://${healthAddr.host}:${healthAddr.port}/live and /ready`);
}
worker = await startWorker({ databaseUrl, config });
log.info('running');
// graphile-worker's runner can stop by itself (its pool failed); the worker replaces it (jobs/worker.ts), so this
// process keeps taking jobs without a supervisor's restart.
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, async () => {
    if (stopping) return;
    stopping = true;
    // graphile-worker stops fetching jobs at once and waits for the running ones — a send in flight finishes and
    // records its outcome; jobs not started stay in the queue for the other workers (jobs/worker.ts).
    log.info(`${sig}: finishing in-flight work`);
    try {
      await worker!.stop();
    } catch (e) {
      log.error({ err: errField(e) }, 'stopping failed');
      process.exit(1);
    }
    log.info('stopped: in-flight work finished');
    if (health) {
      health.close();
      await probe.close();
    }
    process.exit(0);
  });
}
