/**
 * `npm run bench`: prints figures, asserts nothing.
 *   A. idle latency: reminders due one at a time (2 s apart) against one idle worker process; delay from the
 *      due instant to the provider call (attempt start) and to arrival at the SMTP catcher.
 *   B. burst: N reminders due at the same instant (default 500, BENCH_BURST) against W worker processes
 *      (default 2, BENCH_WORKERS); time until the last one is accepted, and sends per second.
 * Uses DATABASE_URL's server (a throwaway database, dropped afterwards) or an embedded PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { createDb } from '../db/client';
import { startEmbeddedPostgres, type EmbeddedPg } from '../db/embedded';
import { migrateDatabase } from '../db/migrate';
import { startMailCatcher } from '../server/mail-catcher';
import { addBooking, createEvent } from '../server/scheduling';
import { createReminderRule, createTenant } from '../server/tenants';
import { root } from './lib';

const BURST = Number(process.env.BENCH_BURST ?? 500);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const IDLE_SAMPLES = Number(process.env.BENCH_IDLE ?? 10);

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  let pg: EmbeddedPg | undefined;
  let server = process.env.DATABASE_URL;
  if (!server) {
    pg = await startEmbeddedPostgres({ dataDir: path.join(root, '.data', 'pg-bench') });
    server = pg.url;
  }
  const name = `punctual_bench_${randomBytes(4).toString('hex')}`;
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const u = new URL(server);
  u.pathname = `/${name}`;
  const url = u.toString();
  const procs: ReturnType<typeof spawn>[] = [];
  try {
    await migrateDatabase(url);
    const h = createDb(url, { max: 5 });
    const catcher = await startMailCatcher({ db: h.db });
    const tenant = await createTenant(h.db, { slug: 'bench', name: 'Bench', timeZone: 'Europe/Amsterdam' });
    await createReminderRule(h.db, tenant.id, { name: '1h', anchor: 'start', offset: '-PT1H', audience: ['attendee'], template: 'attendee-reminder', lateSendWindowSeconds: 3600 });
    const spawnWorker = () => {
      const c = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'worker.ts')], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: url, SMTP_URL: catcher.url },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      procs.push(c);
      return new Promise<void>((r) => c.stdout!.on('data', (b: Buffer) => b.toString().includes('running') && r()));
    };
    const planAt = async (dueAt: Date, n: number) => {
      const start = new Date(dueAt.getTime() + 3_600_000);
      const e = await createEvent(h.db, tenant.id, { title: `Bench ${dueAt.toISOString()}`, startsAt: start, endsAt: new Date(start.getTime() + 3_600_000), timeZone: 'Europe/Amsterdam' });
      for (let i = 0; i < n; i++) {
        await addBooking(h.db, tenant.id, { eventId: e.id, role: 'attendee', contact: { email: `b${randomBytes(4).toString('hex')}@bench.test`, name: 'Bee' } }, new Date());
      }
    };
    const lagRows = async () =>
      h.db.execute<{ to_call: number; to_arrival: number | null }>(sql`
        select extract(epoch from (a.started_at - r.due_at)) * 1000 as to_call,
               extract(epoch from ((select min(received_at) from caught_messages m where m.headers->>'x-punctual-message-key' = d.message_key) - r.due_at)) * 1000 as to_arrival
        from delivery_attempts a join deliveries d on d.id = a.delivery_id join reminders r on r.id = d.reminder_id`);

    // A. idle latency
    await spawnWorker();
    await sleep(1500);
    const t0 = Date.now() + 3000;
    for (let i = 0; i < IDLE_SAMPLES; i++) await planAt(new Date(Math.ceil((t0 + i * 2000) / 1000) * 1000), 1);
    const deadline = Date.now() + IDLE_SAMPLES * 2000 + 15_000;
    while (Date.now() < deadline) {
      const [{ n }] = await h.db.execute<{ n: number }>(sql`select count(*)::int as n from deliveries where status = 'accepted'`);
      if (n >= IDLE_SAMPLES) break;
      await sleep(200);
    }
    const idle = (await lagRows()).map((r) => Number(r.to_call)).sort((a, b) => a - b);
    const idleArrival = (await lagRows()).map((r) => Number(r.to_arrival)).sort((a, b) => a - b);
    console.log(`A. idle latency, ${idle.length} reminders, 1 worker:`);
    console.log(`   due → provider call   p50 ${pct(idle, 50).toFixed(0)} ms  p95 ${pct(idle, 95).toFixed(0)} ms  max ${idle[idle.length - 1].toFixed(0)} ms`);
    console.log(`   due → SMTP arrival    p50 ${pct(idleArrival, 50).toFixed(0)} ms  p95 ${pct(idleArrival, 95).toFixed(0)} ms  max ${idleArrival[idleArrival.length - 1].toFixed(0)} ms`);

    // B. burst
    await h.db.execute(sql`truncate delivery_attempts, delivery_reports, audit_log, deliveries, caught_messages`);
    for (let i = 1; i < WORKERS; i++) await spawnWorker();
    const due = new Date(Math.ceil((Date.now() + 20_000) / 1000) * 1000);
    const planStart = Date.now();
    await planAt(due, BURST);
    console.log(`B. burst: planned ${BURST} reminders in ${Date.now() - planStart} ms; due in ${((due.getTime() - Date.now()) / 1000).toFixed(1)} s; ${WORKERS} workers`);
    const bDeadline = Date.now() + 300_000;
    let last = 0;
    while (Date.now() < bDeadline) {
      const [{ n }] = await h.db.execute<{ n: number }>(sql`select count(*)::int as n from deliveries where status = 'accepted'`);
      last = n;
      if (n >= BURST) break;
      await sleep(250);
    }
    const [{ span }] = await h.db.execute<{ span: number }>(sql`select extract(epoch from (max(accepted_at) - ${due.toISOString()}::timestamptz)) * 1000 as span from deliveries`);
    const burst = (await lagRows()).map((r) => Number(r.to_call)).sort((a, b) => a - b);
    const [{ dupes }] = await h.db.execute<{ dupes: number }>(sql`select count(*) - count(distinct message_id) as dupes from caught_messages`);
    console.log(`   accepted ${last}/${BURST}; last accepted ${(Number(span) / 1000).toFixed(1)} s after due → ${(BURST / (Number(span) / 1000)).toFixed(1)} sends/s`);
    console.log(`   due → provider call   p50 ${pct(burst, 50).toFixed(0)} ms  p95 ${pct(burst, 95).toFixed(0)} ms  max ${burst[burst.length - 1].toFixed(0)} ms; duplicate Message-IDs at the catcher: ${dupes}`);
    for (const c of procs) {
      try {
        const status = fs.readFileSync(`/proc/${c.pid}/status`, 'utf8');
        console.log(`   worker ${c.pid} peak RSS ${status.match(/VmHWM:\s+(\d+)/)?.[1]} kB`);
      } catch {
        /* not Linux */
      }
    }
    await catcher.close();
    await h.close();
  } finally {
    for (const c of procs) c.kill('SIGTERM');
    await sleep(1500);
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
    await pg?.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
