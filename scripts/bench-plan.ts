/**
 * `npx tsx scripts/bench-plan.ts [--sizes 10000,100000] [--one-by-one 500] [--rules 1] [--no-notify]`: prints
 * figures, asserts nothing (issue #11 *plan*: ≥ 20,000 bookings/s).
 *
 * Creates a throwaway database on DATABASE_URL's server (or an embedded PostgreSQL), migrates it, and books N
 * new people onto one fresh event per size through `addBookingsBulk` (one transaction), then `--one-by-one`
 * people through `addBooking` for comparison. Per run: wall-clock bookings/s, this process's CPU
 * (`process.cpuUsage`) and the PostgreSQL backend's CPU (utime + stime of its /proc/<pid>/stat, when the server
 * is on this machine) — wall-clock time on a shared machine also counts waiting for other processes' work.
 * The database is dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { createDb, type Db } from '@/db/client';
import { startEmbeddedPostgres, type EmbeddedPg } from '@/db/embedded';
import { migrateDatabase } from '@/db/migrate';
import { addBooking, addBookingsBulk, type BulkBookingInput } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { createTenant } from '@/server/organisations/tenants';
import { createReminderRule } from '@/server/rules/reminder-rule';
import { root } from './lib';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    'one-by-one': { type: 'string', default: '500' },
    rules: { type: 'string', default: '1' },
    'no-notify': { type: 'boolean', default: false },
  },
});

const TICK_MS = 10; // USER_HZ = 100 on Linux

/** CPU ms (user + system) of a local process, or null when /proc does not show it (a remote server). */
function procCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS; // fields 14 and 15 of stat(5)
  } catch {
    return null;
  }
}

async function measure(db: Db, label: string, n: number, run: () => Promise<unknown>) {
  // One connection for the whole run so the backend whose CPU we read is the one doing the work.
  const [{ pid }] = await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
  const pg0 = procCpuMs(pid);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const pg1 = procCpuMs(pid);
  const nodeMs = (cpu.user + cpu.system) / 1000;
  const pgMs = pg0 !== null && pg1 !== null ? pg1 - pg0 : null;
  const row = {
    run: label,
    bookings: n,
    wallMs: Math.round(ms),
    bookingsPerSec: Math.round((n / ms) * 1000),
    nodeCpuMs: Math.round(nodeMs),
    pgBackendCpuMs: pgMs,
    cpuUsPerBooking: pgMs === null ? null : Math.round(((nodeMs + pgMs) / n) * 1000),
  };
  console.log(JSON.stringify(row));
  return row;
}

async function main() {
  let pg: EmbeddedPg | undefined;
  let server = process.env.DATABASE_URL;
  if (!server) {
    pg = await startEmbeddedPostgres({ dataDir: path.join(root, '.data', 'pg-bench-plan') });
    server = pg.url;
  }
  const name = `punctual_benchplan_${randomBytes(4).toString('hex')}`;
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const u = new URL(server);
  u.pathname = `/${name}`;
  // max 1: every statement runs on one backend (its CPU is what pgBackendCpuMs reads).
  const h = createDb(u.toString(), { max: 1 });
  try {
    await migrateDatabase(u.toString());
    const tenant = await createTenant(h.db, { slug: 'bench', name: 'Bench', timeZone: 'Europe/Amsterdam' });
    const offsets = ['-PT1H', '-P1D', '-PT10M', '-P7D'];
    for (let r = 0; r < Number(args.rules); r++) {
      await createReminderRule(h.db, tenant.id, { name: `r${r}`, anchor: 'start', offset: offsets[r % offsets.length], audience: ['attendee'], template: 'attendee-reminder', lateSendWindowSeconds: 3600 });
    }
    const now = new Date();
    const start = new Date(now.getTime() + 10 * 86_400_000);
    const newEvent = (title: string) => createEvent(h.db, tenant.id, { title, startsAt: start, endsAt: new Date(start.getTime() + 3_600_000), timeZone: 'Europe/Amsterdam' });
    const notify = !args['no-notify'];
    console.log(JSON.stringify({ rules: Number(args.rules), notify }));
    let k = 0;
    for (const n of String(args.sizes).split(',').map(Number)) {
      const e = await newEvent(`bulk ${n}`);
      const people: BulkBookingInput[] = Array.from({ length: n }, () => ({ role: 'attendee', contact: { email: `b${k++}@bench.test`, name: 'Bee' } }));
      await measure(h.db, 'addBookingsBulk', n, async () => {
        const r = await addBookingsBulk(h.db, tenant.id, e.id, people, now, { notify });
        if (r.bookings !== n) throw new Error(`booked ${r.bookings} of ${n}`);
      });
    }
    const m = Number(args['one-by-one']);
    if (m > 0) {
      const e = await newEvent('one by one');
      await measure(h.db, 'addBooking one by one', m, async () => {
        for (let i = 0; i < m; i++) await addBooking(h.db, tenant.id, { eventId: e.id, role: 'attendee', contact: { email: `o${k++}@bench.test`, name: 'Bee' } }, now);
      });
    }
  } finally {
    await h.close();
    if (process.env.BENCH_KEEP_DB) console.log(`kept database ${name}`);
    else await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
    await pg?.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
