/**
 * `npm run import:ics` against real PostgreSQL: every fixture imports, re-importing updates instead of
 * duplicating, a moved DTSTART bumps the schedule version (and supersedes reminders), a malformed file or a
 * failure half-way imports nothing, and the CLI end to end.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { events, reminders, type Event } from '@/db/schema';
import { AppError } from '@/server/platform/errors';
import { IcsError } from '@/domain/calendar/ics';
import { importIcs } from '@/server/calendar/import-ics';
import { addBooking } from '@/server/scheduling/bookings';
import { createTenant } from '@/server/organisations/tenants';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { runCli } from '@/test/support/cli';
import { tenantWithRules } from '@/test/support/fixtures';

const fixturesDir = path.resolve(process.cwd(), 'test/fixtures/ics');
const sharedDir = path.resolve(process.cwd(), '../shared/fixtures/ics');
const fixture = (name: string) => readFileSync(path.join(fixturesDir, name), 'utf8');
const fixtureNames = readdirSync(fixturesDir).filter((f) => f.endsWith('.ics')).sort();

/** A fixed clock near the ical.js fixtures' dates, so recurrence expansion is deterministic. */
const NOW = new Date('2012-08-15T00:00:00Z');

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => tdb?.close());
beforeEach(async () => tdb.reset());

const db = () => tdb.db;
const newTenant = (slug = 'acme', timeZone = 'Europe/London') => createTenant(db(), { slug, name: 'Acme Events', timeZone });
const eventCount = async () => (await db().select({ n: count() }).from(events))[0].n;
const eventsOf = (tenantId: string) => db().select().from(events).where(eq(events.tenantId, tenantId)).orderBy(events.startsAt);
const byUid = async (uid: string): Promise<Event> => (await db().select().from(events).where(eq(events.externalUid, uid)))[0];

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the import to fail');
}

describe('fixtures', () => {
  it.skipIf(!existsSync(sharedDir))('test/fixtures/ics holds an identical copy of every shared fixture', () => {
    const shared = readdirSync(sharedDir).filter((f) => f.endsWith('.ics')).sort();
    expect(fixtureNames).toEqual(shared);
    for (const f of shared) expect(fixture(f), f).toBe(readFileSync(path.join(sharedDir, f), 'utf8'));
  });

  it.each([
    ['icaljs-blank_description.ics', 1],
    ['icaljs-daily_recur.ics', 379], // 1 Aug 2012 … 14 Aug 2013: occurrences within [now − 30 d, now + 365 d]
    ['icaljs-duration_instead_of_dtend.ics', 1],
    ['icaljs-minimal.ics', 1],
    ['icaljs-only_dtstart_date.ics', 1],
    ['icaljs-recur_instances_finite.ics', 5],
    ['icaljs-tz-new-york.ics', 0], // a VTIMEZONE and no VEVENT
    ['pyconuk-2015-schedule.ics', 162],
  ])('%s imports %i events; importing it again changes nothing', async (name, expected) => {
    const tenant = await newTenant();
    const first = await importIcs(db(), tenant.slug, fixture(name), NOW);
    expect(first).toMatchObject({ created: expected, updated: 0, rescheduled: 0, unchanged: 0, cancelled: 0, total: expected, skipped: [] });
    expect(await eventCount()).toBe(expected);

    const again = await importIcs(db(), tenant.slug, fixture(name), NOW);
    expect(await eventCount()).toBe(expected);
    expect(again.updated + again.unchanged).toBe(again.total);
    expect(again).toMatchObject({ created: 0, rescheduled: 0, cancelled: 0, total: expected });
    expect((await eventsOf(tenant.id)).every((e) => e.scheduleVersion === 1)).toBe(true);
  });

  it('the test table names every fixture', () => {
    expect(fixtureNames).toHaveLength(8);
  });

  it('pyconuk-2015: exactly 162 events, UTC instants, planned in the tenant zone', async () => {
    const tenant = await newTenant('pycon', 'Europe/London');
    const summary = await importIcs(db(), 'pycon', fixture('pyconuk-2015-schedule.ics'), new Date('2026-01-01T00:00:00Z'));
    // Every one of them is from 2015: imported all the same, and the summary says they are past.
    expect(summary).toMatchObject({ total: 162, past: 162 });
    const rows = await eventsOf(tenant.id);
    expect(rows).toHaveLength(162);
    expect(new Set(rows.map((r) => r.externalUid)).size).toBe(162);
    expect(rows[0]).toMatchObject({
      title: 'Registration / Breakfast',
      location: 'Cafeteria',
      timeZone: 'Europe/London',
      allDay: false,
      startsAt: new Date('2015-09-18T07:00:00Z'),
      endsAt: new Date('2015-09-18T08:30:00Z'),
    });
  });

  it('TZID America/Los_Angeles and America/New_York become the event zones', async () => {
    await newTenant('acme', 'Europe/London');
    await importIcs(db(), 'acme', fixture('icaljs-minimal.ics'), NOW);
    const la = await byUid('dn4vrfmfn5p05roahsopg57h48@google.com');
    expect(la).toMatchObject({ timeZone: 'America/Los_Angeles', startsAt: new Date('2012-06-30T13:00:00Z'), endsAt: new Date('2012-06-30T14:00:00Z') });
    expect(la.description).toBeNull();

    // The New York fixture defines the zone but has no event: add one that uses it.
    const ny = fixture('icaljs-tz-new-york.ics').replace(
      'END:VCALENDAR',
      'BEGIN:VEVENT\r\nUID:ny-standup\r\nSUMMARY:Standup\r\nDTSTART;TZID=America/New_York:20121105T090000\r\nDTEND;TZID=America/New_York:20121105T091500\r\nEND:VEVENT\r\nEND:VCALENDAR',
    );
    await importIcs(db(), 'acme', ny, NOW);
    expect(await byUid('ny-standup')).toMatchObject({ timeZone: 'America/New_York', startsAt: new Date('2012-11-05T14:00:00Z') });
  });

  it('the all-day fixture is all-day with local midnights in the tenant zone', async () => {
    await newTenant('acme', 'Europe/Amsterdam');
    await importIcs(db(), 'acme', fixture('icaljs-only_dtstart_date.ics'), NOW);
    expect(await byUid('dn4vrfmfn5p05roahsopg57h48@example.com')).toMatchObject({
      allDay: true,
      timeZone: 'Europe/Amsterdam',
      startsAt: new Date('2012-06-29T22:00:00Z'),
      endsAt: new Date('2012-06-30T22:00:00Z'),
    });
  });

  it('the DURATION fixture ends one day after it starts', async () => {
    await newTenant();
    await importIcs(db(), 'acme', fixture('icaljs-duration_instead_of_dtend.ics'), NOW);
    expect(await byUid('dn4vrfmfn5p05roahsopg57h48@example.com')).toMatchObject({
      timeZone: 'America/Los_Angeles',
      startsAt: new Date('2012-06-30T13:00:00Z'),
      endsAt: new Date('2012-07-01T13:00:00Z'),
    });
  });

  it('the daily recurrence is expanded within the horizon only', async () => {
    const tenant = await newTenant();
    const s = await importIcs(db(), 'acme', fixture('icaljs-daily_recur.ics'), NOW, { horizonDays: 10 });
    // Horizon [16 Jul, 25 Aug 2012 00:00Z]; the series starts 1 Aug at 12:00Z → 1 … 24 Aug.
    expect(s.created).toBe(24);
    const rows = await eventsOf(tenant.id);
    expect(rows[0].externalUid).toBe('tgh9qho17b07pk2n2ji3gluans@google.com#2012-08-01T12:00:00Z');
    expect(rows[0].startsAt).toEqual(new Date('2012-08-01T12:00:00Z'));
    expect(rows[23].startsAt).toEqual(new Date('2012-08-24T12:00:00Z'));
    // A later import with the horizon moved on adds the new occurrences and keeps the old ones.
    const later = await importIcs(db(), 'acme', fixture('icaljs-daily_recur.ics'), new Date('2012-08-20T00:00:00Z'), { horizonDays: 10 });
    expect(later).toMatchObject({ created: 5, unchanged: 24, total: 29 }); // horizon now [21 Jul, 30 Aug]
    expect(await eventCount()).toBe(29);
  });
});

describe('re-import', () => {
  const minimal = () => fixture('icaljs-minimal.ics');
  const UID = 'dn4vrfmfn5p05roahsopg57h48@google.com';

  it('a changed DTSTART reschedules: schedule version 2, v1 reminders superseded, v2 planned', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D' }], 'Europe/London');
    await importIcs(db(), tenant.slug, minimal(), NOW);
    const v1 = await byUid(UID);
    expect(v1.scheduleVersion).toBe(1);
    const booking = await addBooking(db(), tenant.id, { eventId: v1.id, role: 'attendee', contact: { email: 'ada@example.com' } }, new Date('2012-06-01T00:00:00Z'));

    const moved = minimal().replace('DTSTART;TZID=America/Los_Angeles:20120630T060000', 'DTSTART;TZID=America/Los_Angeles:20120630T063000');
    const s = await importIcs(db(), tenant.slug, moved, new Date('2012-06-02T00:00:00Z'));
    expect(s).toMatchObject({ created: 0, updated: 0, rescheduled: 1, unchanged: 0, cancelled: 0, total: 1 });
    const v2 = await byUid(UID);
    expect(v2).toMatchObject({ id: v1.id, scheduleVersion: 2, startsAt: new Date('2012-06-30T13:30:00Z') });
    const rs = await db().select().from(reminders).where(eq(reminders.bookingId, booking.id)).orderBy(reminders.scheduleVersion);
    expect(rs.map((r) => [r.scheduleVersion, r.status])).toEqual([
      [1, 'superseded'],
      [2, 'scheduled'],
    ]);
    expect(await eventCount()).toBe(1);
  });

  it('changed texts update the event without a new schedule version', async () => {
    await newTenant();
    await importIcs(db(), 'acme', minimal(), NOW);
    const renamed = minimal().replace('SUMMARY:Really long event name thing', 'SUMMARY:Short name').replace(/^LOCATION:$/m, 'LOCATION:Room 4');
    const s = await importIcs(db(), 'acme', renamed, NOW);
    expect(s).toMatchObject({ updated: 1, rescheduled: 0, created: 0 });
    expect(await byUid(UID)).toMatchObject({ title: 'Short name', location: 'Room 4', scheduleVersion: 1 });
  });

  it('STATUS:CANCELLED cancels an imported event; a cancelled event never seen is not created', async () => {
    await newTenant();
    await importIcs(db(), 'acme', minimal(), NOW);
    const cancelled = minimal().replace('STATUS:CONFIRMED', 'STATUS:CANCELLED');
    expect(await importIcs(db(), 'acme', cancelled, NOW)).toMatchObject({ cancelled: 1, total: 1 });
    expect(await byUid(UID)).toMatchObject({ status: 'cancelled' });
    expect(await importIcs(db(), 'acme', cancelled, NOW)).toMatchObject({ cancelled: 0, unchanged: 1 });

    const other = cancelled.replace(`UID:${UID}`, 'UID:never-seen');
    expect(await importIcs(db(), 'acme', other, NOW)).toMatchObject({ created: 0, unchanged: 1 });
    expect(await eventCount()).toBe(1);
  });

  it('two imports of one file at once: one creates, the other finds them (no duplicate-key failure)', async () => {
    await newTenant();
    const pycon = fixture('pyconuk-2015-schedule.ics');
    const [a, b] = await Promise.all([importIcs(db(), 'acme', pycon, NOW), importIcs(db(), 'acme', pycon, NOW)]);
    expect([a.created, b.created].sort()).toEqual([0, 162]);
    expect(await eventCount()).toBe(162);
  });

  it('the same UID in two tenants is two events', async () => {
    await newTenant('one');
    await newTenant('two');
    await importIcs(db(), 'one', minimal(), NOW);
    await importIcs(db(), 'two', minimal(), NOW);
    expect(await eventCount()).toBe(2);
  });
});

describe('nothing is imported when the file or the import fails', () => {
  const minimal = fixture('icaljs-minimal.ics');
  const pycon = fixture('pyconuk-2015-schedule.ics');

  it.each<[string, string, RegExp]>([
    ['truncated', pycon.slice(0, Math.floor(pycon.length / 2)), /^line \d+: BEGIN:VEVENT is never closed/],
    ['missing END:VCALENDAR', pycon.replace(/END:VCALENDAR\s*$/, ''), /^line 1: BEGIN:VCALENDAR is never closed \(missing END:VCALENDAR/],
    ['a VEVENT without DTSTART', pycon.replace('DTSTART:20150918T083000Z\n', ''), /^line 12, VEVENT #2 \(UID 20160417T070217Z-17774@[^)]+\): missing DTSTART$/],
    ['garbage', '\u0089PNG\r\n\u001a\n binary junk', /^line 1: not an iCalendar file/],
    ['a bad line deep inside', pycon.replace('LOCATION:Cafeteria', 'LOCATION;broken'), /^line \d+: /],
    ['an unknown TZID', minimal.replace(/America\/Los_Angeles:2012/g, 'Atlantis/Capital:2012'), /unknown time zone TZID "Atlantis\/Capital"/],
    // Text-direction controls in text people read (Trojan Source, CVE-2021-42574): the event is refused naming the
    // property and its line, like any bad value — not stripped, not stored.
    ['a SUMMARY with U+202E', pycon.replace('SUMMARY:Registration / Breakfast', 'SUMMARY:Registration \u202eastfaerB'), /^line 10, VEVENT #1 \(UID [^)]+\): SUMMARY must not contain U\+202E RIGHT-TO-LEFT OVERRIDE \(/],
    ['a LOCATION with U+2066', pycon.replace('LOCATION:Cafeteria', 'LOCATION:\u2066Cafeteria'), /^line 9, VEVENT #1 \(UID [^)]+\): LOCATION must not contain U\+2066 LEFT-TO-RIGHT ISOLATE/],
    ['a DESCRIPTION with U+202C', pycon.replace('DESCRIPTION:http://www.pyconuk.org/djangogirls/', 'DESCRIPTION:djangogirls\u202c'), /^line 32, VEVENT #\d+ \(UID [^)]+\): DESCRIPTION must not contain U\+202C POP DIRECTIONAL FORMATTING/],
  ])('%s: the error names where, and no event is written', async (_name, text, message) => {
    await newTenant();
    const err = await rejection(importIcs(db(), 'acme', text, NOW));
    expect(err).toBeInstanceOf(IcsError);
    expect(err.message).toMatch(message);
    expect(await eventCount()).toBe(0);
  });

  it('a malformed re-import leaves the earlier import as it was', async () => {
    await newTenant();
    await importIcs(db(), 'acme', pycon, NOW);
    const before = await db().select().from(events).orderBy(events.externalUid);
    const broken = pycon.replace('DTSTART:20150918T070000Z', 'DTSTART:20150918T080000Z').replace(/END:VCALENDAR\s*$/, '');
    await expect(importIcs(db(), 'acme', broken, NOW)).rejects.toBeInstanceOf(IcsError);
    expect(await db().select().from(events).orderBy(events.externalUid)).toEqual(before);
  });

  it('a database failure half-way rolls back the events already written (one transaction)', async () => {
    await newTenant();
    await tdb.sql.unsafe(`
      create function punctual_test_refuse() returns trigger language plpgsql as $$
      begin
        if new.title = 'Keynote - Keynote speaker' then raise exception 'refused by test trigger'; end if;
        return new;
      end $$;
      create trigger punctual_test_refuse before insert on events for each row execute function punctual_test_refuse();`);
    try {
      const err = await rejection(importIcs(db(), 'acme', pycon, NOW));
      expect(String(err.cause ?? err.message)).toMatch(/refused by test trigger/);
      expect(await eventCount()).toBe(0);
    } finally {
      await tdb.sql.unsafe('drop trigger punctual_test_refuse on events; drop function punctual_test_refuse();');
    }
  });

  it('an unknown tenant is not_found, naming the tenant', async () => {
    const err = await rejection(importIcs(db(), 'nobody', minimal, NOW));
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'not_found', field: 'tenant' });
    expect(err.message).toContain('"nobody"');
  });
});

describe('CLI: npm run import:ics (node --import tsx scripts/import-ics.ts)', () => {
  const run = (args: string[], env: Record<string, string | undefined>) => runCli('scripts/import-ics.ts', args, env);
  const tmp = mkdtempSync(path.join(tmpdir(), 'punctual-ics-'));
  const garbage = path.join(tmp, 'garbage.ics');
  writeFileSync(garbage, 'this is not a calendar\n');
  const pyconPath = path.join(fixturesDir, 'pyconuk-2015-schedule.ics');

  it('imports a file: exit 0 and a one-line summary; a second run updates nothing', async () => {
    await newTenant('cli-org');
    const first = await run([pyconPath, '--tenant', 'cli-org'], { DATABASE_URL: tdb.url });
    expect(first.stderr).not.toContain('import failed');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^imported .*pyconuk-2015-schedule\.ics into cli-org: 162 events \(162 created, 0 updated, 0 rescheduled, 0 unchanged, 0 cancelled\)\n  read 162 VEVENTs → 162 occurrences\n  1 UID used by several VEVENTs: each identified by UID, start, title and location\n  162 events are in the past: imported, no reminders planned\n$/,
    );
    const second = await run([pyconPath, '--tenant', 'cli-org'], { DATABASE_URL: tdb.url });
    expect(second.stdout).toContain('162 events (0 created, 0 updated, 0 rescheduled, 162 unchanged, 0 cancelled)');
    expect(await eventCount()).toBe(162);
  });

  it('a garbage file: exit 1, "import failed: line 1: …" on stderr, nothing imported', async () => {
    await newTenant('cli-org');
    const r = await run([garbage, '--tenant', 'cli-org'], { DATABASE_URL: tdb.url });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^import failed: line 1: not an iCalendar file/m);
    expect(await eventCount()).toBe(0);
  });

  it('no DATABASE_URL but a running `npm start`: uses its embedded database', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'punctual-pid-'));
    mkdirSync(path.join(dir, 'pg'));
    const server = new URL(tdb.url);
    const port = server.port;
    const login = { user: decodeURIComponent(server.username), password: decodeURIComponent(server.password) };
    // A postmaster.pid naming a live pid (this test process) and the test server's port.
    writeFileSync(path.join(dir, 'pg', 'postmaster.pid'), `${process.pid}\n${dir}\n0\n${port}\n`);
    // The data folder's credentials (db/embedded.ts: beside the pg folder, 0600), here the test server's own login.
    writeFileSync(path.join(dir, 'pg-credentials.json'), JSON.stringify({ superuser: login, app: login }), { mode: 0o600 });
    const r = await run([pyconPath, '--tenant', 'cli-org'], { DATABASE_URL: undefined, PUNCTUAL_DATA_DIR: dir });
    // The embedded URL names the app's `punctual` database, which this test server does not have: the CLI reached
    // that server with the folder's credentials, and reports the database's own words rather than a wrapped dump.
    expect(r.stderr).toBe('import failed: database "punctual" does not exist\n');
    expect(r.code).toBe(1);
    rmSync(dir, { recursive: true, force: true });
  });

  it('an unknown tenant: exit 1 naming it', async () => {
    const r = await run([pyconPath, '--tenant', 'ghost'], { DATABASE_URL: tdb.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('import failed: tenant "ghost" not found\n');
  });

  it('missing --tenant: exit 2 with usage', async () => {
    const r = await run([pyconPath], { DATABASE_URL: tdb.url });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing --tenant SLUG\nusage: npm run import:ics -- FILE\.ics --tenant SLUG/);
  });

  it('DATABASE_URL unset: exit 2 saying how to fix it', async () => {
    const r = await run([pyconPath, '--tenant', 'cli-org'], { DATABASE_URL: undefined, PUNCTUAL_DATA_DIR: '.data/no-such-dir' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('DATABASE_URL is not set and no `npm start` database is running here');
  });
  it('an RRULE that can never occur: exit 1, one line on stderr naming the line, nothing imported (not even the good VEVENT)', async () => {
    await newTenant('cli-org');
    const hostile = path.join(tmp, 'feb30.ics');
    writeFileSync(
      hostile,
      [
        'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//x//x//EN',
        'BEGIN:VEVENT', 'UID:good', 'DTSTART:20270115T100000Z', 'SUMMARY:Fine', 'END:VEVENT',
        'BEGIN:VEVENT', 'UID:a', 'DTSTART:20270115T100000Z', 'SUMMARY:Never', 'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30', 'END:VEVENT',
        'END:VCALENDAR', '',
      ].join('\r\n'),
    );
    const r = await run([hostile, '--tenant', 'cli-org'], { DATABASE_URL: tdb.url });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('import failed: line 13, VEVENT #2 (UID a): RRULE can never occur: February has no day 30\n');
    expect(await eventCount()).toBe(0);
  });
});
