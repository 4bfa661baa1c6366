/**
 * Measures what one SMTP send costs this process (issue #11): CPU ms per send (process.cpuUsage of the sending
 * process only — the sink runs in a child process) and wall time, for N sequential sends and N sends 10 at a
 * time, through `createSmtpChannel` (channels/smtp.ts).
 *
 *   npx tsx test/support/smtp-send-cost.ts [--sink=null|catcher] [--n=500] [--concurrency=10] [--url-query=pool=5]
 *
 * Sinks: `null` — an smtp-server that reads every message and forgets it; `catcher` — the built-in mail catcher
 * (dev/mail-catcher.ts) storing into PostgreSQL at `DATABASE_URL` (a database `punctual_smtp_cost` is created
 * there and migrated). Prints one JSON line per round. Not a test: a script the lead can re-run.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createSmtpChannel } from '@/channels/smtp';
import type { OutgoingEmail } from '@/channels/types';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=', 2) as [string, string]));

async function runSink(kind: string): Promise<void> {
  let url: string;
  if (kind === 'catcher') {
    const postgres = (await import('postgres')).default;
    const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const admin = postgres(base, { max: 1, onnotice: () => {} });
    const name = 'punctual_smtp_cost';
    const [exists] = await admin`select 1 from pg_database where datname = ${name}`;
    if (!exists) await admin.unsafe(`create database ${name}`);
    await admin.end();
    const dbUrl = base.replace(/\/[^/]*$/, `/${name}`);
    const { migrateDatabase } = await import('@/db/migrate');
    const { createDb } = await import('@/db/client');
    const { startMailCatcher } = await import('@/dev/mail-catcher');
    await migrateDatabase(dbUrl);
    const handle = createDb(dbUrl, { max: 10 });
    await handle.db.execute('truncate caught_messages cascade' as never).catch(() => {});
    url = (await startMailCatcher({ db: handle.db })).url;
  } else {
    const { SMTPServer } = await import('smtp-server');
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      disableReverseLookup: true,
      logger: false,
      onData(stream, _s, cb) {
        stream.on('data', () => {});
        stream.on('end', () => cb());
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const a = server.server.address();
    url = `smtp://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}?ignoreTLS=true`;
  }
  process.send!({ url });
}

function message(i: number): OutgoingEmail {
  return {
    tenantId: '00000000-0000-4000-8000-00000000a11a',
    from: { name: 'Acme Workshops', address: 'hello@acme.test' },
    to: { name: `Person ${i}`, address: `p${i}@example.test` },
    subject: `Reminder: Clay workshop starts in 1 hour (${i})`,
    html: `<html><body>${'<p>Your workshop starts at 10:00 (Europe/Amsterdam). See you there.</p>'.repeat(40)}</body></html>`,
    text: 'Your workshop starts at 10:00 (Europe/Amsterdam). See you there.\n'.repeat(40),
    messageId: `<rem.${i}.${Date.now()}@acme.test>`,
    headers: { 'X-Punctual-Message-Key': `rem:acme:${i}:email` },
  };
}

async function main(): Promise<void> {
  const sinkKind = args.sink ?? 'null';
  const n = Number(args.n ?? 500);
  const conc = Number(args.concurrency ?? 10);
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [`--role=sink`, `--sink=${sinkKind}`], { execArgv: ['--import', 'tsx'] });
  const base: string = await new Promise((r) => child.once('message', (m: { url: string }) => r(m.url)));
  const url = args['url-query'] ? `${base}&${args['url-query']}` : base;
  const channel = createSmtpChannel({ url });
  const sendOne = async (i: number) => {
    const o = await channel.send(message(i), { idempotencyKey: `k${i}` });
    if (o.class !== 'accepted') throw new Error(`send ${i}: ${JSON.stringify(o)}`);
  };
  // Warm-up: module loading and JIT, not measured.
  for (let i = 0; i < 20; i++) await sendOne(-i - 1);
  const rounds: Record<string, unknown>[] = [];
  for (const mode of ['sequential', `concurrent${conc}`]) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    if (mode === 'sequential') for (let i = 0; i < n; i++) await sendOne(i);
    else {
      let next = 0;
      await Promise.all(Array.from({ length: conc }, async () => {
        while (next < n) await sendOne(next++);
      }));
    }
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const r = { sink: sinkKind, url: url.replace(/^smtp:\/\/[^?]*/, 'smtp://…'), mode, n, wallMs: Math.round(wall), perSec: Math.round((n / wall) * 1000), cpuMsPerSend: +((cpu.user + cpu.system) / 1000 / n).toFixed(3) };
    rounds.push(r);
    console.log(JSON.stringify(r));
  }
  await channel.close();
  child.kill();
}

if (args.role === 'sink') void runSink(args.sink ?? 'null');
else
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
