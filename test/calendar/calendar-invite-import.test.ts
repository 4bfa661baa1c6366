/**
 * Issue #9 §6: the invitations Punctual sends (domain/calendar/calendar-invite.ts) read back through Punctual's OWN
 * iCalendar importer to the event they were made from — first through the pure reader (domain/calendar/ics.ts
 * `readIcs`, no tenant), then through the real import into PostgreSQL (server/calendar/import-ics.ts `importIcs`),
 * where a reschedule (higher SEQUENCE, same UID) moves the one stored event and the CANCEL cancels it.
 *
 * The tenant's default zone is deliberately another one (Asia/Tokyo) for timed events, so the zone stored can
 * only come from the invitation's TZID/VTIMEZONE. DATE values carry no zone (RFC 5545 §3.3.4): the importer
 * plans an all-day event in the tenant's zone, so that test uses a New York tenant.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { events, type Event } from '@/db/schema';
import { buildCalendarInvite, type CalendarInviteInput } from '@/domain/calendar/calendar-invite';
import { readIcs } from '@/domain/calendar/ics';
import { importIcs } from '@/server/calendar/import-ics';
import { createTenant } from '@/server/organisations/tenants';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';

const UID = 'booking-0b6f3c52-5d0e-4a55-9a1e-2f1f8c7d9e01@punctual.local';
const NOW = new Date('2027-06-15T12:00:00Z');

const lisbon: CalendarInviteInput = {
  method: 'REQUEST',
  uid: UID,
  sequence: 0,
  title: 'Pottery workshop 🏺',
  description: 'Bring an apron; clay, glaze and tools provided.',
  location: 'Rua Augusta 1, Lisboa',
  url: 'https://punctual.example/bookings/0b6f3c52',
  startsAt: new Date('2027-07-01T09:00:00Z'), // 10:00 WEST
  endsAt: new Date('2027-07-01T10:30:00Z'),
  allDay: false,
  timeZone: 'Europe/Lisbon',
  organizer: { name: 'Acme Events', email: 'events@acme.example' },
  attendee: { name: 'Ana Silva', email: 'ana@example.com' },
  stamp: NOW,
};
const berlinSummer: CalendarInviteInput = {
  ...lisbon,
  uid: 'booking-berlin@punctual.local',
  title: 'Sommerfest',
  startsAt: new Date('2027-07-15T08:00:00Z'), // 10:00 CEST
  endsAt: new Date('2027-07-15T09:00:00Z'),
  timeZone: 'Europe/Berlin',
};
const allDayNewYork: CalendarInviteInput = {
  ...lisbon,
  uid: 'booking-allday@punctual.local',
  title: 'Spring retreat',
  startsAt: new Date('2027-03-13T05:00:00Z'), // 13 March 00:00 EST
  endsAt: new Date('2027-03-15T04:00:00Z'), // 15 March 00:00 EDT (DST began on the 14th)
  allDay: true,
  timeZone: 'America/New_York',
};

const read = (input: CalendarInviteInput, defaultTimeZone = 'Asia/Tokyo') => {
  const parsed = readIcs(buildCalendarInvite(input), { defaultTimeZone, horizonStart: NOW, horizonEnd: new Date('2028-06-15T00:00:00Z') }).events;
  expect(parsed).toHaveLength(1);
  return parsed[0];
};

describe("readIcs (Punctual's reader, no tenant)", () => {
  it('Lisbon 10:00 WEST: 09:00Z, planned in Europe/Lisbon, texts intact', () => {
    expect(read(lisbon)).toEqual({
      uid: UID,
      group: UID,
      title: 'Pottery workshop 🏺',
      description: 'Bring an apron; clay, glaze and tools provided.',
      location: 'Rua Augusta 1, Lisboa',
      startsAt: new Date('2027-07-01T09:00:00.000Z'),
      endsAt: new Date('2027-07-01T10:30:00.000Z'),
      allDay: false,
      timeZone: 'Europe/Lisbon',
      cancelled: false,
    });
  });

  it('Berlin summer 10:00 CEST: 08:00Z, planned in Europe/Berlin', () => {
    expect(read(berlinSummer)).toMatchObject({ startsAt: new Date('2027-07-15T08:00:00.000Z'), endsAt: new Date('2027-07-15T09:00:00.000Z'), timeZone: 'Europe/Berlin', allDay: false });
  });

  it('Berlin winter 10:00 CET: 09:00Z', () => {
    expect(read({ ...berlinSummer, startsAt: new Date('2027-01-15T09:00:00Z'), endsAt: new Date('2027-01-15T10:00:00Z') })).toMatchObject({
      startsAt: new Date('2027-01-15T09:00:00.000Z'),
      timeZone: 'Europe/Berlin',
    });
  });

  it('all-day 13–14 March in New York: local midnights, exclusive end', () => {
    expect(read(allDayNewYork, 'America/New_York')).toMatchObject({
      startsAt: new Date('2027-03-13T05:00:00.000Z'),
      endsAt: new Date('2027-03-15T04:00:00.000Z'),
      allDay: true,
      timeZone: 'America/New_York',
    });
  });

  it('a time written in UTC form (repeated wall-clock time) keeps its instant', () => {
    const e = read({ ...berlinSummer, startsAt: new Date('2027-10-31T01:30:00Z'), endsAt: new Date('2027-10-31T03:00:00Z') });
    expect(e.startsAt).toEqual(new Date('2027-10-31T01:30:00.000Z'));
    expect(e.endsAt).toEqual(new Date('2027-10-31T03:00:00.000Z'));
  });

  it('the CANCEL reads as a cancelled event with the same identity', () => {
    expect(read({ ...lisbon, method: 'CANCEL', sequence: 3 })).toMatchObject({ uid: UID, cancelled: true, startsAt: new Date('2027-07-01T09:00:00.000Z') });
  });
});

describe('importIcs into PostgreSQL', () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.close());
  beforeEach(async () => tdb.reset());

  const db = () => tdb.db;
  const byUid = async (uid: string): Promise<Event[]> => db().select().from(events).where(eq(events.externalUid, uid));

  it('stores starts_at 2027-07-01T09:00:00.000Z and time_zone Europe/Lisbon; a reschedule moves it, the CANCEL cancels it', async () => {
    await createTenant(db(), { slug: 'acme', name: 'Acme', timeZone: 'Asia/Tokyo' });

    const first = await importIcs(db(), 'acme', buildCalendarInvite(lisbon), NOW);
    expect(first).toMatchObject({ created: 1, total: 1 });
    const [row] = await byUid(UID);
    expect(row.startsAt.toISOString()).toBe('2027-07-01T09:00:00.000Z');
    expect(row.endsAt.toISOString()).toBe('2027-07-01T10:30:00.000Z');
    expect(row).toMatchObject({ timeZone: 'Europe/Lisbon', allDay: false, title: 'Pottery workshop 🏺', location: 'Rua Augusta 1, Lisboa', status: 'scheduled', scheduleVersion: 1 });

    // Reschedule: same UID, SEQUENCE 1, two hours later (12:00 WEST).
    const moved = { ...lisbon, sequence: 1, startsAt: new Date('2027-07-01T11:00:00Z'), endsAt: new Date('2027-07-01T12:30:00Z') };
    expect(await importIcs(db(), 'acme', buildCalendarInvite(moved), NOW)).toMatchObject({ created: 0, rescheduled: 1 });
    const after = await byUid(UID);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: row.id, startsAt: new Date('2027-07-01T11:00:00.000Z'), timeZone: 'Europe/Lisbon', scheduleVersion: 2 });

    expect(await importIcs(db(), 'acme', buildCalendarInvite({ ...moved, method: 'CANCEL', sequence: 2 }), NOW)).toMatchObject({ cancelled: 1 });
    expect((await byUid(UID))[0]).toMatchObject({ id: row.id, status: 'cancelled' });
  });

  it('Berlin summer: starts_at 08:00Z, time_zone Europe/Berlin', async () => {
    await createTenant(db(), { slug: 'acme', name: 'Acme', timeZone: 'Asia/Tokyo' });
    await importIcs(db(), 'acme', buildCalendarInvite(berlinSummer), NOW);
    const [row] = await byUid(berlinSummer.uid);
    expect(row.startsAt.toISOString()).toBe('2027-07-15T08:00:00.000Z');
    expect(row.endsAt.toISOString()).toBe('2027-07-15T09:00:00.000Z');
    expect(row.timeZone).toBe('Europe/Berlin');
  });

  it('all-day in a New York tenant: starts_at/ends_at local midnights, all_day, time_zone America/New_York', async () => {
    await createTenant(db(), { slug: 'acme', name: 'Acme', timeZone: 'America/New_York' });
    await importIcs(db(), 'acme', buildCalendarInvite(allDayNewYork), NOW);
    const [row] = await byUid(allDayNewYork.uid);
    expect(row.startsAt.toISOString()).toBe('2027-03-13T05:00:00.000Z');
    expect(row.endsAt.toISOString()).toBe('2027-03-15T04:00:00.000Z');
    expect(row).toMatchObject({ allDay: true, timeZone: 'America/New_York' });
  });
});
