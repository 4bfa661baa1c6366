/**
 * `npm run worker`: one worker process against DATABASE_URL, sending through SMTP_URL (and
 * HTTP_EMAIL_API_URL/KEY for tenants on the HTTP provider); settings in server/config.ts. Run as many as you
 * like on as many machines as you like (DESIGN §5). SIGINT/SIGTERM: stop claiming, finish in-flight sends, exit.
 */
import './production-env';
import { startWorker } from '../jobs/worker';
import { readWorkerConfig } from '../server/config';
import { requireEnv } from './lib';

const databaseUrl = requireEnv('DATABASE_URL', 'point it at the PostgreSQL that `npm start` or your deployment uses');
requireEnv('SMTP_URL', 'the standalone worker needs a mail server (smtp://host:port); `npm start` runs a built-in catcher');
let config;
try {
  config = readWorkerConfig();
} catch (e) {
  console.error(`invalid configuration: ${(e as Error).message}`);
  process.exit(2);
}
// A stray rejection inside a library (e.g. while PostgreSQL restarts) is logged; recovery is built in.
process.on('unhandledRejection', (e) => console.error(`[worker ${process.pid}] unhandled rejection (continuing): ${e instanceof Error ? e.message : String(e)}`));
const worker = await startWorker({ databaseUrl, config });
console.log(`[worker ${process.pid}] running`);
let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, async () => {
    if (stopping) return;
    stopping = true;
    console.log(`[worker ${process.pid}] ${sig}: finishing in-flight work`);
    await worker.stop();
    process.exit(0);
  });
}
