/**
 * Requests that arrive twice (issue #8 §4), against the REAL route handlers (app/api/…/route.ts: same-origin
 * check, better-auth session, role, JSON body) and real PostgreSQL:
 * - `Idempotency-Key` on the create routes (events, bookings, staff accounts, suppressions): a repeat with the
 *   same key and body answers the first response, a concurrent repeat waits and answers it too, another
 *   body is 422 and writes nothing, a malformed key is 400, a failed create leaves no key.
 * - Booking a person again after their booking was cancelled: a new booking planned afresh, the cancelled
 *   one kept with its cancelled reminders; a live booking is still 409.
 */
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { deleteExpiredIdempotencyKeys } from '@/db/queries/platform/idempotency';
import { getEventPage } from '@/db/queries/scheduling/event-views';
import { auditLog, bookings, contacts, events, idempotencyKeys, reminders, staffInvitations, suppressions } from '@/db/schema';
import { cancelBookingAction } from '@/server/scheduling/staff-actions';
import { createEvent } from '@/server/scheduling/events';
import { ensureStaffUser } from '@/server/accounts/staff';
import { tenantWithRules } from '@/test/support/fixtures';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';

const ORIGIN = 'http://127.0.0.1:3999';
const PASSWORD = 'idempotent-pass';

let tdb: TestDatabase;
let tenantId: string;
let cookie: string;
let savedEnv: { url?: string; secret?: string; publicUrl?: string };
let routes: {
  bookings: typeof import('@/app/api/events/[id]/bookings/route');
  events: typeof import('@/app/api/events/route');
  staff: typeof import('@/app/api/staff/route');
  suppressions: typeof import('@/app/api/suppressions/route');
};
const db = (): Db => tdb.db;

beforeAll(async () => {
  tdb = await createTestDatabase();
  // The route handlers use the process-wide pool and better-auth instance: point them at this file's database.
  savedEnv = { url: process.env.DATABASE_URL, secret: process.env.BETTER_AUTH_SECRET, publicUrl: process.env.PUNCTUAL_PUBLIC_URL };
  process.env.DATABASE_URL = tdb.url;
  // The Origin check trusts only the configured public URL (issue #12): these requests come from ORIGIN.
  process.env.PUNCTUAL_PUBLIC_URL = ORIGIN;
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-idempotency-routes-0123456789';
  const g = globalThis as { __punctualDb?: unknown; __punctualAuth?: unknown };
  delete g.__punctualDb;
  delete g.__punctualAuth;
  const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D' }, { offset: '-PT1H' }]);
  tenantId = tenant.id;
  await ensureStaffUser(db(), tenantId, { email: 'admin@idem.test', name: 'Ida Admin', role: 'admin', password: PASSWORD });
  const { getAuth } = await import('@/server/accounts/auth');
  const res = await getAuth().api.signInEmail({ body: { email: 'admin@idem.test', password: PASSWORD }, headers: new Headers({ host: '127.0.0.1:3999', origin: ORIGIN }), asResponse: true });
  expect(res.status).toBe(200);
  cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  routes = {
    bookings: await import('@/app/api/events/[id]/bookings/route'),
    events: await import('@/app/api/events/route'),
    staff: await import('@/app/api/staff/route'),
    suppressions: await import('@/app/api/suppressions/route'),
  };
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

function post(path: string, body: unknown, key?: string): Request {
  const headers: Record<string, string> = { host: '127.0.0.1:3999', origin: ORIGIN, cookie, 'content-type': 'application/json' };
  if (key !== undefined) headers['idempotency-key'] = key;
  return new Request(`${ORIGIN}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
}

interface Answer {
  status: number;
  body: { id?: string; error?: string; field?: string };
  replayed: boolean;
}
async function answer(res: Response): Promise<Answer> {
  return { status: res.status, body: await res.json(), replayed: res.headers.get('idempotent-replayed') === 'true' };
}

function book(eventId: string, body: unknown, key?: string): Promise<Answer> {
  return routes.bookings.POST(post(`/api/events/${eventId}/bookings`, body, key), { params: Promise.resolve({ id: eventId }) }).then(answer);
}

let n = 0;
async function newEvent(): Promise<string> {
  const e = await createEvent(db(), tenantId, { title: `Pottery ${++n}`, startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T09:00:00Z', timeZone: 'Europe/Amsterdam' });
  return e.id;
}
const person = (i: number) => ({ name: `Pat ${i}`, email: `pat${i}@example.test`, role: 'attendee' });

async function countOf(table: typeof bookings | typeof reminders, eventId: string): Promise<number> {
  const [{ n: c }] = await db().select({ n: count() }).from(table).where(eq(table.eventId, eventId));
  return c;
}
async function bookingAudits(eventId: string) {
  return db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.tenantId, tenantId), eq(auditLog.action, 'booking_add'), sql`${auditLog.details}->>'eventId' = ${eventId}`))
    .orderBy(auditLog.createdAt);
}
async function keyRows(key: string) {
  return db().select().from(idempotencyKeys).where(and(eq(idempotencyKeys.tenantId, tenantId), eq(idempotencyKeys.key, key)));
}

describe('Idempotency-Key on POST /api/events/:id/bookings', () => {
  it('two identical requests 300 ms apart with one key → one booking, one reminder plan, both answers name the same booking', async () => {
    const eventId = await newEvent();
    const first = await book(eventId, person(1), 'key-300ms');
    await new Promise((r) => setTimeout(r, 300));
    const second = await book(eventId, person(1), 'key-300ms');
    expect(first).toMatchObject({ status: 200, replayed: false });
    expect(second).toMatchObject({ status: 200, replayed: true });
    expect(first.body.id).toBeTruthy();
    expect(second.body).toEqual(first.body);
    expect(await countOf(bookings, eventId)).toBe(1);
    // One plan: the two rules (-P1D, -PT1H) for one attendee, planned once.
    expect(await countOf(reminders, eventId)).toBe(2);
    expect(await bookingAudits(eventId)).toHaveLength(1);
    const [row] = await keyRows('key-300ms');
    expect(row).toMatchObject({ route: `POST /api/events/${eventId}/bookings`, responseStatus: 200, responseBody: { id: first.body.id } });
  });

  it('truly concurrent requests with one key (Promise.all) → one booking; the others wait and answer the same id — no 409, no 500', async () => {
    const eventId = await newEvent();
    const answers = await Promise.all([1, 2, 3, 4].map(() => book(eventId, person(2), 'key-concurrent')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    expect(await countOf(bookings, eventId)).toBe(1);
    expect(await countOf(reminders, eventId)).toBe(2);
    expect(await bookingAudits(eventId)).toHaveLength(1);
  });

  it('the same key with a different body → 422 naming the header, and nothing is written', async () => {
    const eventId = await newEvent();
    const first = await book(eventId, person(3), 'key-reused');
    const contactsBefore = await db().select({ n: count() }).from(contacts).where(eq(contacts.tenantId, tenantId));
    const other = await book(eventId, person(4), 'key-reused');
    expect(first.status).toBe(200);
    expect(other.status).toBe(422);
    expect(other.body.field).toBe('Idempotency-Key');
    expect(other.body.error).toMatch(/^Idempotency-Key: .*different request body/);
    expect(await countOf(bookings, eventId)).toBe(1);
    expect(await countOf(reminders, eventId)).toBe(2);
    expect(await db().select({ n: count() }).from(contacts).where(eq(contacts.tenantId, tenantId))).toEqual(contactsBefore);
    expect(await bookingAudits(eventId)).toHaveLength(1);
    expect((await keyRows('key-reused'))[0]!.responseBody).toEqual({ id: first.body.id });
    // The same key on another route (another event) is also another request.
    const elsewhere = await book(await newEvent(), person(3), 'key-reused');
    expect(elsewhere.status).toBe(422);
  });

  it('a malformed key → 400 naming the header, nothing written', async () => {
    const eventId = await newEvent();
    for (const bad of ['', 'k'.repeat(256), 'clé', '"a", "b"']) {
      const a = await book(eventId, person(5), bad);
      expect(a.status, JSON.stringify(bad)).toBe(400);
      expect(a.body.field).toBe('Idempotency-Key');
    }
    expect(await countOf(bookings, eventId)).toBe(0);
    // The draft's quoted form and 255 characters are fine.
    expect((await book(eventId, person(5), `"${'q'.repeat(255)}"`)).status).toBe(200);
  });

  it('a create that fails leaves no key (one transaction): the corrected request with the same key books', async () => {
    const eventId = await newEvent();
    const bad = await book(eventId, { ...person(6), email: 'not-an-address' }, 'key-after-error');
    expect(bad.status).toBe(400);
    expect(await keyRows('key-after-error')).toHaveLength(0);
    const good = await book(eventId, person(6), 'key-after-error');
    expect(good).toMatchObject({ status: 200, replayed: false });
    // From now on the key is taken by the successful create.
    expect(await book(eventId, person(6), 'key-after-error')).toMatchObject({ status: 200, replayed: true, body: good.body });
    expect(await countOf(bookings, eventId)).toBe(1);
  });

  it('an expired key (older than 24 h) is a new request; the minute sweep deletes expired keys', async () => {
    const eventId = await newEvent();
    const first = await book(eventId, person(7), 'key-old');
    await db().update(idempotencyKeys).set({ createdAt: sql`now() - interval '25 hours'` }).where(eq(idempotencyKeys.key, 'key-old'));
    // Same key, another person: not a 422 any more but a new booking.
    const again = await book(eventId, person(8), 'key-old');
    expect(again).toMatchObject({ status: 200, replayed: false });
    expect(again.body.id).not.toBe(first.body.id);
    expect(await countOf(bookings, eventId)).toBe(2);
    await db().update(idempotencyKeys).set({ createdAt: sql`now() - interval '25 hours'` }).where(eq(idempotencyKeys.key, 'key-old'));
    await book(eventId, person(9), 'key-fresh');
    expect(await deleteExpiredIdempotencyKeys(db(), 24)).toBeGreaterThanOrEqual(1);
    expect(await keyRows('key-old')).toHaveLength(0);
    expect(await keyRows('key-fresh')).toHaveLength(1);
  });

  it('without a key a repeat is not recognised (the old behaviour): the second answer is 409 already booked', async () => {
    const eventId = await newEvent();
    expect((await book(eventId, person(10))).status).toBe(200);
    const second = await book(eventId, person(10));
    expect(second.status).toBe(409);
    expect(await keyRows('')).toHaveLength(0);
  });
});

describe('Idempotency-Key on the other create routes', () => {
  it('POST /api/events twice with one key → one event, same id', async () => {
    const body = { title: 'Idempotent evening', timeZone: 'Europe/Amsterdam', allDay: false, start: '2027-07-01T19:00', end: '2027-07-01T21:00' };
    const [a, b] = await Promise.all([routes.events.POST(post('/api/events', body, 'ev-key')).then(answer), routes.events.POST(post('/api/events', body, 'ev-key')).then(answer)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.id).toBe(b.body.id);
    expect(await db().select().from(events).where(and(eq(events.tenantId, tenantId), eq(events.title, 'Idempotent evening')))).toHaveLength(1);
    const changed = await routes.events.POST(post('/api/events', { ...body, title: 'Another evening' }, 'ev-key')).then(answer);
    expect(changed.status).toBe(422);
    expect(await db().select().from(events).where(and(eq(events.tenantId, tenantId), eq(events.title, 'Another evening')))).toHaveLength(0);
  });

  it('POST /api/suppressions twice with one key → one entry and the same answer (not 409 "already listed")', async () => {
    const body = { address: 'gone@example.test', reason: 'manual', note: 'asked by phone' };
    const a = await routes.suppressions.POST(post('/api/suppressions', body, 'sup-key')).then(answer);
    const b = await routes.suppressions.POST(post('/api/suppressions', body, 'sup-key')).then(answer);
    expect(a).toMatchObject({ status: 200, replayed: false });
    expect(b).toMatchObject({ status: 200, replayed: true, body: a.body });
    expect(await db().select().from(suppressions).where(eq(suppressions.tenantId, tenantId))).toHaveLength(1);
  });

  it('POST /api/staff twice with one key → one invitation and the same answer', async () => {
    const body = { name: 'Nia New', email: 'nia@idem.test', role: 'staff' };
    const [a, b] = await Promise.all([routes.staff.POST(post('/api/staff', body, 'staff-key')).then(answer), routes.staff.POST(post('/api/staff', body, 'staff-key')).then(answer)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body).toEqual(b.body);
    expect(await db().select().from(staffInvitations).where(eq(staffInvitations.email, 'nia@idem.test'))).toHaveLength(1);
    expect(await db().select().from(auditLog).where(and(eq(auditLog.tenantId, tenantId), eq(auditLog.action, 'staff_invite')))).toHaveLength(1);
  });
});

describe('booking a person again after a cancellation', () => {
  it('book, cancel, book again → two bookings: the new one confirmed with scheduled reminders, the old one\'s reminders stay cancelled; the audit says re-booking', async () => {
    const eventId = await newEvent();
    const first = await book(eventId, person(20), 'rebook-1');
    const ctx = { tenantId, actor: 'admin@idem.test', now: new Date('2027-06-01T10:00:00Z') };
    const [opened] = await db().select({ version: bookings.version }).from(bookings).where(eq(bookings.id, first.body.id!));
    await cancelBookingAction(db(), ctx, first.body.id!, { reason: 'could not come', version: opened.version });
    const again = await book(eventId, person(20), 'rebook-2');
    expect(again).toMatchObject({ status: 200, replayed: false });
    expect(again.body.id).not.toBe(first.body.id);

    const rows = await db().select().from(bookings).where(eq(bookings.eventId, eventId));
    expect(rows).toHaveLength(2);
    const old = rows.find((b) => b.id === first.body.id)!;
    const live = rows.find((b) => b.id === again.body.id)!;
    expect(old.status).toBe('cancelled');
    expect(live.status).toBe('confirmed');
    expect(live.contactId).toBe(old.contactId);
    const rem = await db().select().from(reminders).where(eq(reminders.eventId, eventId));
    expect(rem.filter((r) => r.bookingId === old.id).map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    expect(rem.filter((r) => r.bookingId === live.id).map((r) => r.status)).toEqual(['scheduled', 'scheduled']);

    const audits = await bookingAudits(eventId);
    expect(audits.map((a) => a.details)).toEqual([
      expect.not.objectContaining({ rebook: true }),
      expect.objectContaining({ bookingId: live.id, rebook: true, previousBookingId: old.id }),
    ]);

    // The event page shows both: the live booking and the cancelled one as history.
    const page = await getEventPage(db(), tenantId, eventId);
    expect(page!.bookings.map((b) => [b.id, b.status])).toEqual([
      [live.id, 'confirmed'],
      [old.id, 'cancelled'],
    ]);

    // A person with a LIVE booking is still refused.
    const third = await book(eventId, person(20), 'rebook-3');
    expect(third.status).toBe(409);
    expect(third.body.error).toMatch(/already booked/);
    expect(await countOf(bookings, eventId)).toBe(2);
  });
});
