/**
 * The bare pipeline the benchmark compares Punctual with: one graphile-worker process whose only task,
 * `bare_send` (payload `{ id }`), sends one email through a pooled nodemailer transport and then runs ONE
 * UPDATE (`bench_bare.sent_at = now()`, rows numbered per run). Nothing else: no claim, no re-read, no attempt rows.
 *
 * Environment:
 *   DATABASE_URL        the bench database (table `bench_bare(id int primary key, sent_at timestamptz, message_id text)`)
 *   BENCH_SMTP_URL      smtp://[user:password@]127.0.0.1:<port>?ignoreTLS=true (the sink; a login in the URL is used
 *                       with SMTP AUTH, as Punctual's SMTP channel does — the catcher requires it)
 *   BENCH_CONCURRENCY   graphile-worker concurrency = nodemailer pool size (default 10)
 * The job payload `{ id, render: true }` renders Punctual's attendee reminder (emails/index.ts renderReminderEmail)
 * for that message with preview-like data that differs per message (bare+render); without `render`, every message
 * is the same pre-rendered bytes (same size, no render cost: bare).
 * Prints `bare worker running` when ready; SIGTERM finishes in-flight jobs and exits.
 */
// React in production mode, as in Punctual's worker (scripts/worker.ts): the render baseline must compare like with like.
import '@/scripts/production-env';
import { run } from 'graphile-worker';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { quietLogger } from '@/db/migrate';
import { previewData, renderReminderEmail, type TemplateData } from '@/emails';

const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 10);
const smtp = new URL(process.env.BENCH_SMTP_URL!);
const base = previewData['attendee-reminder'];

/** Preview data made unique per message (name, title, start), like reminders of different bookings. */
function dataFor(id: number): TemplateData {
  const start = new Date(Date.parse(base.startsAt as unknown as string) + (id % 1000) * 60_000);
  return { ...base, recipientName: `Bee ${id}`, eventTitle: `Workshop ${id % 97}`, startsAt: start.toISOString(), endsAt: new Date(start.getTime() + 3_600_000).toISOString() } as TemplateData;
}

const fixed = await renderReminderEmail('attendee-reminder', dataFor(0));
const transport = nodemailer.createTransport({
  pool: true,
  host: smtp.hostname,
  port: Number(smtp.port),
  secure: false,
  ignoreTLS: true,
  maxConnections: concurrency,
  maxMessages: Infinity,
  ...(smtp.username ? { auth: { user: decodeURIComponent(smtp.username), pass: decodeURIComponent(smtp.password) } } : {}),
});

const pgPool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: concurrency + 2 });
pgPool.on('error', (e) => console.error(`[bare-worker] ${e.message}`));
pgPool.on('connect', (client) => client.on('error', (e) => console.error(`[bare-worker] ${e.message}`)));
const runner = await run({
  pgPool,
  concurrency,
  noHandleSignals: true,
  logger: quietLogger(),
  taskList: {
    async bare_send(payload, helpers) {
      const { id, render } = payload as { id: number; render?: boolean };
      const m = render ? await renderReminderEmail('attendee-reminder', dataFor(id)) : fixed;
      const info = await transport.sendMail({
        from: 'Studio Noord <reminders@bench.test>',
        to: `bee${id}@bench.test`,
        subject: m.subject,
        html: m.html,
        text: m.text,
        messageId: `<bare-${id}@bench.test>`,
      });
      await helpers.query('update bench_bare set sent_at = now(), message_id = $2 where id = $1', [id, info.messageId]);
    },
  },
});
console.log('bare worker running');
process.on('SIGTERM', async () => {
  await runner.stop();
  transport.close();
  await pgPool.end();
  process.exit(0);
});
