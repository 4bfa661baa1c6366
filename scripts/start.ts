/**
 * `npm start`: the whole product on one machine with zero configuration.
 *   DATABASE_URL unset → embedded PostgreSQL with its data in $PUNCTUAL_DATA_DIR/pg (default .data/pg), reached over a
 *                        Unix socket in that folder, the app as its own non-superuser role with a random password kept
 *                        in $PUNCTUAL_DATA_DIR/pg-credentials.json (db/embedded.ts; older data folders are upgraded).
 *   SMTP_URL unset     → the built-in mail catcher (messages readable at /mailbox); it takes mail only from clients that
 *                        log in with the password in $PUNCTUAL_DATA_DIR/mail-catcher-password, which the worker's and
 *                        web app's SMTP_URL carry.
 *   SMS_API_URL unset  → the built-in SMS API (dev/sms-catcher.ts): the worker's SMS_API_URL, SMS_ACCOUNT_SID,
 *                        SMS_AUTH_TOKEN point at it, SMS_FROM defaults to 'Punctual' (SMS at /mailbox?channel=sms);
 *                        SMS_STATUS_CALLBACK_URL defaults to the web app's /api/reports/sms, and the web app gets the
 *                        catcher's token to verify its signed `delivered` callbacks (issue #10).
 *   always             → the built-in webhook receiver (dev/webhook-catcher.ts); the seed points the demo
 *                        tenant's webhook at it (deliveries at /mailbox?channel=webhook). The worker may post to
 *                        http:// endpoints (PUNCTUAL_WEBHOOK_ALLOW_HTTP defaults to true here) and to the receiver's
 *                        own origin, http://127.0.0.1:<its port>, which PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS names (added
 *                        to any origins already set there) — every other loopback or private address stays refused
 *                        — and links to the web app (PUNCTUAL_PUBLIC_URL defaults to http://127.0.0.1:$PORT;
 *                        validated first).
 * Catcher ports: SMTP_CATCHER_PORT, SMS_CATCHER_PORT, WEBHOOK_CATCHER_PORT; unset → the last start's ports when
 * free, else any free port.
 * Then: migrations, demo seed, web app (built if needed), worker. Ctrl-C / SIGTERM: stop claiming work,
 * let in-flight sends finish, stop the web app, the catchers and PostgreSQL, exit.
 *   PUNCTUAL_SENDER_DOMAINS unset → `punctual.local` (the demo's sender addresses need no verification link);
 *                        PUNCTUAL_MAIL_FROM unset → reminders@punctual.local (server/organisations/sender-identity.ts).
 *   PUNCTUAL_DEMO=0     → no demo seed and no demo accounts (issue #13): an empty instance for your own organisation;
 *                        the banner prints the `npm run tenant -- create …` command instead. Default: the demo.
 * The terminal: the address and the demo accounts as soon as the web app starts building, one progress line while it
 * builds, then one readable line per send attempt and per error (scripts/start-console.ts). Everything else is in log
 * files in $PUNCTUAL_LOG_DIR (default $PUNCTUAL_DATA_DIR/logs): worker.log (the in-process worker's JSON lines),
 * web.log (the web app's), next-build.log (the build's output). PUNCTUAL_VERBOSE=1 also shows the web app's lines.
 */
import './production-env';
import fs from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { createDb } from '@/db/client';
import { isFree, startEmbeddedPostgres, type EmbeddedPg } from '@/db/embedded';
import { migrateDatabase } from '@/db/migrate';
import { startWorker, type RunningWorker } from '@/jobs/worker';
import { databaseNowMs } from '@/db/queries/platform/clock';
import { publicBaseUrl } from '@/domain/platform/public-url';
import { parseAllowedOrigins } from '@/domain/sending/webhook-url';
import { bounceAddressKey } from '@/server/sending/bounce-address';
import { describeDsnOutcome, ingestDsn } from '@/server/reports/bounces';
import { startMailCatcher, type MailCatcher } from '@/dev/mail-catcher';
import { preferencesSecret } from '@/server/sending/preference-link';
import { unsubscribeSecrets } from '@/server/sending/unsubscribe-link';
import { actionLinkSecrets } from '@/server/sending/action-link';
import { startSmsCatcher, type SmsCatcher } from '@/dev/sms-catcher';
import { startWebhookCatcher, type WebhookCatcher } from '@/dev/webhook-catcher';
import { seedDemo } from '@/dev/seed';
import { databaseClock } from '@/server/platform/clock';
import { DEMO_PASSWORD, demoAccounts } from '@/server/accounts/staff';
import { redactedUrl } from '@/db/url';
import { authSecret, dataFolderSecret, ensureNextBuild, root, startNext, stopChild } from './lib';
import { teeLogFile } from './start-console';
import { createLogger, setRootLogger } from '@/server/platform/log';
import { DEFAULT_MAIL_FROM, senderIdentityFromEnv } from '@/server/organisations/sender-config';

const t0 = Date.now();
const log = (m: string) => console.log(`[punctual +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);

let pg: EmbeddedPg | undefined;
let catcher: MailCatcher | undefined;
let smsCatcher: SmsCatcher | undefined;
let webhookCatcher: WebhookCatcher | undefined;
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
    await smsCatcher?.close();
    await webhookCatcher?.close();
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
const logDir = path.resolve(root, process.env.PUNCTUAL_LOG_DIR ?? path.join(dataRoot, 'logs'));
/** A path as a person types it in this folder (relative to the project, or absolute when it is outside). */
const shown = (p: string) => {
  const r = path.relative(root, p);
  return r.startsWith('..') ? p : r;
};
/**
 * What a command printed here needs in front of it to reach THIS instance from another terminal in this folder:
 * the data folder when it is not the default one.
 */
const dataDirPrefix = process.env.PUNCTUAL_DATA_DIR ? `PUNCTUAL_DATA_DIR=${shown(dataRoot)} ` : '';

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
    throw new Error(`another \`npm start\` (pid ${other}) is running with ${shown(dataRoot) || '.'}; stop it first, or set PUNCTUAL_DATA_DIR`);
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

type Ports = { pg?: number; smtp?: number; sms?: number; webhook?: number };
/** Ports of the last start (embedded PostgreSQL, catchers), reused when free so URLs stay stable. */
function lastPorts(): Ports {
  try {
    return JSON.parse(fs.readFileSync(portsFile, 'utf8')) as Ports;
  } catch {
    return {};
  }
}
async function portIfFree(port: number | undefined): Promise<number | undefined> {
  return port && (await isFree(port)) ? port : undefined;
}

async function main() {
  const port = Number(process.env.PORT ?? 3000);
  // PUNCTUAL_DEMO=0 (issue #13): an empty instance, no demo seed or accounts. Anything else, or unset: the demo.
  const demo = !['0', 'false', 'no', 'off'].includes((process.env.PUNCTUAL_DEMO ?? '1').trim().toLowerCase());
  // A bad PUNCTUAL_PUBLIC_URL stops here, naming the rule, before anything starts (domain/platform/public-url.ts).
  const publicUrl = publicBaseUrl({ PUNCTUAL_PUBLIC_URL: process.env.PUNCTUAL_PUBLIC_URL, PORT: String(port) });
  // Sender identity (server/organisations/sender-identity.ts): on one machine the operator's own domain is punctual.local — the demo
  // organisations' addresses (demo.punctual.local, partner.punctual.local) need no verification link — unless the
  // operator says otherwise. Set in this process (the worker runs in it) and passed on to the web app and local.env.
  process.env.PUNCTUAL_SENDER_DOMAINS ??= 'punctual.local';
  process.env.PUNCTUAL_MAIL_FROM ??= DEFAULT_MAIL_FROM;
  senderIdentityFromEnv(process.env);
  claimDataFolder();
  // The in-process worker's JSON lines go to a file; the terminal gets one readable line per send and per error.
  setRootLogger(createLogger({ destination: teeLogFile(path.join(logDir, 'worker.log'), (line) => console.log(line)) }));
  log(`logs: ${shown(logDir)}/ (worker.log, web.log, next-build.log)`);
  const ports = lastPorts();
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const dataDir = path.join(dataRoot, 'pg');
    log(`DATABASE_URL not set: starting embedded PostgreSQL (data in ${shown(dataDir)})`);
    pg = await startEmbeddedPostgres({ dataDir, log, preferPort: ports.pg, unixSocket: true, app: true });
    databaseUrl = pg.appUrl!;
    log(
      `embedded PostgreSQL at ${redactedUrl(databaseUrl)} (${pg.socketDir ? 'Unix socket, no TCP' : '127.0.0.1 only'}; password in ${shown(path.join(dataRoot, 'pg-credentials.json'))}; CLI commands such as ${dataDirPrefix}npm run import:ics find it on their own while this runs)`,
    );
  }
  await migrateDatabase(databaseUrl);
  log('database migrated');
  appDb = createDb(databaseUrl, { max: 4 });
  const db = appDb.db;
  // Bounce addresses (VERP) are signed with a key derived from the web app's session secret: the worker makes
  // them, the catcher's DSNs and `npm run bounces:ingest` read them.
  const bounceKey = bounceAddressKey({ BETTER_AUTH_SECRET: authSecret(dataRoot) });
  let smtpUrl = process.env.SMTP_URL;
  if (!smtpUrl) {
    catcher = await startMailCatcher({
      db,
      port: Number(process.env.SMTP_CATCHER_PORT ?? 0) || (await portIfFree(ports.smtp)) || 0,
      // Only the app may put mail in the mailbox: the worker and web app log in with this (dev/mail-catcher.ts).
      auth: { user: 'punctual', pass: dataFolderSecret(dataRoot, 'mail-catcher-password') },
      // `+bounce-later` recipients: the DSN the catcher makes is applied like a bounce read by bounces:ingest.
      onDsn: async (raw, envelope) => {
        const r = await ingestDsn(db, raw, { key: bounceKey, now: new Date(await databaseNowMs(db)), envelopeTo: envelope.to });
        // A DSN to a bounce address that does not verify is kept in the mailbox and not applied.
        if (r.rejected) log(`mail catcher DSN ${envelope.storedId} not applied: ${r.rejected}`);
        for (const x of r.recipients) log(`mail catcher bounced ${x.finalRecipient}: ${describeDsnOutcome(x)}`);
      },
    });
    smtpUrl = catcher.url;
    log(`SMTP_URL not set: built-in mail catcher listening on 127.0.0.1:${catcher.port} (takes mail only from this app: SMTP AUTH)`);
  }
  let sms: { baseUrl: string; accountSid: string; authToken: string } | undefined;
  if (!process.env.SMS_API_URL) {
    smsCatcher = await startSmsCatcher({ db: appDb.db, port: Number(process.env.SMS_CATCHER_PORT ?? 0) || (await portIfFree(ports.sms)) || 0 });
    sms = { baseUrl: smsCatcher.url, accountSid: smsCatcher.accountSid, authToken: smsCatcher.authToken };
    log(`SMS_API_URL not set: built-in SMS API listening on ${smsCatcher.url}`);
  }
  const smsFrom = process.env.SMS_FROM ?? (smsCatcher ? 'Punctual' : undefined);
  webhookCatcher = await startWebhookCatcher({ db: appDb.db, port: Number(process.env.WEBHOOK_CATCHER_PORT ?? 0) || (await portIfFree(ports.webhook)) || 0 });
  log(`built-in webhook receiver listening on ${webhookCatcher.url}/hooks/{tenant}`);
  if (demo) {
    const seedClock = databaseClock(appDb.db);
    await seedClock.ready;
    seedClock.stop();
    const seeded = await seedDemo(appDb.db, seedClock.now(), { webhookCatcherUrl: webhookCatcher.url, publicUrl: process.env.PUNCTUAL_PUBLIC_URL ?? `http://127.0.0.1:${port}` });
    log(seeded.createdEvents ? `demo data seeded (${seeded.createdEvents} events around now, with the history of the day so far)` : 'demo data present');
  } else {
    log('PUNCTUAL_DEMO=0: no demo data');
  }
  // The worker first: reminders already due go out while the web app builds.
  // The demo's webhook catcher is http://127.0.0.1:<port>: both the sender (worker) and the settings form (web app)
  // must accept http endpoints and that one loopback origin, or an admin could not save the demo's own settings.
  // Allowing http does not open the private-address check: the receiver (its webhooks and its Slack-compatible
  // /slack/… alerts) is allowed by its exact origin, host and port, and nothing else on this machine is.
  const webhookAllowHttp = process.env.PUNCTUAL_WEBHOOK_ALLOW_HTTP ?? 'true';
  const userOrigins = parseAllowedOrigins(process.env.PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS);
  if (!userOrigins.ok) throw new Error(userOrigins.message);
  const webhookAllowedOrigins = [...new Set([...userOrigins.origins, new URL(webhookCatcher.url).origin])];
  // SMS delivery reports (issue #10): the provider POSTs status callbacks to the web app. The built-in SMS API does
  // (a signed `delivered` a moment after each message); a real provider only when the app has a public URL.
  const smsStatusCallbackUrl =
    process.env.SMS_STATUS_CALLBACK_URL ?? (smsCatcher || process.env.PUNCTUAL_PUBLIC_URL ? `${publicUrl.replace(/\/+$/, '')}/api/reports/sms` : undefined);
  worker = await startWorker({
    databaseUrl,
    config: {
      smtpUrl,
      ...(sms ? { sms } : {}),
      smsFrom,
      ...(smsStatusCallbackUrl ? { smsStatusCallbackUrl } : {}),
      // The worker signs preference and unsubscribe links with keys of the web app's session secret, so the web app can verify them.
      links: {
        publicUrl,
        secret: preferencesSecret({ BETTER_AUTH_SECRET: authSecret(dataRoot) }),
        unsubscribeSecret: unsubscribeSecrets({ BETTER_AUTH_SECRET: authSecret(dataRoot) })[0],
        actionSecret: actionLinkSecrets({ BETTER_AUTH_SECRET: authSecret(dataRoot) })[0],
      },
      bounceKey,
      webhookAllowHttp: webhookAllowHttp === 'true',
      webhookAllowedOrigins,
    },
    handleSignals: false,
  });
  log('worker running');
  const appUrl = `http://127.0.0.1:${port}/`;
  console.log(`\n  Punctual will be at ${appUrl} as soon as the web app answers (mail it sends: ${appUrl}mailbox)`);
  printAccounts(demo);
  await ensureNextBuild(log, { logFile: path.join(logDir, 'next-build.log') });
  fs.writeFileSync(portsFile, JSON.stringify({ pg: pg?.port, smtp: catcher?.port, sms: smsCatcher?.port, webhook: webhookCatcher.port } satisfies Ports));
  web = await startNext(
    port,
    {
      DATABASE_URL: databaseUrl,
      // The development mailbox (dev/caught-mail.ts): on, since this script runs the built-in catchers.
      PUNCTUAL_MAILBOX: process.env.PUNCTUAL_MAILBOX ?? '1',
      BETTER_AUTH_SECRET: authSecret(dataRoot),
      // Only when set: unset, the web app trusts both http://127.0.0.1:$PORT and http://localhost:$PORT (domain/platform/public-url.ts).
      ...(process.env.PUNCTUAL_PUBLIC_URL ? { PUNCTUAL_PUBLIC_URL: process.env.PUNCTUAL_PUBLIC_URL } : {}),
      PUNCTUAL_WEBHOOK_ALLOW_HTTP: webhookAllowHttp,
      PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS: webhookAllowedOrigins.join(','),
      // One machine, no load balancer to drain: Ctrl-C / SIGTERM stops the web app at once unless this is set.
      PUNCTUAL_SHUTDOWN_DRAIN_MS: process.env.PUNCTUAL_SHUTDOWN_DRAIN_MS ?? '0',
      // The web app sends test alerts and the worker-heartbeat watchdog's alerts itself (server/alerts/watchdog.ts).
      SMTP_URL: smtpUrl,
      // The mailbox shows the SMS sent from the default sender to tenants that have none of their own.
      ...(smsFrom ? { SMS_FROM: smsFrom } : {}),
      // The report routes verify X-Twilio-Signature with the SMS account's token over the callback URL. (A real
      // provider's SMS_AUTH_TOKEN and HTTP_EMAIL_WEBHOOK_SECRET reach the web app from this environment as they are.)
      ...(sms ? { SMS_AUTH_TOKEN: sms.authToken } : {}),
      ...(smsStatusCallbackUrl ? { SMS_STATUS_CALLBACK_URL: smsStatusCallbackUrl } : {}),
    },
    log,
    undefined,
    { logFile: path.join(logDir, 'web.log') },
  );
  if (web.pid) fs.writeFileSync(webPidFile, String(web.pid));
  web.once('exit', (code) => {
    if (!stopping) {
      console.error(`web server exited unexpectedly (code ${code})`);
      void shutdown('web exit', 1);
    }
  });
  console.log(`\n  Punctual is up at ${appUrl}   (mail it sends: ${appUrl}mailbox — email, SMS and webhooks, one tab each)`);
  console.log(`  Logs: ${shown(logDir)}/worker.log (JSON, one line per event), web.log, next-build.log\n`);
  // What `npm run worker` needs to work like the built-in worker against this instance: the database and catchers
  // (their URLs carry this data folder's passwords), the session secret its link and bounce-address keys derive from,
  // the public URL links point at, and the SMS settings. Written to a 0600 file rather than the terminal (or a log).
  const workerEnv: Record<string, string | undefined> = {
    DATABASE_URL: databaseUrl,
    SMTP_URL: smtpUrl,
    BETTER_AUTH_SECRET: authSecret(dataRoot),
    PUNCTUAL_PUBLIC_URL: publicUrl,
    SMS_API_URL: sms?.baseUrl ?? process.env.SMS_API_URL,
    SMS_ACCOUNT_SID: sms?.accountSid ?? process.env.SMS_ACCOUNT_SID,
    SMS_AUTH_TOKEN: sms?.authToken ?? process.env.SMS_AUTH_TOKEN,
    SMS_FROM: smsFrom,
    SMS_STATUS_CALLBACK_URL: smsStatusCallbackUrl,
    PUNCTUAL_WEBHOOK_ALLOW_HTTP: webhookAllowHttp,
    PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS: webhookAllowedOrigins.join(','),
    PUNCTUAL_SENDER_DOMAINS: process.env.PUNCTUAL_SENDER_DOMAINS,
    PUNCTUAL_MAIL_FROM: process.env.PUNCTUAL_MAIL_FROM,
  };
  const envFile = path.join(dataRoot, 'local.env');
  const quoted = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;
  fs.writeFileSync(envFile, Object.entries(workerEnv).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `${k}=${quoted(v!)}\n`).join(''), { mode: 0o600 });
  fs.chmodSync(envFile, 0o600);
  console.log(`  To run more workers against this instance: set -a; . ${shown(envFile)}; set +a; npm run worker`);
  console.log(`    (${shown(envFile)}, mode 0600: DATABASE_URL=${redactedUrl(databaseUrl)}${catcher ? ` SMTP_URL=${redactedUrl(catcher.url)}` : ''}, the session secret, public URL and SMS settings)`);
  printAccounts(demo);
  console.log('  Sends appear below as they happen (time, channel, outcome, attempt, message key).');
  console.log('\n  Ctrl-C stops it.\n');
}

/** The demo accounts, or (PUNCTUAL_DEMO=0) how to create the first organisation, as commands that work as printed. */
function printAccounts(demo: boolean): void {
  if (demo) {
    console.log(`  Demo accounts (password: ${DEMO_PASSWORD}):`);
    for (const a of demoAccounts) console.log(`    ${a.email.padEnd(30)} ${a.role.padEnd(7)} tenant ${a.tenantSlug}`);
  } else {
    // An empty instance: how to create the first organisation (in another terminal in this folder, while this runs).
    console.log('  No demo (PUNCTUAL_DEMO=0). Create your organisation and its first admin (in another terminal, in this folder):');
    console.log(`    ${dataDirPrefix}npm run tenant -- create --slug acme --name "Acme Events" --time-zone Europe/Dublin \\`);
    console.log('      --sender reminders@acme.example --admin-email you@acme.example');
    console.log('  It prints a one-time link where the admin chooses a password. Then import events:');
    console.log(`    ${dataDirPrefix}npm run import:ics -- FILE.ics --tenant acme`);
  }
  console.log('');
}

main().catch(async (e) => {
  console.error(`start failed: ${e instanceof Error ? e.message : String(e)}`);
  await shutdown('error', 1);
});
