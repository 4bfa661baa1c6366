/**
 * Invariant 1 (a domain change and the work it implies commit together or not at all) and the due query's
 * partial index.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, contacts, reminderRules, reminders } from '@/db/schema';
import { AppError } from '@/server/platform/errors';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent, rescheduleEvent } from '@/server/scheduling/events';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { tenantWithRules } from '@/test/support/fixtures';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => tdb?.close());
beforeEach(async () => tdb.reset());

const jobs = async () => tdb.sql<{ key: string | null }[]>`select key from graphile_worker._private_jobs`;

describe('outbox: booking, reminders and wake-up commit in one transaction', () => {
  it('a booking writes its reminders and a keyed wake-up job at the due instant', async () => {
    const { tenant, rules } = await tenantWithRules(tdb.db, [{ offset: '-PT1H' }]);
    const event = await createEvent(tdb.db, tenant.id, { title: 'X', startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T09:00:00Z', timeZone: 'Europe/Amsterdam' });
    await addBooking(tdb.db, tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'a@x.test' } }, new Date('2027-06-01T00:00:00Z'));
    const [job] = await tdb.sql<{ run_at: string; key: string }[]>`select run_at::text, key from graphile_worker._private_jobs`;
    expect(job.key).toBe(`wake:${event.id}:${rules[0].id}`);
    expect(new Date(job.run_at).toISOString()).toBe('2027-06-15T07:00:00.000Z');
  });

  it('when planning fails, neither the booking, its contact, its reminders nor any job is stored', async () => {
    const { tenant } = await tenantWithRules(tdb.db, [{ offset: '-PT1H' }]);
    const event = await createEvent(tdb.db, tenant.id, { title: 'X', startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T09:00:00Z', timeZone: 'Europe/Amsterdam' });
    // A second rule whose offset went bad in storage makes planning throw after the booking row was written.
    await tdb.db.execute(sql`insert into reminder_rules (tenant_id, name, anchor, "offset", audience, template)
      values (${tenant.id}, 'broken', 'start', 'yesterday-ish', '{attendee}', 'attendee-reminder')`);
    const err = await addBooking(tdb.db, tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'a@x.test' } }, new Date('2027-06-01T00:00:00Z')).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).field).toBe('offset');
    expect(await tdb.db.select().from(bookings)).toHaveLength(0);
    expect(await tdb.db.select().from(contacts)).toHaveLength(0);
    expect(await tdb.db.select().from(reminders)).toHaveLength(0);
    expect(await jobs()).toHaveLength(0);
  });

  it('a reschedule replaces the wake-up instead of adding a second one', async () => {
    const { tenant } = await tenantWithRules(tdb.db, [{ offset: '-PT1H' }]);
    const event = await createEvent(tdb.db, tenant.id, { title: 'X', startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T09:00:00Z', timeZone: 'Europe/Amsterdam' });
    await addBooking(tdb.db, tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'a@x.test' } }, new Date('2027-06-01T00:00:00Z'));
    await rescheduleEvent(tdb.db, tenant.id, event.id, { startsAt: '2027-06-16T08:00:00Z', endsAt: '2027-06-16T09:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-02T00:00:00Z'));
    const rows = await tdb.sql<{ run_at: string }[]>`select run_at::text from graphile_worker.jobs where task_identifier = 'dispatch_due'`;
    expect(rows.map((r) => new Date(r.run_at).toISOString())).toEqual(['2027-06-16T07:00:00.000Z']);
    // The domain events of both changes are in the outbox beside it, each with its notify job (issue #9).
    const notify = await tdb.sql<{ n: number }[]>`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'notify'`;
    expect(notify[0].n).toBe(2);
  });

  it('bad input names the field and stores nothing', async () => {
    const { tenant } = await tenantWithRules(tdb.db, [{ offset: '-PT1H' }]);
    const bad = await createEvent(tdb.db, tenant.id, { title: 'X', startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T09:00:00Z', timeZone: 'Mars/Base' }).catch((e) => e);
    expect(bad).toMatchObject({ code: 'validation', field: 'timeZone' });
    const backwards = await createEvent(tdb.db, tenant.id, { title: 'X', startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T07:00:00Z', timeZone: 'UTC' }).catch((e) => e);
    expect(backwards).toMatchObject({ code: 'validation', field: 'endsAt' });
    const event = await createEvent(tdb.db, tenant.id, { title: 'X', startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T09:00:00Z', timeZone: 'UTC' });
    const badMail = await addBooking(tdb.db, tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'not-an-address' } }, new Date()).catch((e) => e);
    expect(badMail).toMatchObject({ code: 'validation', field: 'contact.email' });
    const noGuestTenant = await addBooking(tdb.db, tenant.id, { eventId: event.id, role: 'external', contact: { email: 'g@x.test' } }, new Date()).catch((e) => e);
    expect(noGuestTenant).toMatchObject({ code: 'validation', field: 'guestTenantId' });
    expect(await tdb.db.select().from(bookings)).toHaveLength(0);
  });
});

describe('the due query reads only due rows', () => {
  it('is served by the partial index on scheduled reminders', async () => {
    const { tenant } = await tenantWithRules(tdb.db, [{ offset: '-PT1H' }]);
    const event = await createEvent(tdb.db, tenant.id, { title: 'X', startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T09:00:00Z', timeZone: 'UTC' });
    await addBooking(tdb.db, tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'a@x.test' } }, new Date('2027-06-01T00:00:00Z'));
    const [rule] = await tdb.db.select().from(reminderRules);
    // 20 000 finished reminders of history that the due query must not read.
    await tdb.db.execute(sql`insert into reminders (tenant_id, event_id, booking_id, rule_id, schedule_version, channel, due_at, expires_at, status)
      select ${tenant.id}, ${event.id}, (select id from bookings limit 1), ${rule.id}, g + 10, 'email', now() - interval '1 day', now(), 'done'
      from generate_series(1, 20000) g`);
    await tdb.db.execute(sql`analyze reminders`);
    const plan = await tdb.sql.unsafe(`explain (format json) select id from reminders
      where status = 'scheduled' and due_at <= now() and expires_at > now() order by due_at, id limit 200 for update skip locked`);
    const text = JSON.stringify(plan);
    expect(text).toContain('reminders_due_idx');
    expect(text).not.toContain('"Seq Scan"');
  });
});
