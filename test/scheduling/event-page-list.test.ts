/**
 * The event page's participant list over real PostgreSQL, with 210 people booked through the bulk path
 * (`addBookingsBulk`): one page of 18, search by name and address, filters by role, booking state and "has a
 * problem" (a dead letter, an unknown outcome), newest-booking sort, and counts and coverage over every booking
 * whatever page is shown. The timeline JSON without list parameters still holds every booking.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBooking, addBookingsBulk, cancelBooking, type BulkBookingInput } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { getEventPage } from '@/db/queries/scheduling/event-views';
import { applyParticipantFilter, noParticipantFilter, type ParticipantFilter } from '@/domain/scheduling/participant-filter';
import type { BookingView } from '@/db/queries/scheduling/event-page';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { tenantWithRules } from '@/test/support/fixtures';

let tdb: TestDatabase;
let tenantId: string;
let eventId: string;
const NOW = new Date('2027-06-01T00:00:00Z');
const N = 210;

/** Adds a delivery in `status` for the first reminder of the person with `email` (what the sender would record). */
async function deliveryFor(email: string, status: 'dead' | 'unknown' | 'accepted') {
  await tdb.db.execute(sql`insert into deliveries (tenant_id, reminder_id, message_key, channel, address, template, status)
    select r.tenant_id, r.id, 'test:' || r.id, r.channel, ${email}, coalesce(r.template, 'attendee-reminder'), ${status}::delivery_status
    from reminders r join bookings b on b.id = r.booking_id join contacts c on c.id = b.contact_id
    where c.email = ${email} and r.event_id = ${eventId} order by r.due_at limit 1`);
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  await tdb.reset();
  const { tenant } = await tenantWithRules(tdb.db, [
    { name: 'day before', offset: '-P1D', window: 24 * 3600 },
    { name: 'two hours', offset: '-PT2H', window: 3600, audience: ['attendee', 'host'] },
  ]);
  tenantId = tenant.id;
  const event = await createEvent(tdb.db, tenantId, { title: 'Big class', startsAt: '2027-06-15T14:00:00Z', endsAt: '2027-06-15T16:00:00Z', timeZone: 'Europe/Amsterdam' });
  eventId = event.id;
  const people: BulkBookingInput[] = Array.from({ length: N }, (_, i) => ({
    role: i % 42 === 0 ? 'host' : 'attendee',
    contact: { email: `p${String(i).padStart(3, '0')}@x.test`, name: `Person ${String(i).padStart(3, '0')}`, ...(i === 7 ? { phone: '+31 6 5555 0007' } : {}) },
  }));
  const r = await addBookingsBulk(tdb.db, tenantId, eventId, people, NOW, { notify: false });
  expect(r.bookings).toBe(N);
  await deliveryFor('p010@x.test', 'dead');
  await deliveryFor('p011@x.test', 'unknown');
  await deliveryFor('p012@x.test', 'accepted');
  await tdb.db.execute(sql`update bookings set status = 'cancelled', status_reason = 'test' where id = (select b.id from bookings b join contacts c on c.id = b.contact_id where c.email = 'p013@x.test')`);
  // Bookings made one second apart in the order of the list, so "newest first" is well defined.
  await tdb.db.execute(sql`update bookings b set created_at = ${NOW.toISOString()}::timestamptz + (substring(c.email from 2 for 3)::int * interval '1 second')
    from contacts c where c.id = b.contact_id and b.event_id = ${eventId}`);
}, 60_000);
afterAll(async () => tdb?.close());

const page = async (f: Partial<ParticipantFilter>) => (await getEventPage(tdb.db, tenantId, eventId, { ...noParticipantFilter, ...f }))!;
const emails = (p: { bookings: { contact: { email: string } | null }[] }) => p.bookings.map((b) => b.contact!.email);

describe('event page participant list', () => {
  it('pages 18 at a time, counting every booking', async () => {
    const p1 = await page({});
    expect(p1.bookings).toHaveLength(18);
    expect(p1.participants).toMatchObject({ people: N, confirmed: N - 1, matching: N, page: 1, pageSize: 18, filtered: false, byRole: { attendee: 205, host: 5, external: 0 } });
    // Attendees first, by name; hosts (p000, p042 …) after them.
    expect(emails(p1)[0]).toBe('p001@x.test');
    const last = await page({ page: 12 });
    expect(last.bookings).toHaveLength(N - 11 * 18);
    expect(emails(last).slice(-5)).toEqual(['p000@x.test', 'p042@x.test', 'p084@x.test', 'p126@x.test', 'p168@x.test']);
    expect((await page({ page: 13 })).bookings).toEqual([]);
    // Coverage and sent over everyone, not the page: "day before" for the 204 live attendees (its default audience),
    // "two hours" for them and the 5 hosts; the cancelled booking expects nothing.
    expect(p1.coverage.expected).toBe(204 + 209);
    expect(p1.participants.sent).toBe(1);
    expect(last.coverage).toEqual(p1.coverage);
  });

  it('reads deliveries only for the people shown, and summarises each', async () => {
    const p = await page({ q: 'p012@' });
    expect(emails(p)).toEqual(['p012@x.test']);
    const b = p.bookings[0]!;
    expect(b.reminders.map((r) => r.delivery?.status ?? null)).toEqual(['accepted', null]);
    expect(b.summary.text).toBe('1 sent · next: two hours, Tue 15 Jun 14:00');
  });

  it('searches name, email and phone', async () => {
    expect(emails(await page({ q: 'person 123' }))).toEqual(['p123@x.test']);
    expect(emails(await page({ q: 'P199@X' }))).toEqual(['p199@x.test']);
    expect(emails(await page({ q: '+3165555' }))).toEqual(['p007@x.test']);
    const none = await page({ q: 'nobody' });
    expect(none.bookings).toEqual([]);
    expect(none.participants).toMatchObject({ matching: 0, people: N, filtered: true });
  });

  it('filters by role, booking state and problem', async () => {
    expect((await page({ role: 'host' })).participants.matching).toBe(5);
    expect(emails(await page({ state: 'cancelled' }))).toEqual(['p013@x.test']);
    const problems = await page({ problem: true });
    expect(emails(problems)).toEqual(['p010@x.test', 'p011@x.test']);
    expect(problems.bookings.map((b) => b.summary.text)).toEqual([
      'next: two hours, Tue 15 Jun 14:00 · 1 needs a person',
      'next: two hours, Tue 15 Jun 14:00 · 1 needs a person',
    ]);
    expect((await page({ problem: true, role: 'host' })).bookings).toEqual([]);
  });

  it('sorts by newest booking', async () => {
    expect(emails(await page({ sort: 'booked' })).slice(0, 3)).toEqual(['p209@x.test', 'p208@x.test', 'p207@x.test']);
  });

  it('without a filter returns every booking with its whole timeline (the JSON the specs read)', async () => {
    const all = (await getEventPage(tdb.db, tenantId, eventId))!;
    expect(all.bookings).toHaveLength(N);
    expect(all.participants).toMatchObject({ matching: N, pageSize: N, filtered: false });
    expect(all.bookings.find((b) => b.contact?.email === 'p010@x.test')!.reminders[0]!.delivery?.status).toBe('dead');
  });

  it('never shows another tenant the event', async () => {
    const { tenant: other } = await tenantWithRules(tdb.db, []);
    expect(await getEventPage(tdb.db, other.id, eventId, noParticipantFilter)).toBeNull();
  });
});

/** The order the page had when it sorted in memory: by role, then name, then email; live booking first, newest first; id. */
const roleOrder = { attendee: 0, external: 1, host: 2 } as const;
const inMemoryOrder = (a: BookingView, b: BookingView) =>
  roleOrder[a.role] - roleOrder[b.role] ||
  (a.contact?.name ?? '').localeCompare(b.contact?.name ?? '') ||
  (a.contact?.email ?? '').localeCompare(b.contact?.email ?? '') ||
  Number(a.status === 'cancelled') - Number(b.status === 'cancelled') ||
  b.bookedAt.localeCompare(a.bookedAt) ||
  a.id.localeCompare(b.id);

describe('the database filters, counts and sorts as the in-memory rule does', () => {
  let small: string;
  beforeAll(async () => {
    const ev = await createEvent(tdb.db, tenantId, { title: 'Mixed names', startsAt: '2027-06-16T14:00:00Z', endsAt: '2027-06-16T16:00:00Z', timeZone: 'Europe/Amsterdam' });
    small = ev.id;
    // Case, accents and a shared name: a C-collation sort would put "Zoe" before "ann" and "Émile" last.
    const names = ['ann', 'Zoe', 'Émile', 'bob', 'Anna', 'Åsa', 'Ann', 'Ann', 'zed', 'Ólafur', 'Eve'];
    const people: BulkBookingInput[] = names.map((name, i) => ({
      role: i === 4 ? 'host' : 'attendee',
      contact: { email: `mix${i}@x.test`, name, ...(i === 3 ? { phone: '+44 20 7946 0958' } : {}) },
    }));
    await addBookingsBulk(tdb.db, tenantId, small, people, NOW, { notify: false });
    // Eve cancels and is booked again (the cancelled booking is history: rebookedAs, not a person of its own).
    const eve = await tdb.db.execute<{ id: string }>(sql`select b.id from bookings b join contacts c on c.id = b.contact_id where c.email = 'mix10@x.test' and b.event_id = ${small}`);
    await cancelBooking(tdb.db, tenantId, eve[0]!.id, 'changed plans', NOW);
    await addBooking(tdb.db, tenantId, { eventId: small, role: 'attendee', contact: { email: 'mix10@x.test' } }, new Date(NOW.getTime() + 60_000));
    // Zoe cancels for good; bob's first message is a dead letter; a failed reminder for Åsa.
    const zoe = await tdb.db.execute<{ id: string }>(sql`select b.id from bookings b join contacts c on c.id = b.contact_id where c.email = 'mix1@x.test' and b.event_id = ${small}`);
    await cancelBooking(tdb.db, tenantId, zoe[0]!.id, 'ill', NOW);
    await tdb.db.execute(sql`insert into deliveries (tenant_id, reminder_id, message_key, channel, address, template, status)
      select r.tenant_id, r.id, 'mix:' || r.id, r.channel, 'mix3@x.test', coalesce(r.template, 'attendee-reminder'), 'dead'
      from reminders r join bookings b on b.id = r.booking_id join contacts c on c.id = b.contact_id
      where c.email = 'mix3@x.test' and r.event_id = ${small} order by r.due_at limit 1`);
    await tdb.db.execute(sql`update reminders set status = 'failed', status_reason = 'test' where id = (select r.id from reminders r
      join bookings b on b.id = r.booking_id join contacts c on c.id = b.contact_id where c.email = 'mix5@x.test' and r.event_id = ${small} order by r.due_at limit 1)`);
  });

  it.each<Partial<ParticipantFilter>>([
    {},
    { sort: 'booked' },
    { page: 2 },
    { q: 'ANN' },
    { q: 'émile' },
    { q: '7946 0958' },
    { q: '(20)' },
    { q: '()' },
    { q: 'mix1' },
    { role: 'host' },
    { state: 'cancelled' },
    { state: 'confirmed', sort: 'booked' },
    { problem: true },
    { problem: true, q: 'bob' },
  ])('%j', async (f) => {
    const all = (await getEventPage(tdb.db, tenantId, small))!;
    expect(all.bookings.map((b) => b.id)).toEqual([...all.bookings].sort(inMemoryOrder).map((b) => b.id));
    const filter = { ...noParticipantFilter, ...f };
    const expected = applyParticipantFilter(all.bookings, filter, 5);
    const got = (await getEventPage(tdb.db, tenantId, small, filter, 5))!;
    expect(got.bookings.map((b) => b.contact?.name)).toEqual(expected.items.map((b) => b.contact?.name));
    expect(got.bookings.map((b) => b.id)).toEqual(expected.items.map((b) => b.id));
    expect(got.participants.matching).toBe(expected.matching);
    // Summaries of the page are those of the full read; counts and coverage do not depend on the page.
    expect(got.bookings.map((b) => b.summary)).toEqual(expected.items.map((b) => b.summary));
    expect(got.bookings.map((b) => b.rebookedAs)).toEqual(expected.items.map((b) => b.rebookedAs));
    expect({ ...got.participants, matching: 0, page: 0, pageSize: 0, filtered: false }).toEqual({ ...all.participants, matching: 0, page: 0, pageSize: 0, filtered: false });
    expect(got.coverage).toEqual(all.coverage);
  });

  it('counts people once, history apart, as the in-memory rule did', async () => {
    const all = (await getEventPage(tdb.db, tenantId, small))!;
    const live = all.bookings.filter((b) => b.rebookedAs === null);
    expect(all.bookings).toHaveLength(12);
    expect(all.participants).toMatchObject({
      people: live.length,
      confirmed: live.filter((b) => b.status === 'confirmed').length,
      byRole: { attendee: 10, external: 0, host: 1 },
      sent: all.bookings.reduce((n, b) => n + b.summary.sent, 0),
    });
    expect(live).toHaveLength(11);
    const eve = all.bookings.filter((b) => b.contact?.name === 'Eve');
    expect(eve.map((b) => b.status)).toEqual(['confirmed', 'cancelled']);
    expect(eve[1]!.rebookedAs).toBe(eve[0]!.id);
    expect(all.bookings.filter((b) => b.summary.problem).map((b) => b.contact?.name)).toEqual(['Åsa', 'bob']);
  });
});

// Timings for the report (not asserted): EVENT_PAGE_BENCH=1 books 2,000 more people on a second event and prints the
// median of five reads of the first page, the last page by booking date, a search, the "has a problem" filter and
// every booking, at 210 and at 2,000 people (200 of the 2,000 with a message sent, 20 with a dead letter).
describe.runIf(process.env.EVENT_PAGE_BENCH === '1')('event page timings', () => {
  const median = async (f: () => Promise<unknown>) => {
    const t: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await f();
      t.push(performance.now() - t0);
    }
    return Math.round(t.sort((a, b) => a - b)[2]!);
  };
  it('prints the server time of the page query', async () => {
    const big = await createEvent(tdb.db, tenantId, { title: 'Huge class', startsAt: '2027-06-20T14:00:00Z', endsAt: '2027-06-20T16:00:00Z', timeZone: 'Europe/Amsterdam' });
    const many: BulkBookingInput[] = Array.from({ length: 2000 }, (_, i) => ({ role: 'attendee', contact: { email: `big${i}@x.test`, name: `Big ${i}` } }));
    await addBookingsBulk(tdb.db, tenantId, big.id, many, NOW, { notify: false });
    // Some history on the big event too: every tenth person's first reminder went out, every hundredth is a dead letter.
    await tdb.db.execute(sql`insert into deliveries (tenant_id, reminder_id, message_key, channel, address, template, status)
      select distinct on (r.booking_id) r.tenant_id, r.id, 'bench:' || r.id, r.channel, c.email, coalesce(r.template, 'attendee-reminder'),
        (case when split_part(substring(c.email from 4), '@', 1)::int % 100 = 0 then 'dead' else 'accepted' end)::delivery_status
      from reminders r join bookings b on b.id = r.booking_id join contacts c on c.id = b.contact_id
      where r.event_id = ${big.id} and split_part(substring(c.email from 4), '@', 1)::int % 10 = 0 order by r.booking_id, r.due_at`);
    for (const [n, id] of [[N, eventId], [2000, big.id]] as const) {
      const onePage = await median(() => getEventPage(tdb.db, tenantId, id, noParticipantFilter));
      const lastPage = await median(() => getEventPage(tdb.db, tenantId, id, { ...noParticipantFilter, sort: 'booked', page: Math.ceil(n / 18) }));
      const search = await median(() => getEventPage(tdb.db, tenantId, id, { ...noParticipantFilter, q: 'nobody' }));
      const problem = await median(() => getEventPage(tdb.db, tenantId, id, { ...noParticipantFilter, problem: true }));
      const all = await median(() => getEventPage(tdb.db, tenantId, id));
      console.log(`[timing] getEventPage N=${n}: one page ${onePage} ms · last page by booking ${lastPage} ms · a search ${search} ms · has a problem ${problem} ms · every booking ${all} ms`);
    }
  }, 300_000);
});
