/** The demo seed that `npm start` runs: what a new user sees in the first minutes, and idempotence. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, events, reminders } from '../db/schema';
import { seedDemo } from '../server/seed';
import { createTestDatabase, type TestDatabase } from './support/db';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => tdb?.close());

describe('seedDemo', () => {
  it('seeds events minutes from now, all three roles, one reminder due at once, expired ones with reasons; then is idempotent', async () => {
    const now = new Date('2027-02-10T09:34:59.182Z');
    const r1 = await seedDemo(tdb.db, now);
    expect(r1).toEqual({ tenantSlug: 'demo', createdTenant: true, createdEvents: 3 });
    const evs = await tdb.db.select().from(events);
    expect(evs).toHaveLength(3);
    // Whole minutes: the seed rounds `now` up.
    expect(evs.every((e) => e.startsAt.getUTCSeconds() === 0 && e.startsAt.getUTCMilliseconds() === 0)).toBe(true);
    expect(evs.filter((e) => e.allDay)).toHaveLength(1);
    const roles = new Set((await tdb.db.select().from(bookings)).map((b) => b.role));
    expect(roles).toEqual(new Set(['attendee', 'external', 'host']));
    const rs = await tdb.db.select().from(reminders);
    const dueNow = rs.filter((r) => r.status === 'scheduled' && r.dueAt <= now);
    expect(dueNow.length).toBeGreaterThanOrEqual(1); // the host heads-up: sent as soon as the worker runs
    const soon = rs.filter((r) => r.status === 'scheduled' && r.dueAt > now && r.dueAt.getTime() - now.getTime() < 20 * 60_000);
    expect(soon.length).toBeGreaterThanOrEqual(5); // more during the first minutes
    const expired = rs.filter((r) => r.status === 'expired');
    expect(expired.length).toBeGreaterThan(0);
    expect(expired.every((r) => (r.statusReason ?? '').startsWith('planned after its expiry instant'))).toBe(true);

    const r2 = await seedDemo(tdb.db, new Date(now.getTime() + 60_000));
    expect(r2.createdEvents).toBe(0);
    expect(await tdb.db.select().from(events)).toHaveLength(3);

    // A day later nothing starts soon: a fresh batch, same tenants.
    const r3 = await seedDemo(tdb.db, new Date(now.getTime() + 86_400_000));
    expect(r3).toEqual({ tenantSlug: 'demo', createdTenant: false, createdEvents: 3 });
    const [{ n }] = await tdb.db.execute<{ n: number }>(sql`select count(*)::int as n from tenants`);
    expect(n).toBe(2);
  });
});
