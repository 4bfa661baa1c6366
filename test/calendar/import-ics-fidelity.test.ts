/**
 * Issue 8 §1 against real PostgreSQL: what the file says is what is stored — the VTIMEZONE's instants and a zone
 * that reproduces its wall clock, ü across a fold, every RRULE, identities that survive a reordered re-export
 * (bookings stay on their talk), UID-less events imported once, and a summary that explains every event,
 * also through the CLI.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, events, type Event } from '@/db/schema';
import { importIcs } from '@/server/calendar/import-ics';
import { addBooking } from '@/server/scheduling/bookings';
import { createTenant } from '@/server/organisations/tenants';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { runCli } from '@/test/support/cli';

const pyconPath = path.resolve(process.cwd(), 'test/fixtures/ics/pyconuk-2015-schedule.ics');
const gmtPath = path.resolve(process.cwd(), 'test/fixtures/ics-extra/gmt-with-bst.ics');
const NOW = new Date('2027-01-01T00:00:00Z');

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => tdb?.close());
beforeEach(async () => tdb.reset());

const db = () => tdb.db;
const newTenant = (slug = 'acme', timeZone = 'America/New_York') => createTenant(db(), { slug, name: 'Acme', timeZone });
const eventCount = async () => (await db().select({ n: count() }).from(events))[0].n;
const byTitle = async (title: string): Promise<Event[]> => db().select().from(events).where(eq(events.title, title));

function cal(vevents: string[][], extra: string[] = []): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//punctual//test//EN', ...extra];
  for (const e of vevents) lines.push('BEGIN:VEVENT', ...e, 'END:VEVENT');
  lines.push('END:VCALENDAR');
  return lines.join('\r\n') + '\r\n';
}

/** The file's VEVENT blocks, as text. */
function veventBlocks(text: string): { head: string; blocks: string[]; tail: string } {
  const first = text.indexOf('BEGIN:VEVENT');
  const last = text.lastIndexOf('END:VEVENT') + 'END:VEVENT'.length;
  const blocks = text.slice(first, last).split(/(?<=END:VEVENT)\r?\n/);
  return { head: text.slice(0, first), blocks, tail: text.slice(last) };
}

describe('what the file says is stored', () => {
  it('TZID:GMT with British rules: 09:20Z in summer, 10:20Z in winter, planned in Europe/London', async () => {
    await newTenant();
    await importIcs(db(), 'acme', readFileSync(gmtPath), NOW);
    expect((await byTitle('Summer session'))[0]).toMatchObject({ startsAt: new Date('2027-07-22T09:20:00Z'), endsAt: new Date('2027-07-22T10:20:00Z'), timeZone: 'Europe/London' });
    expect((await byTitle('Winter session'))[0]).toMatchObject({ startsAt: new Date('2027-01-14T10:20:00Z'), timeZone: 'Europe/London' });
  });

  it('a fold inside ü: the title is stored intact', async () => {
    await newTenant();
    const title = 'Öffnungszeiten für Fortgeschrittene';
    const summary = Buffer.from(`SUMMARY:${title}`);
    const cut = summary.indexOf(Buffer.from('ü')) + 1;
    const file = Buffer.concat([
      Buffer.from('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:u1\r\nDTSTART:20270301T100000Z\r\n'),
      summary.subarray(0, cut),
      Buffer.from('\r\n '),
      summary.subarray(cut),
      Buffer.from('\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n'),
    ]);
    await importIcs(db(), 'acme', file, NOW);
    expect((await db().select().from(events))[0].title).toBe(title);
  });

  it('two RRULEs: 8 events stored for March 2027', async () => {
    await newTenant();
    const s = await importIcs(
      db(),
      'acme',
      cal([['UID:two', 'SUMMARY:Two rules', 'DTSTART;TZID=America/Los_Angeles:20270301T110000', 'RRULE:FREQ=WEEKLY;UNTIL=20270329T065959Z', 'RRULE:FREQ=MONTHLY;BYDAY=SU;UNTIL=20270329T065959Z']]),
      new Date('2027-02-15T00:00:00Z'),
    );
    expect(s).toMatchObject({ created: 8, total: 8 });
    const rows = await db().select().from(events).orderBy(events.startsAt);
    expect(rows.at(-1)!.startsAt).toEqual(new Date('2027-03-28T18:00:00Z'));
  });
});

describe('identity that does not depend on position', () => {
  const pycon = readFileSync(pyconPath, 'utf8');
  const dup = '20160417T070217Z-58703@testing-worker-linux-docker-3ee836b9-3394-linux-5';

  it('a re-export with the sessions in another order changes nothing; bookings stay on their talk', async () => {
    const tenant = await newTenant('pycon', 'Europe/London');
    await importIcs(db(), 'pycon', pycon, NOW);
    const [open] = await byTitle('Open Space').then((rs) => rs.filter((r) => r.externalUid!.startsWith(dup)));
    const [astro] = await byTitle('Power: Python in Astronomy (talk by Speaker 59)');
    const ba = await addBooking(db(), tenant.id, { eventId: astro.id, role: 'attendee', contact: { email: 'ada@example.com' } }, NOW);
    const bo = await addBooking(db(), tenant.id, { eventId: open.id, role: 'attendee', contact: { email: 'bob@example.com' } }, NOW);

    const { head, blocks, tail } = veventBlocks(pycon);
    const reversed = head + [...blocks].reverse().join('\n') + tail;
    const s = await importIcs(db(), 'pycon', reversed, NOW);
    expect(s).toMatchObject({ created: 0, updated: 0, rescheduled: 0, unchanged: 162, skipped: [] });
    const bookingEvent = async (id: string) => (await db().select().from(bookings).where(eq(bookings.id, id)))[0].eventId;
    expect(await bookingEvent(ba.id)).toBe(astro.id);
    expect(await bookingEvent(bo.id)).toBe(open.id);
    expect((await db().select().from(events).where(eq(events.id, astro.id)))[0]).toMatchObject({ title: 'Power: Python in Astronomy (talk by Speaker 59)', scheduleVersion: 1 });
  });

  it('records stored by the positional scheme (UID, UID#2) are taken over by content, then keep their bookings', async () => {
    const tenant = await newTenant('pycon', 'Europe/London');
    await importIcs(db(), 'pycon', pycon, NOW);
    // What an earlier version stored: the first repeat under the plain UID, the second as UID#2.
    const [astro] = await byTitle('Power: Python in Astronomy (talk by Speaker 59)');
    const open = (await byTitle('Open Space')).find((r) => r.externalUid!.startsWith(dup))!;
    await tdb.sql`update events set external_uid = ${dup} where id = ${open.id}`;
    await tdb.sql`update events set external_uid = ${`${dup}#2`} where id = ${astro.id}`;
    const b = await addBooking(db(), tenant.id, { eventId: astro.id, role: 'attendee', contact: { email: 'ada@example.com' } }, NOW);

    const s = await importIcs(db(), 'pycon', pycon, NOW);
    expect(s).toMatchObject({ created: 0, unchanged: 162, skipped: [] });
    expect(await eventCount()).toBe(162);
    const now = (await db().select().from(events).where(eq(events.id, astro.id)))[0];
    expect(now.externalUid).toMatch(new RegExp(`^${dup.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}#c-[0-9a-f]{12}$`));
    expect((await db().select().from(bookings).where(eq(bookings.id, b.id)))[0].eventId).toBe(astro.id);
  });

  it('a moved session of a repeated UID is matched by its title and room: rescheduled, same record', async () => {
    const tenant = await newTenant('pycon', 'Europe/London');
    await importIcs(db(), 'pycon', pycon, NOW);
    const [astro] = await byTitle('Power: Python in Astronomy (talk by Speaker 59)');
    await addBooking(db(), tenant.id, { eventId: astro.id, role: 'attendee', contact: { email: 'ada@example.com' } }, NOW);
    const moved = pycon.replace(/DTSTART:20150920T103000Z\r?\nDTEND:20150920T110000Z(\r?\nDESCRIPTION:http:\/\/www\.pyconuk\.org\/talks\/power-python)/, 'DTSTART:20150920T143000Z\nDTEND:20150920T150000Z$1');
    expect(moved).not.toBe(pycon);
    const s = await importIcs(db(), 'pycon', moved, NOW);
    expect(s).toMatchObject({ created: 0, rescheduled: 1, unchanged: 161, skipped: [] });
    const after = (await db().select().from(events).where(eq(events.id, astro.id)))[0];
    expect(after).toMatchObject({ startsAt: new Date('2015-09-20T14:30:00Z'), scheduleVersion: 2 });
    expect(await eventCount()).toBe(162);
  });

  it('a changed session that matches two stored sessions is skipped and named; nothing changes for it', async () => {
    await newTenant();
    const a = ['UID:rep', 'SUMMARY:Open Space', 'LOCATION:Bistro', 'DTSTART:20270301T100000Z'];
    const b = ['UID:rep', 'SUMMARY:Open Space', 'LOCATION:Bistro', 'DTSTART:20270302T100000Z'];
    await importIcs(db(), 'acme', cal([a, b]), NOW);
    const before = await db().select().from(events).orderBy(events.startsAt);
    // Both move: each now resembles both stored records (same title and room) → ambiguous.
    const a2 = a.map((l) => l.replace('20270301T100000Z', '20270303T100000Z'));
    const b2 = b.map((l) => l.replace('20270302T100000Z', '20270304T100000Z'));
    const s = await importIcs(db(), 'acme', cal([a2, b2]), NOW);
    expect(s.skipped.map((k) => k.title)).toEqual(['Open Space', 'Open Space']);
    expect(s.skipped[0].reason).toContain('not matched and nothing was changed');
    expect(s).toMatchObject({ created: 0, rescheduled: 0, total: 0 });
    expect(await db().select().from(events).orderBy(events.startsAt)).toEqual(before);
  });
});

describe('a file without UID is still a calendar', () => {
  it('imports with derived identities; importing twice changes nothing; the summary counts them', async () => {
    await newTenant();
    const text = cal([
      ['SUMMARY:Walk-in', 'DTSTART:20270301T100000Z', 'LOCATION:Lobby'],
      ['SUMMARY:Walk-in', 'DTSTART:20270308T100000Z', 'LOCATION:Lobby'],
      ['UID:has-one', 'SUMMARY:Named', 'DTSTART:20270301T120000Z'],
    ]);
    const first = await importIcs(db(), 'acme', text, NOW);
    expect(first).toMatchObject({ created: 3, withoutUid: 2, total: 3 });
    const again = await importIcs(db(), 'acme', text, NOW);
    expect(again).toMatchObject({ created: 0, unchanged: 3, withoutUid: 2 });
    expect(await eventCount()).toBe(3);
    expect((await byTitle('Walk-in')).every((e) => /^nouid:[0-9a-f]{16}$/.test(e.externalUid!))).toBe(true);
  });
});

describe('the summary explains every event', () => {
  it('all occurrences outside the window: 0 imported, counted as outside with the window dates', async () => {
    await newTenant();
    const s = await importIcs(db(), 'acme', cal([['UID:old', 'DTSTART:20250101T090000Z', 'RRULE:FREQ=WEEKLY;COUNT=24']]), NOW, { horizonDays: 30 });
    expect(s).toMatchObject({
      total: 0,
      read: { vevents: 1, occurrences: 24 },
      outsideWindow: { before: 24, after: 0, seriesContinuing: 0 },
      window: { start: new Date('2026-12-02T00:00:00Z'), end: new Date('2027-01-31T00:00:00Z') },
    });
  });

  describe('CLI', () => {
    const run = (args: string[], env: Record<string, string>) => runCli('scripts/import-ics.ts', args, env);
    const tmp = mkdtempSync(path.join(tmpdir(), 'punctual-ics-fid-'));

    it('a file whose occurrences all lie outside the window says why (exit 0)', async () => {
      await newTenant();
      const f = path.join(tmp, 'old.ics');
      writeFileSync(f, cal([['UID:old', 'DTSTART:20200106T090000Z', 'RRULE:FREQ=WEEKLY;COUNT=3']]));
      const r = await run([f, '--tenant', 'acme'], { DATABASE_URL: tdb.url });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/: 0 events \(0 created/);
      expect(r.stdout).toMatch(/\n {2}skipped 3 occurrences outside the import window \d{4}-\d{2}-\d{2} … \d{4}-\d{2}-\d{2} \(3 before, 0 after\)\n/);
      expect(r.stdout).toContain('nothing imported: every occurrence lies outside the import window');
    });

    it('a Latin-1 file: exit 1, one line naming the line, nothing imported', async () => {
      await newTenant();
      const f = path.join(tmp, 'latin1.ics');
      writeFileSync(f, Buffer.from(cal([['UID:l', 'DTSTART:20270301T100000Z', 'SUMMARY:Caf\u00e9']]), 'latin1'));
      const r = await run([f, '--tenant', 'acme'], { DATABASE_URL: tdb.url });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^import failed: line 7: not valid UTF-8 \(byte 0xE9\)[^\n]*\n$/);
      expect(await eventCount()).toBe(0);
    });

    it('progress lines go to stderr once the import runs longer than the threshold', async () => {
      await newTenant();
      const r = await run([pyconPath, '--tenant', 'acme'], { DATABASE_URL: tdb.url, PUNCTUAL_IMPORT_PROGRESS_AFTER_MS: '0' });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^import: 162 of 162 VEVENTs read \(\d+ s\)$/m);
      expect(r.stderr).toMatch(/^import: 162 of 162 events written \(\d+ s\)$/m);
      expect(r.stdout).not.toContain('import:');
    });
  });
});
