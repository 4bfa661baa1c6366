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
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as schema from '../db/schema';
import { deliveries, deliveryAttempts, reminders } from '../db/schema';
import type { Db } from '../db/client';
import { createSmtpChannel } from '../channels/smtp';
import { dispatchDue } from '../server/dispatch';
import { deliver, sendReminder, type SendDeps } from '../server/send-reminder';
import { startMailCatcher, type MailCatcher } from '../server/mail-catcher';
import { FakeClock } from './support/clock';
import { createTestDatabase, type TestDatabase } from './support/db';
import { eventWithBooking, tenantWithRules } from './support/fixtures';

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
