/**
 * `npm run worker`: one worker process against DATABASE_URL, sending through SMTP_URL (and
 * HTTP_EMAIL_API_URL/KEY for tenants on the HTTP provider); settings in server/config.ts. Run as many as you
 * like on as many machines as you like (DESIGN §5). SIGINT/SIGTERM: stop claiming, finish in-flight sends, exit.
 */
import './production-env';
import { startWorker } from '../jobs/worker';
import { readWorkerConfig, workerConfigGaps } from '../server/config';
import { childLogger, errField } from '../server/log';
import { requireEnv } from './lib';

const databaseUrl = requireEnv('DATABASE_URL', 'point it at the PostgreSQL that `npm start` or your deployment uses');
requireEnv('SMTP_URL', 'the standalone worker needs a mail server (smtp://host:port); `npm start` runs a built-in catcher');
const log = childLogger({ role: 'worker' });
let config;
try {
  config = readWorkerConfig();
} catch (e) {
  log.fatal({ err: errField(e) }, `invalid configuration: ${(e as Error).message}`);
  process.exit(2);
}
// A stray rejection inside a library (e.g. while PostgreSQL restarts) is logged; recovery is built in.
process.on('unhandledRejection', (e) => log.error({ err: errField(e) }, 'unhandled rejection (continuing)'));
// What this worker cannot do is said at start, not discovered later as dead letters or bare emails (a worker that
// claims an SMS without a provider ends it as a configuration dead letter; DESIGN: it says why, it does not guess).
for (const gap of workerConfigGaps(config)) log.warn(gap);
const worker = await startWorker({ databaseUrl, config });
log.info('running');
let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, async () => {
    if (stopping) return;
    stopping = true;
    log.info(`${sig}: finishing in-flight work`);
    await worker.stop();
    process.exit(0);
  });
}
