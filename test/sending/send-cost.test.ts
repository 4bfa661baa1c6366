/**
 * What one send costs the database (issue #11): the SQL statements, transactions and queue statements of one
 * successful email reminder through `sendReminder` (real PostgreSQL, real SMTP catcher), counted with
 * postgres.js's `debug` hook on a client used only by the send. Each statement is one round trip; `begin` is one
 * transaction (`begin`/`commit` count as statements: each is a round trip). The ceilings are the figures after the
 * issue-#11 rework — 11 statements and 2 transactions for `sendReminder`, 10 for a `deliver` job; before it, 26
 * statements (3 transactions) and 16 — so a change that adds round trips fails here.
 */
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as schema from '@/db/schema';
import { deliveries, deliveryAttempts, reminders } from '@/db/schema';
import type { Db } from '@/db/client';
import { createSmtpChannel } from '@/channels/smtp';
import { dispatchDue } from '@/server/sending/dispatch';
import { deliver, sendReminder, type SendDeps } from '@/server/sending/send-reminder';
import { sendReminderBatch } from '@/server/sending/send-batch';
import { createSendWindow } from '@/server/sending/send-window';
import { startMailCatcher, type MailCatcher } from '@/dev/mail-catcher';
import { FakeClock } from '@/test/support/clock';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { eventWithBooking, tenantWithRules } from '@/test/support/fixtures';

/** Ceilings for one successful email send (statements = round trips). */
const MAX_STATEMENTS = 11;
const MAX_TRANSACTIONS = 2;

let tdb: TestDatabase;
let catcher: MailCatcher;
let counted: { sql: postgres.Sql; db: Db; log: string[] };

beforeAll(async () => {
  tdb = await createTestDatabase();
  catcher = await startMailCatcher({ db: tdb.db });
  const log: string[] = [];
  const sql = postgres(tdb.url, { max: 1, onnotice: () => {}, debug: (_conn, query) => void log.push(query) });
  // Open the connection first: postgres.js reads the array types once per client, not per send.
  await sql`select 1`;
  counted = { sql, db: drizzle(sql, { schema }) as unknown as Db, log };
});
afterAll(async () => {
  await counted?.sql.end({ timeout: 5 });
  await catcher?.close();
  await tdb?.close();
});
beforeEach(async () => tdb.reset());

/** Counts of a statement log: every statement, the transactions (`begin`), and those that touch the queue. */
function tally(log: string[]) {
  return {
    statements: log.length,
    transactions: log.filter((q) => /^\s*begin\b/i.test(q)).length,
    queue: log.filter((q) => /graphile_worker\./.test(q)).length,
  };
}

/** A tenant with one 1-hour-before rule, an event with one attendee, dispatched at its due instant. */
async function dueReminder(clock: FakeClock) {
  const { tenant } = await tenantWithRules(tdb.db, [{ offset: '-PT1H' }]);
  const { booking } = await eventWithBooking(tdb.db, tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
  clock.set('2027-06-15T07:00:00Z');
  expect((await dispatchDue(tdb.db, clock.now())).dispatched).toBe(1);
  const [r] = await tdb.db.select().from(reminders).where(eq(reminders.bookingId, booking.id));
  expect(r.status).toBe('dispatched');
  return r;
}

describe('database cost of one send', () => {
  it(`one accepted email through sendReminder: ≤ ${MAX_STATEMENTS} statements, ≤ ${MAX_TRANSACTIONS} transactions, no queue statement`, async () => {
    const clock = new FakeClock(new Date('2027-06-01T00:00:00Z'));
    const r = await dueReminder(clock);
    const deps: SendDeps = { db: counted.db, channel: createSmtpChannel({ url: catcher.url }), clock };
    counted.log.length = 0;
    const res = await sendReminder(deps, r.id);
    const cost = tally(counted.log);
    console.log(`[send-cost] sendReminder: ${JSON.stringify(cost)}\n  ${counted.log.map((q) => q.replace(/\s+/g, ' ').slice(0, 160)).join('\n  ')}`);
    expect(res).toMatchObject({ kind: 'delivered', result: { status: 'accepted' } });
    const [d] = await tdb.db.select().from(deliveries);
    expect(d.status).toBe('accepted');
    const attempts = await tdb.db.select().from(deliveryAttempts);
    expect(attempts.map((a) => [a.attemptNo, a.outcome])).toEqual([[1, 'accepted']]);
    expect(attempts[0].endedAt).not.toBeNull();
    expect((await tdb.db.select().from(reminders).where(eq(reminders.id, r.id)))[0].status).toBe('done');
    expect(await tdb.db.select().from(schema.caughtMessages)).toHaveLength(1);
    expect(cost.statements).toBeLessThanOrEqual(MAX_STATEMENTS);
    expect(cost.transactions).toBeLessThanOrEqual(MAX_TRANSACTIONS);
    expect(cost.queue).toBe(0);
  });

  it('the deliver job path (claim made earlier, e.g. deliverInline: false) stays within its own ceiling', async () => {
    const clock = new FakeClock(new Date('2027-06-01T00:00:00Z'));
    const r = await dueReminder(clock);
    const deps: SendDeps = { db: counted.db, channel: createSmtpChannel({ url: catcher.url }), clock };
    const claimed = await sendReminder(deps, r.id, { deliverInline: false });
    expect(claimed).toMatchObject({ kind: 'delivered', result: { status: 'claimed' } });
    counted.log.length = 0;
    const res = await deliver(deps, (claimed as { deliveryId: string }).deliveryId);
    const cost = tally(counted.log);
    console.log(`[send-cost] deliver: ${JSON.stringify(cost)}`);
    expect(res.status).toBe('accepted');
    expect(cost.statements).toBeLessThanOrEqual(MAX_STATEMENTS - 1);
    expect(cost.transactions).toBeLessThanOrEqual(MAX_TRANSACTIONS);
    expect(cost.queue).toBe(0);
  });
});

describe('database cost of a send batch', () => {
  /** Round trips per message of a 50-message batch (waves, set-based claim, moves and outcomes; begin/commit counted). */
  const MAX_PER_MESSAGE = 3.5;
  it(`50 accepted emails through sendReminderBatch: ≤ ${MAX_PER_MESSAGE} statements per message, no queue statement`, async () => {
    const clock = new FakeClock(new Date('2027-06-01T00:00:00Z'));
    const { tenant } = await tenantWithRules(tdb.db, [{ offset: '-PT1H' }]);
    for (let i = 0; i < 50; i++) {
      await eventWithBooking(tdb.db, tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam', title: `Talk ${i}` }, new Date('2027-06-01T00:00:00Z'), { email: `batch${i}@example.test` });
    }
    clock.set('2027-06-15T07:00:00Z');
    expect((await dispatchDue(tdb.db, clock.now())).dispatched).toBe(50);
    const ids = (await tdb.db.select({ id: reminders.id }).from(reminders)).map((r) => r.id);
    const deps: SendDeps = { db: counted.db, channel: createSmtpChannel({ url: catcher.url, maxConnections: 10 }), clock, sendWindow: createSendWindow(10) };
    counted.log.length = 0;
    const res = await sendReminderBatch(deps, ids);
    const cost = tally(counted.log);
    console.log(`[send-cost] sendReminderBatch of 50: ${JSON.stringify(cost)}`);
    expect([...res.values()].every((r) => r.kind === 'delivered' && r.result.status === 'accepted')).toBe(true);
    expect((await tdb.db.select().from(deliveries)).every((d) => d.status === 'accepted')).toBe(true);
    expect(await tdb.db.select().from(schema.caughtMessages)).toHaveLength(50);
    expect(cost.statements / 50).toBeLessThanOrEqual(MAX_PER_MESSAGE);
    expect(cost.queue).toBe(0);
  });
});

describe('the dispatcher at scale', () => {
  it('a 100-row claim adds its 100 send jobs with one add_jobs call, run_at in due order', async () => {
    const { tenant } = await tenantWithRules(tdb.db, [{ offset: '-PT1H' }]);
    const { event, booking } = await eventWithBooking(tdb.db, tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'UTC' }, new Date('2027-06-01T00:00:00Z'));
    const [rule] = await tdb.db.select().from(schema.reminderRules);
    // 99 more reminders due now (the database's now: the job run_at is capped by it), due instants a second apart.
    await tdb.db.execute(sql`insert into reminders (tenant_id, event_id, booking_id, rule_id, schedule_version, channel, due_at, expires_at, status)
      select ${tenant.id}, ${event.id}, ${booking.id}, ${rule.id}, g + 10, 'email', now() - (g || ' seconds')::interval, now() + interval '1 hour', 'scheduled'
      from generate_series(1, 99) g`);
    await tdb.db.execute(sql`update reminders set due_at = now() - interval '200 seconds', expires_at = now() + interval '1 hour' where schedule_version = 1`);
    const [{ dbNow }] = await tdb.db.execute<{ dbNow: string }>(sql`select now()::text as "dbNow"`);
    counted.log.length = 0;
    const r = await dispatchDue(counted.db, new Date(dbNow), { batchSize: 100, maxBatches: 1, staleDispatchMs: 90_000, claimLeaseMs: 60_000 });
    expect(r.dispatched).toBe(100);
    const claims = counted.log.filter((q) => /graphile_worker\.add_job/.test(q));
    expect(claims.filter((q) => /graphile_worker\.add_jobs\(/.test(q))).toHaveLength(claims.length); // never add_job per row
    expect(claims.length).toBeLessThanOrEqual(4); // the claim, and the recovery statements (one call each)
    const jobs = await tdb.sql<{ key: string; run_at: Date; payload: { reminderId: string } }[]>`
      select j.key, j.run_at, j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'send_reminder' order by j.run_at, j.id`;
    expect(jobs).toHaveLength(100);
    const due = await tdb.db.select({ id: reminders.id, dueAt: reminders.dueAt }).from(reminders).orderBy(reminders.dueAt, reminders.id);
    expect(jobs.map((j) => j.payload.reminderId)).toEqual(due.map((d) => d.id));
    expect(jobs.every((j) => j.key === `send:${j.payload.reminderId}`)).toBe(true);
  });

  it('a burst is claimed batch after batch from where the last one ended (keyset): every due reminder once, in due order', async () => {
    const { tenant } = await tenantWithRules(tdb.db, [{ offset: '-PT1H' }]);
    const { event, booking } = await eventWithBooking(tdb.db, tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'UTC' }, new Date('2027-06-01T00:00:00Z'));
    const [rule] = await tdb.db.select().from(schema.reminderRules);
    // 450 due: many share a due instant (ties broken by id), as the reminders of one event do.
    await tdb.db.execute(sql`insert into reminders (tenant_id, event_id, booking_id, rule_id, schedule_version, channel, due_at, expires_at, status)
      select ${tenant.id}, ${event.id}, ${booking.id}, ${rule.id}, g + 10, 'email', now() - ((g % 7) || ' seconds')::interval, now() + interval '1 hour', 'scheduled'
      from generate_series(1, 449) g`);
    await tdb.db.execute(sql`update reminders set due_at = now() - interval '200 seconds', expires_at = now() + interval '1 hour' where schedule_version = 1`);
    const [{ dbNow }] = await tdb.db.execute<{ dbNow: string }>(sql`select now()::text as "dbNow"`);
    counted.log.length = 0;
    const r = await dispatchDue(counted.db, new Date(dbNow), { batchSize: 100, maxBatches: 10, staleDispatchMs: 90_000, claimLeaseMs: 60_000 });
    expect(r.dispatched).toBe(450);
    const claims = counted.log.filter((q) => /with due as/.test(q));
    expect(claims).toHaveLength(5);
    // Batches 2–5 start after the previous batch's last (due_at, id), not at the head of the index.
    expect(claims.slice(1).every((q) => /\(due_at, id\) > \(/.test(q))).toBe(true);
    expect(claims[0]).not.toMatch(/\(due_at, id\) > \(/);
    const jobs = await tdb.sql<{ payload: { reminderId: string } }[]>`
      select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'send_reminder' order by j.id`;
    const due = await tdb.db.select({ id: reminders.id }).from(reminders).orderBy(reminders.dueAt, reminders.id);
    expect(jobs.map((j) => j.payload.reminderId)).toEqual(due.map((d) => d.id));
  });

  it('the recovery scans read partial indexes, not every reminder and delivery', async () => {
    const { tenant } = await tenantWithRules(tdb.db, [{ offset: '-PT1H' }]);
    const { event, booking } = await eventWithBooking(tdb.db, tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'UTC' }, new Date('2027-06-01T00:00:00Z'));
    const [rule] = await tdb.db.select().from(schema.reminderRules);
    // 20 000 finished reminders and deliveries of history that recovery must not read.
    await tdb.db.execute(sql`insert into reminders (tenant_id, event_id, booking_id, rule_id, schedule_version, channel, due_at, expires_at, status, dispatched_at)
      select ${tenant.id}, ${event.id}, ${booking.id}, ${rule.id}, g + 10, 'email', now() - interval '1 day', now(), 'done', now() - interval '1 day'
      from generate_series(1, 20000) g`);
    await tdb.db.execute(sql`insert into deliveries (tenant_id, message_key, channel, address, template, status, next_attempt_at, lease_expires_at)
      select ${tenant.id}, 'k' || g, 'email', 'a@x.test', 'attendee-reminder', 'accepted', now() - interval '1 day', now() - interval '1 day'
      from generate_series(1, 20000) g`);
    await tdb.db.execute(sql`analyze reminders`);
    await tdb.db.execute(sql`analyze deliveries`);
    const plans = {
      stale: `select r.id from reminders r where r.status = 'dispatched' and r.dispatched_at < now() - interval '90 seconds' order by r.due_at limit 500 for update skip locked`,
      lease: `select id from deliveries where (status = 'claimed' and lease_expires_at <= now()) or (status = 'retrying' and next_attempt_at <= now() - interval '60 seconds') limit 500 for update skip locked`,
      sending: `select id from deliveries where status = 'sending' and provider in ('smtp', 'sms_api') and lease_expires_at <= now() limit 500 for update skip locked`,
    };
    for (const [name, q] of Object.entries(plans)) {
      const text = JSON.stringify(await tdb.sql.unsafe(`explain (format json) ${q}`));
      expect(text, name).not.toContain('"Seq Scan"');
    }
    expect(JSON.stringify(await tdb.sql.unsafe(`explain (format json) ${plans.stale}`))).toContain('reminders_dispatched_due_idx');
    expect(JSON.stringify(await tdb.sql.unsafe(`explain (format json) ${plans.lease}`))).toContain('deliveries_retrying_idx');
  });

  it('a claim reads the first due rows in (due_at, id) order from the index: no sort of every due reminder', async () => {
    const { tenant } = await tenantWithRules(tdb.db, [{ offset: '-PT1H' }]);
    const { event, booking } = await eventWithBooking(tdb.db, tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'UTC' }, new Date('2027-06-01T00:00:00Z'));
    const [rule] = await tdb.db.select().from(schema.reminderRules);
    // 20 000 reminders due at once (a burst): before 0009 every 200-row claim sorted all of them.
    await tdb.db.execute(sql`insert into reminders (tenant_id, event_id, booking_id, rule_id, schedule_version, channel, due_at, expires_at)
      select ${tenant.id}, ${event.id}, ${booking.id}, ${rule.id}, g + 10, 'email', now() - (g % 50) * interval '1 second', now() + interval '1 hour'
      from generate_series(1, 20000) g`);
    await tdb.db.execute(sql`analyze reminders`);
    const due = `select id, due_at from reminders where status = 'scheduled' and due_at <= now() and expires_at > now() order by due_at, id limit 200 for update skip locked`;
    const text = JSON.stringify(await tdb.sql.unsafe(`explain (format json) ${due}`));
    expect(text).toContain('reminders_due_idx');
    expect(text).not.toMatch(/"Node Type":"[A-Za-z ]*Sort"/);
  });
});
