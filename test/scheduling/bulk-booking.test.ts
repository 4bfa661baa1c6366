/**
 * The bulk planning path (issue #11 §2 "planning"): `addBookingsBulk` writes exactly what `addBooking` writes
 * for each person — contacts, bookings, reminders (due/expiry instants, channels, quiet-hours deferral, status,
 * schedule version), domain events and jobs — in a few statements; a bad row writes nothing and names its
 * index; a person already booked (or listed twice) is skipped, not an error.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '@/server/platform/errors';
import { addBooking, addBookingsBulk, type BulkBookingInput } from '@/server/scheduling/bookings';
import { createEvent, rescheduleEvent } from '@/server/scheduling/events';
import { allowGuestsFrom, createTenant } from '@/server/organisations/tenants';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { tenantWithRules } from '@/test/support/fixtures';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => tdb?.close());
beforeEach(async () => tdb.reset());

const NOW = new Date('2027-06-01T00:00:00Z');
const RULES = [
  { name: 'day before', offset: '-P1D', window: 24 * 3600 },
  { name: 'two hours', offset: '-PT2H', window: 3600, audience: ['attendee', 'external', 'host'] as ('attendee' | 'external' | 'host')[] },
  { name: 'room', anchor: 'room_open' as const, offset: 'PT0S', window: 600, template: 'room-opening' as const },
  // Due 2027-05-16, before NOW: planned `expired` with its reason.
  { name: 'month before', offset: '-P30D', window: 3600 },
];

/** A tenant with the rules, a guest tenant that agreed, one event, and the pre-existing contacts of `people`. */
async function world(guestId: string) {
  const { tenant } = await tenantWithRules(tdb.db, RULES);
  await allowGuestsFrom(tdb.db, guestId, tenant.id);
  const event = await createEvent(tdb.db, tenant.id, {
    title: 'Clay',
    startsAt: '2027-06-15T14:00:00Z',
    endsAt: '2027-06-15T16:00:00Z',
    timeZone: 'America/New_York',
    roomUrl: 'https://meet.example/clay',
  });
  await tdb.db.execute(sql`insert into contacts (tenant_id, email, name, locale, time_zone, quiet_hours) values
    (${tenant.id}, 'quiet@x.test', 'Quinn', 'ja', 'Asia/Tokyo', '{"start":"21:00","end":"08:00"}'::jsonb)`);
  await tdb.db.execute(sql`insert into contacts (tenant_id, email, name, locale, phone, preferences) values
    (${tenant.id}, 'sms@x.test', 'Sam', 'nl', '+31612345678', '{"reminders":["email","sms"],"booking_updates":["email"]}'::jsonb)`);
  await tdb.db.execute(sql`insert into contacts (tenant_id, email, name, locale, time_zone) values
    (${tenant.id}, 'mixed@x.test', 'Old Name', 'de', 'Europe/Berlin')`);
  return { tenant, event };
}

function people(guestId: string): BulkBookingInput[] {
  const zones = ['Europe/Amsterdam', 'America/Los_Angeles', 'Asia/Kolkata', null, 'Australia/Sydney'];
  const out: BulkBookingInput[] = [
    { role: 'attendee', contact: { email: 'quiet@x.test', name: 'Quinn' } }, // zone and quiet hours stored: deferred
    { role: 'attendee', contact: { email: 'sms@x.test', name: 'Sam' } }, // email + SMS reminders
    { role: 'attendee', contact: { email: 'MiXed@X.test', name: 'New Name', timeZone: null } }, // known (case): every stored detail kept
    { role: 'host', contact: { email: 'host1@x.test', name: 'Hosta', locale: 'fr' } },
    { role: 'external', guestTenantId: guestId, contact: { email: 'guest1@y.test', name: 'Gus', timeZone: 'Asia/Tokyo' } },
    { role: 'attendee', contact: { email: 'phone@x.test', name: 'Pia', phone: '+44 7911 123456' } },
  ];
  for (let i = out.length; i < 20; i++) {
    const role = i === 10 ? 'host' : i === 11 ? 'external' : 'attendee';
    out.push({
      role,
      ...(role === 'external' ? { guestTenantId: guestId } : {}),
      contact: { email: `p${i}@x.test`, name: `Person ${i}`, ...(zones[i % 5] ? { timeZone: zones[i % 5]! } : {}), ...(i % 3 === 0 ? { locale: 'es' } : {}) },
    });
  }
  return out;
}

/** Everything one tenant's bookings wrote, with ids replaced by what they stand for (address, rule name). */
async function snapshot(tenantId: string, eventId: string) {
  const contacts = await tdb.sql`select email, name, locale, time_zone, phone, preferences, quiet_hours, version, updated_by
    from contacts where tenant_id = ${tenantId} order by lower(email)`;
  const bookings = await tdb.sql`select c.email, b.role, b.status, b.status_reason, b.guest_tenant_id, b.created_at, b.version, b.updated_by
    from bookings b join contacts c on c.id = b.contact_id where b.tenant_id = ${tenantId} order by lower(c.email)`;
  const reminders = await tdb.sql`select c.email, rr.name as rule, r.kind, r.channel, r.schedule_version, r.due_at, r.expires_at, r.deferred_from,
      r.status, r.status_reason, r.template, r.message_key, r.domain_event_id, r.tenant_id = ${tenantId} as own, r.event_id = ${eventId} as on_event
    from reminders r join bookings b on b.id = r.booking_id join contacts c on c.id = b.contact_id left join reminder_rules rr on rr.id = r.rule_id
    where r.tenant_id = ${tenantId} order by lower(c.email), rr.name, r.channel`;
  const facts = await tdb.sql`select c.email, d.type, d.revision, d.payload, d.actor, d.created_at, d.processed_at, d.event_id = ${eventId} as on_event,
      d.entity_id = d.booking_id as about_booking
    from domain_events d join bookings b on b.id = d.booking_id join contacts c on c.id = b.contact_id
    where d.tenant_id = ${tenantId} order by lower(c.email), d.type`;
  const ruleNames = new Map((await tdb.sql<{ id: string; name: string }[]>`select id, name from reminder_rules where tenant_id = ${tenantId}`).map((r) => [r.id, r.name]));
  const factOf = new Map(
    (await tdb.sql<{ id: string; label: string }[]>`select d.id, d.type || ' ' || c.email as label
      from domain_events d join bookings b on b.id = d.booking_id join contacts c on c.id = b.contact_id where d.tenant_id = ${tenantId}`).map((r) => [r.id, r.label]),
  );
  const jobRows = await tdb.sql<{ task_identifier: string; payload: Record<string, unknown>; run_at: Date; max_attempts: number; key: string | null; priority: number; queue_name: string | null }[]>`
    select t.identifier as task_identifier, j.payload, j.run_at, j.max_attempts, j.key, j.priority, q.queue_name, j.attempts, j.flags
    from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
    left join graphile_worker._private_job_queues q on q.id = j.job_queue_id`;
  const jobs = jobRows
    .map((j) => {
      let key = j.key;
      let payload = j.payload;
      let runAt: Date | string = j.run_at;
      if (key?.startsWith(`wake:${eventId}:`)) key = `wake:EVENT:${ruleNames.get(key.slice(`wake:${eventId}:`.length))}`;
      else if (key?.startsWith('notify:')) {
        const label = factOf.get(key.slice('notify:'.length));
        if (!label) return null; // another tenant's fact
        key = `notify:${label}`;
        payload = { domainEventId: factOf.get(String(j.payload.domainEventId)) };
        runAt = 'database now()'; // added without run_at: the transaction's now(), different in each path
      } else return null; // another tenant's wake-up
      return { ...j, key, payload, run_at: runAt };
    })
    .filter((j) => j !== null)
    .sort((a, b) => String(a.key).localeCompare(String(b.key)));
  return { contacts, bookings, reminders, facts, jobs };
}

describe('addBookingsBulk', () => {
  it('writes the same contacts, bookings, reminders, domain events and jobs as addBooking once per person', async () => {
    const guest = await createTenant(tdb.db, { slug: `guest-${Date.now().toString(36)}`, name: 'Guest Org', timeZone: 'Asia/Tokyo' });
    const one = await world(guest.id);
    const bulk = await world(guest.id);
    const list = people(guest.id);
    for (const p of list) await addBooking(tdb.db, one.tenant.id, { eventId: one.event.id, ...p }, NOW);
    const r = await addBookingsBulk(tdb.db, bulk.tenant.id, bulk.event.id, list, NOW);

    const a = await snapshot(one.tenant.id, one.event.id);
    const b = await snapshot(bulk.tenant.id, bulk.event.id);
    expect(r).toEqual({ bookings: 20, reminders: a.reminders.length, skipped: [] });
    expect(b.contacts).toEqual(a.contacts);
    expect(b.bookings).toEqual(a.bookings);
    expect(b.reminders).toEqual(a.reminders);
    expect(b.facts).toEqual(a.facts);
    expect(b.jobs).toEqual(a.jobs);

    // The comparison covers what it should: SMS, a quiet-hours deferral, expired plans, hosts, guests, wake-ups.
    expect(a.contacts).toHaveLength(20);
    expect(a.reminders.some((x) => x.channel === 'sms')).toBe(true);
    expect(a.reminders.some((x) => x.deferred_from !== null && x.email === 'quiet@x.test')).toBe(true);
    expect(a.reminders.some((x) => x.status === 'expired' && /planned after its expiry/.test(String(x.status_reason)))).toBe(true);
    expect(new Set(a.facts.map((f) => f.type))).toEqual(new Set(['booking_confirmed', 'participant_added_as_host']));
    expect(a.jobs.filter((j) => j.task_identifier === 'dispatch_due').map((j) => j.key).sort()).toEqual(['wake:EVENT:day before', 'wake:EVENT:room', 'wake:EVENT:two hours']);
    expect(a.jobs.filter((j) => j.task_identifier === 'notify')).toHaveLength(20);
    // A known person keeps name, zone and language on both paths (review of issue #12: a booking overwriting a
    // contact was a lost update of the participant edit and left their other bookings planned for the old zone).
    expect(a.contacts.find((c) => c.email === 'mixed@x.test')).toMatchObject({ name: 'Old Name', locale: 'de', time_zone: 'Europe/Berlin', version: 1 });
  });

  it('a bad row writes nothing and its error names the row and field', async () => {
    const guest = await createTenant(tdb.db, { slug: `guest-${Date.now().toString(36)}`, name: 'Guest Org', timeZone: 'UTC' });
    const { tenant, event } = await world(guest.id);
    const before = await snapshot(tenant.id, event.id);
    const bad = people(guest.id);
    bad[7] = { role: 'attendee', contact: { email: 'p7@x.test', timeZone: 'Mars/Olympus' } };
    const err = await addBookingsBulk(tdb.db, tenant.id, event.id, bad, NOW).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'validation', field: 'people.7.contact.timeZone' });
    expect(err.message).toMatch(/^people\[7\]: contact\.timeZone: /);

    const noGuest = people(guest.id);
    noGuest[12] = { role: 'external', contact: { email: 'g@y.test' } };
    expect(await addBookingsBulk(tdb.db, tenant.id, event.id, noGuest, NOW).catch((e) => e)).toMatchObject({ code: 'validation', field: 'people.12.guestTenantId' });

    const stranger = await createTenant(tdb.db, { slug: `stranger-${Date.now().toString(36)}`, name: 'Stranger', timeZone: 'UTC' });
    const forbidden = people(guest.id);
    forbidden[15] = { role: 'external', guestTenantId: stranger.id, contact: { email: 'g@z.test' } };
    expect(await addBookingsBulk(tdb.db, tenant.id, event.id, forbidden, NOW).catch((e) => e)).toMatchObject({ code: 'forbidden', field: 'people.15.guestTenantId' });

    expect(await snapshot(tenant.id, event.id)).toEqual(before);
  });

  it('skips people already booked and addresses listed twice; books the rest', async () => {
    const guest = await createTenant(tdb.db, { slug: `guest-${Date.now().toString(36)}`, name: 'Guest Org', timeZone: 'UTC' });
    const { tenant, event } = await world(guest.id);
    await addBooking(tdb.db, tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'p9@x.test', name: 'Kept Name' } }, NOW);
    const list = people(guest.id);
    list.push({ role: 'host', contact: { email: 'P13@x.test', name: 'Again' } });
    const r = await addBookingsBulk(tdb.db, tenant.id, event.id, list, NOW);
    expect(r.bookings).toBe(19);
    expect(r.skipped).toEqual([
      { index: 9, reason: 'p9@x.test is already booked on this event' },
      { index: 20, reason: 'P13@x.test is listed already (row 13): booked once' },
    ]);
    const s = await snapshot(tenant.id, event.id);
    expect(s.bookings).toHaveLength(20);
    // A skipped row changes nothing (addBooking's conflict rolls back its contact update too).
    expect(s.contacts.find((c) => c.email === 'p9@x.test')).toMatchObject({ name: 'Kept Name', version: 1 });
    expect(s.bookings.find((b) => b.email === 'p13@x.test')).toMatchObject({ role: 'attendee' });
    // Booking the same list again books nobody and plans nothing.
    const again = await addBookingsBulk(tdb.db, tenant.id, event.id, list, NOW);
    expect(again).toMatchObject({ bookings: 0, reminders: 0 });
    expect(again.skipped).toHaveLength(21);
  });

  it('notify: false plans reminders but records no domain events and adds no notify jobs', async () => {
    const guest = await createTenant(tdb.db, { slug: `guest-${Date.now().toString(36)}`, name: 'Guest Org', timeZone: 'UTC' });
    const { tenant, event } = await world(guest.id);
    const r = await addBookingsBulk(tdb.db, tenant.id, event.id, people(guest.id), NOW, { notify: false });
    expect(r.bookings).toBe(20);
    expect(r.reminders).toBeGreaterThan(20);
    const s = await snapshot(tenant.id, event.id);
    expect(s.facts).toHaveLength(0);
    expect(s.jobs.map((j) => j.task_identifier)).toEqual(['dispatch_due', 'dispatch_due', 'dispatch_due']);
  });

  it('books and reschedules an event with 8,000 people (more rows than one statement may carry as parameters)', async () => {
    const { tenant } = await tenantWithRules(tdb.db, [{ offset: '-PT1H' }]);
    const event = await createEvent(tdb.db, tenant.id, { title: 'Big', startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T09:00:00Z', timeZone: 'UTC' });
    const many: BulkBookingInput[] = Array.from({ length: 8000 }, (_, i) => ({ role: 'attendee', contact: { email: `m${i}@big.test`, name: `M ${i}` } }));
    expect(await addBookingsBulk(tdb.db, tenant.id, event.id, many, NOW)).toEqual({ bookings: 8000, reminders: 8000, skipped: [] });
    // planAndEnqueue looks contacts up in chunks and inserts reminders as one jsonb parameter: 8,000 rows × 11
    // columns would exceed PostgreSQL's 65,535 bind parameters as a VALUES list.
    await rescheduleEvent(tdb.db, tenant.id, event.id, { startsAt: '2027-06-16T08:00:00Z', endsAt: '2027-06-16T09:00:00Z', timeZone: 'UTC' }, NOW);
    const rows = await tdb.sql<{ v: number; status: string; n: number }[]>`select schedule_version as v, status, count(*)::int as n from reminders where tenant_id = ${tenant.id} group by 1, 2 order by 1`;
    expect(rows).toEqual([
      { v: 1, status: 'superseded', n: 8000 },
      { v: 2, status: 'scheduled', n: 8000 },
    ]);
  });
});
