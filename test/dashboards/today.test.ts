/**
 * The front desk's today view (issue #13), against real PostgreSQL: server/dashboards/today.ts loadToday and
 * loadTodayParticipants over db/queries/dashboards/today.ts, on an injected clock (server/platform/clock.ts `Clock`, fixed at an
 * instant in 2027).
 *
 * The day is Sunday 31 October 2027 in Europe/Amsterdam: clocks go back at 03:00 CEST, so the day has 25 hours,
 * [2027-10-30 22:00Z, 2027-10-31 23:00Z). Now is 10:00 CET (09:00Z).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '@/server/platform/clock';
import { addBooking, addBookingsBulk, type BulkBookingInput } from '@/server/scheduling/bookings';
import { cancelEvent, createEvent } from '@/server/scheduling/events';
import { loadToday, loadTodayParticipants } from '@/server/dashboards/today';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { tenantWithRules } from '@/test/support/fixtures';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.close();
});

const clock: Clock = { now: () => new Date('2027-10-31T09:00:00Z') };
const BOOKED = new Date('2027-10-01T08:00:00Z');
const ZONE = 'Europe/Amsterdam';

/** An event of `tenantId` (1 h unless `end` says otherwise) with one attendee; reminders come from the tenant's rule. */
async function event(tenantId: string, title: string, start: string, end?: string, contact: { email?: string; name?: string; phone?: string; timeZone?: string } = {}) {
  const e = await createEvent(tdb.db, tenantId, {
    title,
    startsAt: start,
    endsAt: end ?? new Date(Date.parse(start) + 3_600_000).toISOString(),
    timeZone: ZONE,
    location: `${title} room`,
  });
  const b = await addBooking(
    tdb.db,
    tenantId,
    { eventId: e.id, role: 'attendee', contact: { email: contact.email ?? `${title.toLowerCase().replace(/\W+/g, '-')}@example.test`, name: contact.name ?? `${title} guest`, phone: contact.phone, timeZone: contact.timeZone } },
    BOOKED,
  );
  return { event: e, booking: b };
}

/** The reminder planned for `bookingId` (the tenant has one rule: one reminder per booking). */
async function reminderOf(bookingId: string): Promise<string> {
  const [r] = await tdb.sql<{ id: string }[]>`select id from reminders where booking_id = ${bookingId}`;
  return r!.id;
}

/** A delivery of reminder `reminderId` in `status` (as the send path would have left it). */
async function deliveryOf(tenantId: string, reminderId: string, status: string, address: string): Promise<string> {
  await tdb.sql`update reminders set status = 'done' where id = ${reminderId}`;
  const [d] = await tdb.sql<{ id: string }[]>`
    insert into deliveries (tenant_id, reminder_id, message_key, channel, address, template, status, status_reason)
    values (${tenantId}, ${reminderId}, ${`test:${reminderId}`}, 'email', ${address}, 'attendee-reminder', ${status}, ${status === 'accepted' ? null : `provider said no at 2027-10-31T08:10:00.000Z`})
    returning id`;
  return d!.id;
}

describe('today in the tenant zone on a fall-back day', () => {
  let mine: { id: string; timeZone: string };
  let ids: Record<string, string> = {};
  let bookings: Record<string, string> = {};

  beforeAll(async () => {
    // One rule: 1 hour before the start. So each event's reminder is due 1 h before it starts.
    const a = await tenantWithRules(tdb.db, [{ offset: '-PT1H', window: 1800, name: 'Hour before' }], ZONE);
    const b = await tenantWithRules(tdb.db, [{ offset: '-PT1H', window: 1800, name: 'Hour before' }], ZONE);
    mine = a.tenant;
    const add = async (key: string, title: string, start: string, end?: string, contact?: Parameters<typeof event>[4]) => {
      const r = await event(mine.id, title, start, end, contact);
      ids[key] = r.event.id;
      bookings[key] = r.booking.id;
      return r;
    };
    await add('yesterday', 'Yesterday late', '2027-10-30T21:59:00Z'); // 23:59 CEST on the 30th: not today
    await add('early', 'Early bird', '2027-10-30T22:30:00Z'); // 00:30 CEST: today
    await add('standup', 'Stand-up', '2027-10-31T08:30:00Z', '2027-10-31T10:00:00Z', { name: 'Ada Lovelace', email: 'ada@example.test', phone: '+31612345678', timeZone: 'Europe/London' });
    await add('coffee', 'Coffee', '2027-10-31T09:55:00Z', '2027-10-31T10:25:00Z'); // next up; its reminder (08:55Z) just went out
    await add('workshop', 'Workshop', '2027-10-31T10:30:00Z', '2027-10-31T12:00:00Z'); // reminder 09:30Z
    await add('lunch', 'Lunch talk', '2027-10-31T12:30:00Z'); // reminder 11:30Z
    await add('cancelled', 'Cancelled talk', '2027-10-31T13:00:00Z');
    await add('evening', 'Evening', '2027-10-31T18:00:00Z'); // reminder 17:00Z
    await add('late', 'Late show', '2027-10-31T22:30:00Z'); // 23:30 CET: still today
    await add('tomorrow', 'Tomorrow', '2027-10-31T23:00:00Z'); // 00:00 on 1 Nov: not today
    await cancelEvent(tdb.db, mine.id, ids.cancelled!, 'speaker ill', BOOKED);

    // The stand-up also has a host and a cancelled booking.
    await addBooking(tdb.db, mine.id, { eventId: ids.standup!, role: 'host', contact: { email: 'host@example.test', name: 'Hal Host' } }, BOOKED);
    const gone = await addBooking(tdb.db, mine.id, { eventId: ids.standup!, role: 'attendee', contact: { email: 'gone@example.test', name: 'Gone Person' } }, BOOKED);
    await tdb.sql`update bookings set status = 'cancelled', status_reason = 'changed plans' where id = ${gone.id}`;

    // Sent, dead, unknown, failed.
    await deliveryOf(mine.id, await reminderOf(bookings.coffee!), 'accepted', 'coffee@example.test');
    await deliveryOf(mine.id, await reminderOf(bookings.early!), 'dead', 'early-bird@example.test');
    await deliveryOf(mine.id, await reminderOf(bookings.standup!), 'unknown', 'ada@example.test');
    await tdb.sql`update reminders set status = 'failed', status_reason = 'template data: missing room' where id = ${await reminderOf(bookings.late!)}`;
    await deliveryOf(mine.id, await reminderOf(bookings.yesterday!), 'failed', 'yesterday-late@example.test'); // yesterday's event: not today's problem

    // Another tenant, same zone, same day: an event at noon with a reminder due in the window and a dead letter.
    const other = await event(b.tenant.id, 'Other org meeting', '2027-10-31T11:00:00Z');
    await event(b.tenant.id, 'Other org tonight', '2027-10-31T19:00:00Z');
    await deliveryOf(b.tenant.id, await reminderOf(other.booking.id), 'dead', 'other@example.test');
    ids.other = other.event.id;
  });

  it("lists today's events in start order: 00:30 and 23:30 local included on the 25-hour day, yesterday 23:59, tomorrow 00:00 and another tenant's excluded", async () => {
    const t = await loadToday(tdb.db, mine, clock.now(), 3);
    expect(t.day).toMatchObject({ start: '2027-10-30T22:00:00.000Z', end: '2027-10-31T23:00:00.000Z', date: '2027-10-31', hours: 25, heading: 'Sunday 31 October · Europe/Amsterdam' });
    expect(t.events.items.map((e) => e.title)).toEqual(['Early bird', 'Stand-up', 'Coffee', 'Workshop', 'Lunch talk', 'Cancelled talk', 'Evening', 'Late show']);
    expect(t.events.total).toBe(8);
    expect(t.events.items.map((e) => e.id)).not.toContain(ids.other);
    expect(t.events.items.find((e) => e.title === 'Cancelled talk')).toMatchObject({ status: 'cancelled', statusReason: 'speaker ill' });
    // Participants are people still booked; the cancelled booking is counted apart.
    expect(t.events.items.find((e) => e.title === 'Stand-up')).toMatchObject({ participants: 2, cancelledBookings: 1, location: 'Stand-up room' });
  });

  it('happening now, next up (not the cancelled one), and the next event after today', async () => {
    const t = await loadToday(tdb.db, mine, clock.now(), 3);
    expect(t.happening).toEqual({ now: [ids.standup], next: ids.coffee });
    expect(t.nextAfterToday).toMatchObject({ id: ids.tomorrow, title: 'Tomorrow' });
    // Later in the evening: nothing runs, the late show is next; after it, nothing is left today.
    expect((await loadToday(tdb.db, mine, new Date('2027-10-31T20:00:00Z'), 3)).happening).toEqual({ now: [], next: ids.late });
    expect((await loadToday(tdb.db, mine, new Date('2027-10-31T22:45:00Z'), 3)).happening).toEqual({ now: [ids.late], next: null });
  });

  it('reminders due from 15 minutes ago to 1/3/6/12 hours ahead: counts, soonest first, waiting vs sent, only the tenant\'s', async () => {
    const counts: Record<number, number> = {};
    for (const h of [1, 3, 6, 12] as const) counts[h] = (await loadToday(tdb.db, mine, clock.now(), h)).reminders.total;
    // 1 h [08:45Z, 10:00Z): Coffee 08:55 (sent), Workshop 09:30. 3 h adds Lunch talk 11:30; 12 h adds Evening 17:00.
    // Never: the cancelled talk's (cancelled), the other tenant's 10:00 one, the late show's (failed, 21:30).
    expect(counts).toEqual({ 1: 2, 3: 3, 6: 3, 12: 4 });
    const t = await loadToday(tdb.db, mine, clock.now(), 3);
    expect(t.reminders).toMatchObject({ hours: 3, from: '2027-10-31T08:45:00.000Z', to: '2027-10-31T12:00:00.000Z' });
    expect(t.reminders.items.map((r) => [r.eventTitle, r.deskStatus, r.title, r.recipient])).toEqual([
      ['Coffee', 'sent', 'Hour before', 'coffee@example.test'],
      ['Workshop', 'waiting', 'Hour before', 'workshop@example.test'],
      ['Lunch talk', 'waiting', 'Hour before', 'lunch-talk@example.test'],
    ]);
    expect(t.reminders.items[0]!.deliveryId).not.toBeNull();
  });

  it("needs attention: dead, unknown and failed for today's events only (not yesterday's, not another tenant's)", async () => {
    const t = await loadToday(tdb.db, mine, clock.now(), 3);
    expect(t.attention.counts).toEqual({ dead: 1, unknown: 1, failed: 1 });
    expect(t.attention.total).toBe(3);
    const items = t.attention.items.map((a) => [a.kind, a.status, a.eventTitle, a.address]).sort();
    expect(items).toEqual([
      ['delivery', 'dead', 'Early bird', 'early-bird@example.test'],
      ['delivery', 'unknown', 'Stand-up', 'ada@example.test'],
      ['reminder', 'failed', 'Late show', 'late-show@example.test'],
    ]);
  });

  it('participants: hosts first, live before cancelled, phone, email, own zone, booking status; another tenant cannot read them', async () => {
    const p = await loadTodayParticipants(tdb.db, mine, ids.standup!, clock.now());
    expect(p).toMatchObject({ total: 3, live: 2, limit: 50 });
    expect(p!.items.map((x) => [x.role, x.contact?.name, x.status])).toEqual([
      ['host', 'Hal Host', 'confirmed'],
      ['attendee', 'Ada Lovelace', 'confirmed'],
      ['attendee', 'Gone Person', 'cancelled'],
    ]);
    expect(p!.items[1]).toMatchObject({ contact: { email: 'ada@example.test', phone: '+31612345678' }, ownZone: 'Europe/London', nudges: [] });
    const otherTenant = { id: (await tdb.sql<{ tenant_id: string }[]>`select tenant_id from events where id = ${ids.other!}`)[0]!.tenant_id, timeZone: ZONE };
    expect(await loadTodayParticipants(tdb.db, otherTenant, ids.standup!, clock.now())).toBeNull();
    expect(await loadTodayParticipants(tdb.db, mine, 'not-a-uuid', clock.now())).toBeNull();
  });

  it("another tenant's view holds none of this tenant's events, messages or problems", async () => {
    const otherId = (await tdb.sql<{ tenant_id: string }[]>`select tenant_id from events where id = ${ids.other!}`)[0]!.tenant_id;
    const t = await loadToday(tdb.db, { id: otherId, timeZone: ZONE }, clock.now(), 12);
    expect(t.events.items.map((e) => e.title)).toEqual(['Other org meeting', 'Other org tonight']);
    expect(t.reminders.items.map((r) => r.eventTitle)).toEqual(['Other org meeting', 'Other org tonight']);
    expect(t.attention.items.map((a) => a.eventTitle)).toEqual(['Other org meeting']);
    expect(t.nextAfterToday).toBeNull();
  });
});

describe('bounded', () => {
  it('an event with 2,000 participants: the first 50 are read, the count says 2,000', async () => {
    const { tenant } = await tenantWithRules(tdb.db, [], ZONE);
    const e = await createEvent(tdb.db, tenant.id, { title: 'Conference', startsAt: '2027-10-31T08:00:00Z', endsAt: '2027-10-31T16:00:00Z', timeZone: ZONE });
    const many: BulkBookingInput[] = Array.from({ length: 2000 }, (_, i) => ({ role: 'attendee', contact: { email: `c${String(i).padStart(4, '0')}@big.test`, name: `C ${String(i).padStart(4, '0')}` } }));
    await addBookingsBulk(tdb.db, tenant.id, e.id, many, BOOKED, { notify: false });
    const t = await loadToday(tdb.db, tenant, clock.now(), 3);
    expect(t.events.items).toHaveLength(1);
    expect(t.events.items[0]).toMatchObject({ participants: 2000 });
    const p = await loadTodayParticipants(tdb.db, tenant, e.id, clock.now());
    expect(p!.items).toHaveLength(50);
    expect(p).toMatchObject({ total: 2000, live: 2000 });
    expect(p!.items[0]!.contact?.name).toBe('C 0000');
    // The whole answer stays small (a few kB per 50 people), not 2,000 rows.
    expect(JSON.stringify(p).length).toBeLessThan(20_000);
    // Counting an event's bookings, cancelled ones included, can read an index (migration 0021), not the whole table.
    const plan = await tdb.sql.begin(async (tx) => {
      await tx`set local enable_seqscan = off`;
      return tx<{ 'QUERY PLAN': string }[]>`explain select count(*) filter (where status = 'cancelled') from bookings where tenant_id = ${tenant.id} and event_id = ${e.id}`;
    });
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain('bookings_event_status_idx');
  });
});
