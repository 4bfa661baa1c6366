/**
 * The chaos run (issue #3): N reminders due in a short window, split between a tenant on the HTTP email API
 * and one on SMTP; W real worker processes, one killed with SIGKILL every few seconds and restarted; one
 * PostgreSQL restart mid-run; both providers injecting transient errors, 429s, ambiguous drops and invalid
 * recipients. Then every reminder must be delivered once or sit in a named terminal state.
 *
 * Fails (returns `ok: false`, with the reasons) on: any duplicate at the HTTP peer; any duplicate at the SMTP
 * peer outside deliveries marked `unknown`; any reminder or delivery left in no terminal state (lost).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createDb } from '@/db/client';
import { credentialsFileFor, startEmbeddedPostgres, type EmbeddedPg } from '@/db/embedded';
import { migrateDatabase } from '@/db/migrate';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { createTenant } from '@/server/organisations/tenants';
import { createReminderRule } from '@/server/rules/reminder-rule';
import { startHttpPeer } from './http-peer';
import { startSmtpPeer } from './smtp-peer';

const root = path.resolve(import.meta.dirname, '..', '..');

interface ChaosOptions {
  n: number;
  workers?: number;
  /** Kill one worker every killMinMs..killMaxMs. */
  killMinMs?: number;
  killMaxMs?: number;
  restartPostgres?: boolean;
  /** Give up waiting for quiescence after this long. */
  settleTimeoutMs?: number;
  log?: (m: string) => void;
}

interface ChaosReport {
  ok: boolean;
  problems: string[];
  table: Record<'due' | 'delivered' | 'duplicates' | 'expired' | 'dead' | 'unknown' | 'failed' | 'suppressed' | 'lost', number>;
  kills: number;
  pgRestarts: number;
  seconds: number;
}

const TERMINAL_REMINDER = ['done', 'expired', 'failed', 'cancelled', 'superseded'];
const TERMINAL_DELIVERY = ['accepted', 'delivered', 'bounced', 'complained', 'failed', 'dead', 'unknown', 'expired', 'suppressed', 'discarded', 'cancelled', 'superseded'];

export async function runChaos(opts: ChaosOptions): Promise<ChaosReport> {
  const log = opts.log ?? (() => {});
  const t0 = Date.now();
  const nWorkers = opts.workers ?? 3;
  const dataDir = path.join(root, '.data', `chaos-${randomBytes(4).toString('hex')}`);
  let pg: EmbeddedPg | undefined = await startEmbeddedPostgres({ dataDir });
  const port = pg.port;
  const url = pg.url;
  await migrateDatabase(url);
  const h = createDb(url, { max: 4 });
  const invalid = Array.from({ length: Math.max(1, Math.round(opts.n / 100)) }, (_, i) => `bad-${i}@invalid.test`);
  const http = await startHttpPeer({ invalidRecipients: invalid, chaos: { drop: 0.03, serverError: 0.03, rateLimited: 0.05 } });
  const smtp = await startSmtpPeer(['accept'], { invalidRecipients: invalid, chaos: { dropAfterData: 0.02, tempfail: 0.05 } });
  const children = new Map<number, ChildProcess>();
  let kills = 0;
  let pgRestarts = 0;
  const spawnWorker = (slot: number) => {
    const c = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'worker.ts')], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: url,
        SMTP_URL: smtp.url,
        HTTP_EMAIL_API_URL: http.url,
        HTTP_EMAIL_API_KEY: http.apiKey,
        PUNCTUAL_CLAIM_LEASE_MS: '3000',
        PUNCTUAL_SEND_LEASE_MS: '6000',
        PUNCTUAL_STALE_DISPATCH_MS: '5000',
        PUNCTUAL_SWEEP_INTERVAL_MS: '2000',
        PUNCTUAL_RETRY_SMTP: '300,3000,8',
        PUNCTUAL_RETRY_HTTP_API: '300,3000,8',
        WORKER_CONCURRENCY: '8',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    c.stderr!.on('data', () => {}); // connection-loss noise during the PostgreSQL restart is expected
    children.set(slot, c);
  };
  try {
    // Two tenants, one per provider; every reminder due within a 20-second window starting after planning.
    const tenants = [
      await createTenant(h.db, { slug: 'chaos-http', name: 'Chaos HTTP', timeZone: 'Europe/Amsterdam', emailProvider: 'http_api' }),
      await createTenant(h.db, { slug: 'chaos-smtp', name: 'Chaos SMTP', timeZone: 'Europe/Amsterdam', emailProvider: 'smtp' }),
    ];
    for (const t of tenants) {
      await createReminderRule(h.db, t.id, { name: 'hour before', anchor: 'start', offset: '-PT1H', audience: ['attendee'], template: 'attendee-reminder', lateSendWindowSeconds: 15 * 60 });
    }
    const windowStart = Date.now() + 5_000 + opts.n * 12; // room for planning
    const perEvent = 25;
    const eventsNeeded = Math.ceil(opts.n / perEvent);
    let planned = 0;
    for (let e = 0; e < eventsNeeded; e++) {
      const t = tenants[e % 2];
      const due = windowStart + Math.floor((e / eventsNeeded) * 20_000);
      const ev = await createEvent(h.db, t.id, { title: `Chaos ${e}`, startsAt: new Date(due + 3_600_000), endsAt: new Date(due + 7_200_000), timeZone: 'Europe/Amsterdam' });
      for (let i = 0; i < perEvent && planned < opts.n; i++, planned++) {
        const email = planned % 100 === 50 ? invalid[Math.floor(planned / 100) % invalid.length] : `p${planned}@chaos.test`;
        await addBooking(h.db, t.id, { eventId: ev.id, role: 'attendee', contact: { email } }, new Date());
      }
    }
    log(`planned ${planned} reminders in ${((Date.now() - t0) / 1000).toFixed(1)} s; due from ${new Date(windowStart).toISOString()} over 20 s`);
    for (let i = 0; i < nWorkers; i++) spawnWorker(i);

    // Chaos phase: until 25 s after the window closes.
    const chaosUntil = windowStart + 45_000;
    const pgRestartAt = windowStart + 8_000;
    let nextKill = Date.now() + (opts.killMinMs ?? 2000);
    while (Date.now() < chaosUntil) {
      if (Date.now() >= nextKill) {
        const slot = Math.floor(Math.random() * nWorkers);
        children.get(slot)?.kill('SIGKILL');
        kills++;
        spawnWorker(slot);
        nextKill = Date.now() + (opts.killMinMs ?? 2000) + Math.random() * ((opts.killMaxMs ?? 5000) - (opts.killMinMs ?? 2000));
      }
      if (opts.restartPostgres !== false && pgRestarts === 0 && Date.now() >= pgRestartAt) {
        log('restarting PostgreSQL');
        await pg!.stop();
        pg = await startEmbeddedPostgres({ dataDir, port });
        pgRestarts++;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    log(`chaos over (${kills} kills, ${pgRestarts} PostgreSQL restart); settling`);

    // Settle: no more faults from us; wait until nothing is in flight.
    const settleDeadline = Date.now() + (opts.settleTimeoutMs ?? 120_000);
    for (;;) {
      const [{ open }] = await h.db.execute<{ open: number }>(sql`
        select (select count(*) from reminders where status in ('scheduled','dispatched'))
             + (select count(*) from deliveries where status in ('claimed','sending','retrying')) as open`);
      if (Number(open) === 0 || Date.now() > settleDeadline) break;
      await new Promise((r) => setTimeout(r, 500));
    }

    // The verdict.
    const problems: string[] = [];
    const rStatus = await h.db.execute<{ status: string; n: number }>(sql`select status::text, count(*)::int as n from reminders group by 1`);
    const dStatus = await h.db.execute<{ status: string; n: number }>(sql`select status::text, count(*)::int as n from deliveries group by 1`);
    const count = (rows: { status: string; n: number }[], s: string) => rows.find((r) => r.status === s)?.n ?? 0;
    const lostReminders = rStatus.filter((r) => !TERMINAL_REMINDER.includes(r.status)).reduce((a, r) => a + r.n, 0);
    const lostDeliveries = dStatus.filter((r) => !TERMINAL_DELIVERY.includes(r.status)).reduce((a, r) => a + r.n, 0);
    const [{ orphans }] = await h.db.execute<{ orphans: number }>(sql`
      select count(*)::int as orphans from reminders r where r.status = 'done' and not exists (select 1 from deliveries d where d.reminder_id = r.id)`);
    const unknownKeys = new Set(
      (await h.db.execute<{ message_key: string }>(sql`select message_key from deliveries where status = 'unknown'`)).map((r) => r.message_key),
    );
    const dupes = (keys: (string | null)[]) => {
      const seen = new Map<string, number>();
      for (const k of keys) if (k) seen.set(k, (seen.get(k) ?? 0) + 1);
      return [...seen].filter(([, c]) => c > 1).map(([k]) => k);
    };
    const httpDupes = dupes(http.messages.map((m) => m.messageKey));
    const smtpDupes = dupes(smtp.received.map((m) => m.messageKey)).filter((k) => !unknownKeys.has(k));
    if (httpDupes.length) problems.push(`${httpDupes.length} duplicate message keys at the HTTP peer: ${httpDupes.slice(0, 3).join(', ')}`);
    if (smtpDupes.length) problems.push(`${smtpDupes.length} duplicate message keys at the SMTP peer outside unknown deliveries: ${smtpDupes.slice(0, 3).join(', ')}`);
    const lost = lostReminders + lostDeliveries + Number(orphans);
    if (lost) problems.push(`${lost} lost (reminders ${JSON.stringify(rStatus)}, deliveries ${JSON.stringify(dStatus)}, done without delivery ${orphans})`);
    const [{ suppressed }] = await h.db.execute<{ suppressed: number }>(sql`select count(*)::int as suppressed from suppressions`);
    const table = {
      due: planned,
      delivered: count(dStatus, 'accepted'),
      duplicates: httpDupes.length + smtpDupes.length,
      expired: count(rStatus, 'expired') + count(dStatus, 'expired'),
      dead: count(dStatus, 'dead'),
      unknown: count(dStatus, 'unknown'),
      failed: count(rStatus, 'failed') + count(dStatus, 'failed'),
      suppressed: Number(suppressed),
      lost,
    };
    const accounted = table.delivered + table.expired + table.dead + table.unknown + table.failed + count(dStatus, 'suppressed');
    if (accounted !== planned && lost === 0) problems.push(`accounting: ${accounted} of ${planned} reminders end in a counted state`);
    return { ok: problems.length === 0, problems, table, kills, pgRestarts, seconds: Math.round((Date.now() - t0) / 1000) };
  } finally {
    for (const c of children.values()) c.kill('SIGKILL');
    await http.close();
    await smtp.close();
    await h.close();
    await pg?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(credentialsFileFor(dataDir), { force: true });
  }
}

/** The report as the table the issue asks for. */
export function formatChaosTable(r: ChaosReport): string {
  const cols = Object.keys(r.table) as (keyof ChaosReport['table'])[];
  const head = `| ${cols.join(' | ')} |`;
  const sep = `| ${cols.map((c) => '-'.repeat(c.length)).join(' | ')} |`;
  const row = `| ${cols.map((c) => String(r.table[c]).padStart(c.length)).join(' | ')} |`;
  return `${head}\n${sep}\n${row}\n${r.kills} worker kills, ${r.pgRestarts} PostgreSQL restart(s), ${r.seconds} s${r.ok ? '' : `\nPROBLEMS:\n- ${r.problems.join('\n- ')}`}`;
}
