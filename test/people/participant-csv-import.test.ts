/**
 * Importing participants from a CSV file (issue #13) through the real route handler, against real PostgreSQL:
 * "A CSV of 500 participants with 3 bad rows → preview names rows 17, 204 and 499 with their problems [now their
 * spreadsheet rows 18, 205 and 500]; nothing
 * stored until confirmed; after fixing, 500 bookings and their reminders in one transaction." Also: a commit whose
 * digest does not match, or whose rows became invalid meanwhile, writes nothing; a double click imports once;
 * accents survive; semicolon files with a byte-order mark; a known contact keeps their details; the 5 MiB cap.
 */
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { auditLog, bookings, contacts, domainEvents, events, reminderRules, reminders } from '@/db/schema';
import { csvDigest } from '@/domain/people/participant-csv';
import { participantsCsv } from '@/server/people/csv-exports';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { ensureStaffUser } from '@/server/accounts/staff';
import { tenantWithRules } from '@/test/support/fixtures';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';

const ORIGIN = 'http://127.0.0.1:3998';
const PASSWORD = 'csv-import-pass';

let tdb: TestDatabase;
let tenantId: string;
let cookie: string;
let savedEnv: { url?: string; secret?: string; publicUrl?: string };
let route: typeof import('@/app/api/events/[id]/import-csv/route');
const db = (): Db => tdb.db;

beforeAll(async () => {
  tdb = await createTestDatabase();
  // The route handler uses the process-wide pool and better-auth instance: point them at this file's database.
  savedEnv = { url: process.env.DATABASE_URL, secret: process.env.BETTER_AUTH_SECRET, publicUrl: process.env.PUNCTUAL_PUBLIC_URL };
  process.env.DATABASE_URL = tdb.url;
  process.env.PUNCTUAL_PUBLIC_URL = ORIGIN;
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-csv-import-routes-0123456789';
  const g = globalThis as { __punctualDb?: unknown; __punctualAuth?: unknown };
  delete g.__punctualDb;
  delete g.__punctualAuth;
  // Attendees get both reminders, hosts only the 2-hour one.
  const { tenant } = await tenantWithRules(db(), [
    { offset: '-P1D', name: 'day before', audience: ['attendee', 'external'] },
    { offset: '-PT2H', name: 'two hours', audience: ['attendee', 'external', 'host'], template: 'host-reminder' },
  ]);
  tenantId = tenant.id;
  await ensureStaffUser(db(), tenantId, { email: 'admin@csv.test', name: 'Cas Admin', role: 'admin', password: PASSWORD });
  const { getAuth } = await import('@/server/accounts/auth');
  const res = await getAuth().api.signInEmail({ body: { email: 'admin@csv.test', password: PASSWORD }, headers: new Headers({ host: '127.0.0.1:3998', origin: ORIGIN }), asResponse: true });
  expect(res.status).toBe(200);
  cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  route = await import('@/app/api/events/[id]/import-csv/route');
});

afterAll(async () => {
  const g = globalThis as { __punctualDb?: { close(): Promise<void> } };
  await g.__punctualDb?.close();
  delete g.__punctualDb;
  process.env.DATABASE_URL = savedEnv?.url;
  if (savedEnv?.secret === undefined) delete process.env.BETTER_AUTH_SECRET;
  else process.env.BETTER_AUTH_SECRET = savedEnv.secret;
  if (savedEnv?.publicUrl === undefined) delete process.env.PUNCTUAL_PUBLIC_URL;
  else process.env.PUNCTUAL_PUBLIC_URL = savedEnv.publicUrl;
  await tdb?.close();
});

interface Problem {
  kind: string;
  field: string | null;
  message: string;
}
interface Preview {
  digest: string;
  total: number;
  ready: number;
  withProblems: number;
  known: number;
  keptDiffering: number;
  ignored: string[];
  problemRows: { row: number; line: number; values: Record<string, string>; problems: Problem[] }[];
}
interface Answer<T> {
  status: number;
  body: T & { error?: string; field?: string; preview?: Preview };
  replayed: boolean;
}

async function call<T>(eventId: string, query: string, body: string | Uint8Array<ArrayBuffer>, key?: string): Promise<Answer<T>> {
  const headers: Record<string, string> = { host: '127.0.0.1:3998', origin: ORIGIN, cookie, 'content-type': 'text/csv; charset=utf-8' };
  if (key) headers['idempotency-key'] = key;
  const req = new Request(`${ORIGIN}/api/events/${eventId}/import-csv?${query}`, { method: 'POST', headers, body });
  const res = await route.POST(req, { params: Promise.resolve({ id: eventId }) });
  return { status: res.status, body: await res.json(), replayed: res.headers.get('idempotent-replayed') === 'true' };
}
const preview = (eventId: string, text: string | Uint8Array<ArrayBuffer>) => call<Preview>(eventId, 'mode=preview', text);
const commit = (eventId: string, text: string, opts: { digest?: string; file?: string; key?: string } = {}) =>
  call<{ bookings: number; reminders: number; known: number; keptDiffering: number }>(
    eventId,
    `mode=commit&digest=${opts.digest ?? csvDigest(text)}&file=${encodeURIComponent(opts.file ?? 'people.csv')}`,
    text,
    opts.key,
  );

let n = 0;
async function newEvent(): Promise<string> {
  const e = await createEvent(db(), tenantId, { title: `Kiln day ${++n}`, startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T12:00:00Z', timeZone: 'Europe/Warsaw' });
  return e.id;
}

/** What the event holds: bookings, reminders, import audit entries, domain events (all tables the import writes). */
async function stored(eventId: string) {
  const one = async (q: Promise<{ n: number }[]>) => (await q)[0]!.n;
  return {
    bookings: await one(db().select({ n: count() }).from(bookings).where(eq(bookings.eventId, eventId))),
    reminders: await one(db().select({ n: count() }).from(reminders).where(eq(reminders.eventId, eventId))),
    facts: await one(db().select({ n: count() }).from(domainEvents).where(eq(domainEvents.eventId, eventId))),
    audits: await one(db().select({ n: count() }).from(auditLog).where(and(eq(auditLog.action, 'participants_import'), sql`${auditLog.details}->>'eventId' = ${eventId}`))),
  };
}
const nothing = { bookings: 0, reminders: 0, facts: 0, audits: 0 };
const contactCount = async () => (await db().select({ n: count() }).from(contacts).where(eq(contacts.tenantId, tenantId)))[0]!.n;

/** 500 participants (every 25th a host, a few with a mobile number and language); `bad` puts the three faults in. */
function fiveHundred(prefix: string, bad: boolean): string {
  const lines = ['Name,Email,Phone,Role,Time zone,Locale'];
  for (let i = 1; i <= 500; i++) {
    const role = i % 25 === 0 ? 'host' : 'attendee';
    let email = `${prefix}${i}@example.test`;
    let zone = i % 2 ? 'Europe/Warsaw' : 'America/New_York';
    if (bad && i === 17) email = `${prefix}${i}.example.test`; // bad address
    if (bad && i === 204) zone = 'Europe/Atlantis'; // unknown zone
    if (bad && i === 499) email = `${prefix.toUpperCase()}12@example.test`; // duplicate of row 12 (another case)
    const phone = i % 100 === 0 ? '+48 601 234 567' : '';
    const locale = i % 7 === 0 ? 'pl' : '';
    lines.push(`Person ${i},${email},${phone},${role},${zone},${locale}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

describe('import participants from CSV (issue #13)', () => {
  // The participants 17, 204 and 499 are spreadsheet rows 18, 205 and 500: "row N" is the row a spreadsheet
  // shows (the header is row 1), so staff find it where they look.
  it('500 participants with 3 bad rows: the preview names rows 18, 205 and 500; nothing is stored until confirmed; fixed → 500 bookings and their reminders in one transaction', async () => {
    const eventId = await newEvent();
    const contactsBefore = await contactCount();
    const bad = fiveHundred('imp', true);

    const p = await preview(eventId, bad);
    expect(p.status).toBe(200);
    expect([p.body.total, p.body.ready, p.body.withProblems]).toEqual([500, 497, 3]);
    expect(p.body.problemRows.map((r) => [r.row, r.problems.map((x) => x.kind)])).toEqual([
      [18, ['bad_address']],
      [205, ['unknown_zone']],
      [500, ['duplicate']],
    ]);
    expect(p.body.problemRows[0]!.problems[0]!.message).toBe('email "imp17.example.test": must be an email address');
    expect(p.body.problemRows[1]!.problems[0]!.message).toMatch(/^time zone "Europe\/Atlantis": not a time zone/);
    expect(p.body.problemRows[2]!.problems[0]!.message).toBe('email "IMP12@example.test": the same address as row 13 — row 13 and row 500 are one person; keep one of them');
    // Nothing stored by the preview — not a booking, not a contact.
    expect(await stored(eventId)).toEqual(nothing);
    expect(await contactCount()).toBe(contactsBefore);

    // Confirming the bad file anyway (its own digest) is refused with the same problems: nothing written.
    const refused = await commit(eventId, bad);
    expect(refused.status).toBe(409);
    expect(refused.body.field).toBe('file');
    expect(refused.body.preview?.problemRows.map((r) => r.row)).toEqual([18, 205, 500]);
    expect(await stored(eventId)).toEqual(nothing);
    expect(await contactCount()).toBe(contactsBefore);

    // Fixed.
    const good = fiveHundred('imp', false);
    const p2 = await preview(eventId, good);
    expect([p2.body.ready, p2.body.withProblems, p2.body.problemRows]).toEqual([500, 0, []]);
    expect(await stored(eventId)).toEqual(nothing);
    const done = await commit(eventId, good, { digest: p2.body.digest, file: 'Kiln day — people.csv' });
    expect(done.status).toBe(200);

    // The reminders the tenant's rules imply, counted independently: per booking, the active rules whose audience
    // holds its role (one channel each: nobody has chosen SMS).
    const rules = await db().select().from(reminderRules).where(and(eq(reminderRules.tenantId, tenantId), eq(reminderRules.active, true)));
    const roles = await db().select({ role: bookings.role }).from(bookings).where(eq(bookings.eventId, eventId));
    const implied = roles.reduce((sum, b) => sum + rules.filter((r) => (r.audience as string[]).includes(b.role)).length, 0);
    expect(implied).toBe(480 * 2 + 20 * 1);
    expect(done.body).toEqual({ bookings: 500, reminders: implied, known: 0, keptDiffering: 0, skipped: [] });
    expect(await stored(eventId)).toEqual({ bookings: 500, reminders: implied, facts: 500, audits: 1 });
    const statuses = await db().select({ s: reminders.status, n: count() }).from(reminders).where(eq(reminders.eventId, eventId)).groupBy(reminders.status);
    expect(statuses).toEqual([{ s: 'scheduled', n: implied }]);
    // One transaction: every booking, reminder and the audit entry carry the same transaction's instant.
    const [tx] = await tdb.sql<{ ids: string }[]>`select count(distinct xmin::text)::text as ids from bookings where event_id = ${eventId}`;
    expect(tx!.ids).toBe('1');
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, 'participants_import'), sql`${auditLog.details}->>'eventId' = ${eventId}`));
    expect(audit!.actor).toBe('admin@csv.test');
    expect(audit!.details).toMatchObject({ eventId, count: 500, file: 'Kiln day — people.csv', reminders: implied });
    // Values as imported: E.164 number, language, zone, role.
    const [c100] = await db().select().from(contacts).where(and(eq(contacts.tenantId, tenantId), eq(contacts.email, 'imp100@example.test')));
    expect(c100).toMatchObject({ name: 'Person 100', phone: '+48601234567', timeZone: 'America/New_York', locale: 'en' });
    const [c7] = await db().select().from(contacts).where(and(eq(contacts.tenantId, tenantId), eq(contacts.email, 'imp7@example.test')));
    expect(c7).toMatchObject({ locale: 'pl', timeZone: 'Europe/Warsaw' });

    // The same file again: everyone is booked now — 500 problems, nothing more written.
    const again = await preview(eventId, good);
    expect([again.body.ready, again.body.withProblems]).toEqual([0, 500]);
    expect(again.body.problemRows[0]!.problems.map((x) => x.kind)).toEqual(['already_booked']);
  });

  it('a commit of another text than the previewed one (digest) writes nothing', async () => {
    const eventId = await newEvent();
    const text = 'name,email\nAnn,ann.digest@example.test\n';
    const p = await preview(eventId, text);
    expect(p.body.ready).toBe(1);
    const changed = await commit(eventId, 'name,email\nAnn,ann.digest@example.test\nBo,bo.digest@example.test\n', { digest: p.body.digest });
    expect(changed.status).toBe(409);
    expect(changed.body).toMatchObject({ field: 'digest', error: 'This is not the file that was previewed (its content differs): nothing was imported. Preview it again.' });
    const missing = await call(eventId, 'mode=commit', text);
    expect([missing.status, missing.body.field]).toEqual([400, 'digest']);
    expect(await stored(eventId)).toEqual(nothing);
  });

  it('a person booked between preview and commit: the commit is refused with the fresh problem and writes nothing', async () => {
    const eventId = await newEvent();
    const text = 'name;email\nAnn;ann.race@example.test\nBo;bo.race@example.test\nCy;cy.race@example.test\n';
    const p = await preview(eventId, text);
    expect([p.body.ready, p.body.withProblems]).toEqual([3, 0]);
    await addBooking(db(), tenantId, { eventId, role: 'attendee', contact: { email: 'BO.race@example.test', name: 'Bo' } }, new Date());
    const before = await stored(eventId);
    const r = await commit(eventId, text, { digest: p.body.digest });
    expect(r.status).toBe(409);
    expect(r.body.field).toBe('file');
    expect(r.body.error).toMatch(/^Nothing was imported: 1 row has a problem now/);
    expect(r.body.preview?.problemRows.map((x) => [x.row, x.problems.map((q) => q.kind)])).toEqual([[3, ['already_booked']]]);
    expect(await stored(eventId)).toEqual(before);
    expect(before.bookings).toBe(1);
    const [{ n: annContacts }] = await db().select({ n: count() }).from(contacts).where(eq(contacts.email, 'ann.race@example.test'));
    expect(annContacts).toBe(0);
  });

  it('a double click (same Idempotency-Key) imports once; the repeat gets the first answer', async () => {
    const eventId = await newEvent();
    const text = 'email\nd1@example.test\nd2@example.test\nd3@example.test\n';
    const [a, b] = await Promise.all([commit(eventId, text, { key: 'csv-double-1' }), commit(eventId, text, { key: 'csv-double-1' })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.replayed, b.replayed].sort()).toEqual([false, true]);
    expect(a.body).toEqual(b.body);
    expect(await stored(eventId)).toMatchObject({ bookings: 3, audits: 1 });
  });

  it('semicolons, a byte-order mark, CRLF and accents (Zoë, Łódź) survive; a known contact keeps their stored details', async () => {
    const eventId = await newEvent();
    await db().insert(contacts).values({ tenantId, email: 'known.csv@example.test', name: 'Known Name', locale: 'de', timeZone: 'Europe/Berlin' });
    const text = 'Name;E-mail;Time zone;Language;Notes\r\n"Zoë Łódź-Wąsik";zoe.csv@example.test;Europe/Warsaw;pl;"likes ""clay"";\r\nand glaze"\r\nRenamed;KNOWN.csv@example.test;Asia/Tokyo;;\r\n';
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    const p = await preview(eventId, bytes);
    expect(p.status).toBe(200);
    expect([p.body.ready, p.body.withProblems, p.body.known, p.body.keptDiffering]).toEqual([2, 0, 1, 1]);
    expect(p.body.ignored).toEqual(['Notes']);
    // The digest is of the text as decoded (the byte-order mark is not part of it).
    expect(p.body.digest).toBe(csvDigest(text));
    const r = await call<{ bookings: number; known: number; keptDiffering: number }>(eventId, `mode=commit&digest=${p.body.digest}&file=x.csv`, bytes);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ bookings: 2, known: 1, keptDiffering: 1 });
    const [zoe] = await db().select().from(contacts).where(eq(contacts.email, 'zoe.csv@example.test'));
    expect(zoe).toMatchObject({ name: 'Zoë Łódź-Wąsik', timeZone: 'Europe/Warsaw', locale: 'pl' });
    const [known] = await db().select().from(contacts).where(eq(contacts.email, 'known.csv@example.test'));
    expect(known).toMatchObject({ name: 'Known Name', timeZone: 'Europe/Berlin', locale: 'de' });
  });

  it('what Punctual exports, Punctual imports: an event’s participants file into a new event — the same people, phones, zones and languages, no problems', async () => {
    const from = await newEvent();
    const people = [
      { email: 'rt.zoe@example.test', name: 'Zoë Brontë', phone: '+48601234567', timeZone: 'Europe/Paris', locale: 'fr' },
      { email: 'rt.jan@example.test', name: 'Kowalski, Jan', phone: '+31612345678', timeZone: 'America/New_York', locale: 'pt-BR' },
      { email: 'rt.ann@example.test', name: 'Ann', phone: null, timeZone: null, locale: 'en' },
      // Cancelled on the first event: listed in its export, not booked onto the second.
      { email: 'rt.bo@example.test', name: 'Bo', phone: null, timeZone: null, locale: 'en' },
    ];
    for (const [i, c] of people.entries()) {
      await addBooking(db(), tenantId, { eventId: from, role: i === 1 ? 'host' : 'attendee', contact: { email: c.email, name: c.name, ...(c.phone ? { phone: c.phone } : {}), ...(c.timeZone ? { timeZone: c.timeZone } : {}), locale: c.locale } }, new Date());
    }
    const [bo] = await db().select({ id: contacts.id }).from(contacts).where(and(eq(contacts.tenantId, tenantId), eq(contacts.email, 'rt.bo@example.test')));
    await db().update(bookings).set({ status: 'cancelled' }).where(and(eq(bookings.eventId, from), eq(bookings.contactId, bo!.id)));
    const file = await participantsCsv(db(), { tenantId, actor: 'admin@csv.test', now: new Date() }, from);
    const text = (await new Response(file.body).text()).replace(/^\uFEFF/, '');
    // The export guards the "+" phone numbers (a spreadsheet would read them as numbers or formulas) …
    expect(text).toContain("'+48601234567");

    const to = await newEvent();
    const p = await preview(to, text);
    expect(p.status).toBe(200);
    // … and the importer reads them back: nothing to fix, the same details as stored (nothing would be kept apart).
    expect([p.body.total, p.body.ready, p.body.withProblems, p.body.known, p.body.keptDiffering]).toEqual([3, 3, 0, 3, 0]);
    expect((p.body as Preview & { cancelledRows: number[] }).cancelledRows).toEqual([5]);
    expect(p.body.ignored).toEqual(['Status reason', 'Guest of organisation', 'Booked at (UTC)', 'Booked at (Europe/Warsaw)', 'Next reminder due (UTC)', 'Next reminder due (Europe/Warsaw)', 'Booking id']);
    const sample = (p.body as Preview & { sample: { values: Record<string, string> }[] }).sample.map((r) => r.values);
    expect(sample.map((v) => [v.email, v.phone, v.timeZone, v.locale])).toEqual([
      ['rt.zoe@example.test', '+48601234567', 'Europe/Paris', 'fr'],
      ['rt.jan@example.test', '+31612345678', 'America/New_York', 'pt-BR'],
      ['rt.ann@example.test', '', '', 'en'],
    ]);
    const done = await commit(to, text, { digest: p.body.digest });
    expect(done.status).toBe(200);
    const booked = await db().select({ role: bookings.role, email: contacts.email }).from(bookings).innerJoin(contacts, eq(contacts.id, bookings.contactId)).where(eq(bookings.eventId, to));
    expect(booked.map((b) => `${b.role} ${b.email}`).sort()).toEqual(['attendee rt.ann@example.test', 'attendee rt.zoe@example.test', 'host rt.jan@example.test']);
  });

  it('"import the good rows, skip the others": the ready rows are booked, the bad ones named in the answer and the audit entry', async () => {
    const eventId = await newEvent();
    const text = 'name,email,time zone\nAnn,ann.skip@example.test,Europe/Paris\nBad,bad.skip.example.test,\nCy,cy.skip@example.test,Mars/Olympus\nDee,dee.skip@example.test,\n';
    const p = await preview(eventId, text);
    expect([p.body.ready, p.body.withProblems]).toEqual([2, 2]);
    const all = await commit(eventId, text, { digest: p.body.digest });
    expect(all.status).toBe(409);
    expect(await stored(eventId)).toEqual(nothing);
    const q = `mode=commit&digest=${p.body.digest}&file=partly.csv&skip=problems`;
    const r = await call<{ bookings: number; skipped: { row: number; problems: Problem[] }[] }>(eventId, q, text, 'csv-skip-1');
    expect(r.status).toBe(200);
    expect(r.body.bookings).toBe(2);
    expect(r.body.skipped.map((x) => [x.row, x.problems.map((y) => y.kind)])).toEqual([
      [3, ['bad_address']],
      [4, ['unknown_zone']],
    ]);
    const [entry] = await db().select().from(auditLog).where(and(eq(auditLog.action, 'participants_import'), sql`${auditLog.details}->>'eventId' = ${eventId}`));
    expect(entry!.details).toMatchObject({ count: 2, file: 'partly.csv', skippedRows: [3, 4] });
    // The same key again answers the first result; a skip value that means nothing is a 400 naming it.
    expect((await call(eventId, q, text, 'csv-skip-1')).replayed).toBe(true);
    const odd = await call(eventId, `mode=commit&digest=${p.body.digest}&skip=all`, text);
    expect([odd.status, odd.body.field]).toEqual([400, 'skip']);
    // Every row bad: nothing to import, even when skipping.
    const none = 'email\nx.example.test\n';
    const p2 = await preview(eventId, none);
    expect((await call(eventId, `mode=commit&digest=${p2.body.digest}&skip=problems`, none)).status).toBe(409);
  });

  it('refusals: no email column (one error), a cancelled event, an unknown mode, a body over 5 MiB; over 1 MiB is fine here', async () => {
    const eventId = await newEvent();
    const noEmail = await preview(eventId, 'name,phone\nAnn,+31612345678\n');
    expect(noEmail.status).toBe(400);
    expect(noEmail.body).toMatchObject({ field: 'file' });
    expect(noEmail.body.error).toMatch(/^The file has no email column/);
    expect((await call(eventId, 'mode=go', 'email\na@example.test')).status).toBe(400);

    // 1.5 MiB (notes padding): above the default 1 MiB cap of other routes, accepted here.
    const pad = 'x'.repeat(3000);
    const big = ['email,notes', ...Array.from({ length: 540 }, (_, i) => `big${i}@example.test,${pad}`)].join('\n');
    expect(big.length).toBeGreaterThan(1.5 * 1_048_576);
    const okBig = await preview(eventId, big);
    expect([okBig.status, okBig.body.ready]).toEqual([200, 540]);
    const tooBig = await preview(eventId, `email,notes\n${'y'.repeat(5 * 1_048_576)}`);
    expect(tooBig.status).toBe(413);

    await db().update(events).set({ status: 'cancelled' }).where(eq(events.id, eventId));
    const cancelled = await preview(eventId, 'email\na@example.test\n');
    expect(cancelled.status).toBe(409);
    expect(await stored(eventId)).toEqual(nothing);
  });
});
