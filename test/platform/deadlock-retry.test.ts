/**
 * Two staff actions that lock the same rows in different orders (a nudge holds the booking and reads the
 * event; a reschedule holds the event and plans reminders that reference the booking) can deadlock in
 * PostgreSQL. The route layer (app/_http/session.ts staffRoute) runs a deadlocked action again
 * (server/platform/errors.ts retryOnTransactionConflict), so each answers 200 or 4xx, never 500. Real PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { isRetryableTransactionError, retryOnTransactionConflict } from '@/server/platform/errors';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { tenantWithRules } from '@/test/support/fixtures';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';

let tdb: TestDatabase;
let tenantId: string;
const db = (): Db => tdb.db;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D' }, { offset: '-PT1H' }, { offset: '-PT2H' }]);
  tenantId = tenant.id;
});

afterAll(async () => tdb?.close());

describe('deadlocked staff actions are run again, not answered 500 (staffRoute runs every handler through retryOnTransactionConflict)', () => {
  it('recognises PostgreSQL deadlocks and serialization failures, also wrapped by drizzle', () => {
    expect(isRetryableTransactionError({ code: '40P01' })).toBe(true);
    expect(isRetryableTransactionError(new Error('Failed query', { cause: { code: '40001' } }))).toBe(true);
    expect(isRetryableTransactionError({ code: '23505' })).toBe(false);
    expect(isRetryableTransactionError(new Error('x'))).toBe(false);
  });

  it('a real PostgreSQL deadlock: the victim is run again and both transactions complete', async () => {
    const e = await createEvent(db(), tenantId, { title: 'Lock order', startsAt: new Date('2030-01-01T10:00:00Z'), endsAt: new Date('2030-01-01T11:00:00Z'), timeZone: 'UTC' });
    const b = await addBooking(db(), tenantId, { eventId: e.id, role: 'attendee', contact: { email: 'lock@deadlock.test', name: 'Lock' } }, new Date('2029-12-01T00:00:00Z'));
    let tries = 0;
    /**
     * Both transactions hold their first lock before either asks for its second: a condition, not a pause (a fixed
     * pg_sleep let one transaction finish before the other had its connection on a busy machine — no deadlock).
     * Every arrival after the second passes at once, so a transaction run again after the deadlock does not wait.
     */
    let barrier = newBarrier();
    function newBarrier() {
      let arrived = 0;
      let open!: () => void;
      const opened = new Promise<void>((r) => (open = r));
      return async () => {
        if (++arrived >= 2) open();
        await opened;
      };
    }
    // Like a nudge (booking, then event) against a reschedule (event, then booking).
    const bookingFirst = () =>
      db().transaction(async (tx) => {
        tries++;
        await tx.execute(sql`select id from bookings where id = ${b.id} for update`);
        await barrier();
        await tx.execute(sql`select id from events where id = ${e.id} for update`);
        return 'booking-first';
      });
    const eventFirst = () =>
      db().transaction(async (tx) => {
        await tx.execute(sql`select id from events where id = ${e.id} for update`);
        await barrier();
        await tx.execute(sql`select id from bookings where id = ${b.id} for update`);
        return 'event-first';
      });
    // Without the retry one of the two fails with 40P01 (checked: the bare pair rejects).
    const bare = await Promise.allSettled([bookingFirst(), eventFirst()]);
    expect(bare.some((r) => r.status === 'rejected' && isRetryableTransactionError(r.reason))).toBe(true);
    tries = 0;
    barrier = newBarrier();
    const both = await Promise.all([retryOnTransactionConflict(bookingFirst), retryOnTransactionConflict(eventFirst)]);
    expect(both).toEqual(['booking-first', 'event-first']);
    expect(tries).toBeGreaterThanOrEqual(1);
  });
});
