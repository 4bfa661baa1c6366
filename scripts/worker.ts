/**
 * `npm run worker`: one worker process against DATABASE_URL, sending through SMTP_URL. Run as many as you
 * like on as many machines as you like (DESIGN §5). SIGINT/SIGTERM: stop claiming, finish in-flight sends, exit.
 */
import { startWorker } from '../jobs/worker';
import { requireEnv } from './lib';

const databaseUrl = requireEnv('DATABASE_URL', 'point it at the PostgreSQL that `npm start` or your deployment uses');
const smtpUrl = requireEnv('SMTP_URL', 'the standalone worker needs a mail server (smtp://host:port); `npm start` runs a built-in catcher');

const worker = await startWorker({
  databaseUrl,
  smtpUrl,
  concurrency: Number(process.env.WORKER_CONCURRENCY ?? 10),
  sendLeaseMs: process.env.PUNCTUAL_SEND_LEASE_MS ? Number(process.env.PUNCTUAL_SEND_LEASE_MS) : undefined,
});
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
