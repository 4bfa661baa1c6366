/**
 * Text-direction controls in text people type (Unicode TR9 embedding / override / isolate controls U+202A–U+202E and
 * U+2066–U+2069, the "Trojan Source" characters of CVE-2021-42574): every route that takes typed text reaching a
 * message refuses them with a 400 naming the field, and writes nothing — called through the real route handlers,
 * with a signed-in admin, against real PostgreSQL. The CSV import reports them per row, naming the name column.
 * Right-to-left text itself (Hebrew, Arabic, with its LRM/RLM marks) is accepted.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { auditLog, bookings, contacts, events, reminderRules, staffUsers, suppressions, tenants } from '@/db/schema';
import { csvDigest } from '@/domain/people/participant-csv';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { ensureStaffUser } from '@/server/accounts/staff';
import { tenantWithRules } from '@/test/support/fixtures';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';

const ORIGIN = 'http://127.0.0.1:3997';
const PASSWORD = 'typed-text-pass';
const RLO = '\u202e';

let tdb: TestDatabase;
let tenantId: string;
let cookie: string;
let savedEnv: { url?: string; secret?: string; publicUrl?: string };
const db = (): Db => tdb.db;

beforeAll(async () => {
  tdb = await createTestDatabase();
  // The route handlers use the process-wide pool and better-auth instance: point them at this file's database.
  savedEnv = { url: process.env.DATABASE_URL, secret: process.env.BETTER_AUTH_SECRET, publicUrl: process.env.PUNCTUAL_PUBLIC_URL };
  process.env.DATABASE_URL = tdb.url;
  process.env.PUNCTUAL_PUBLIC_URL = ORIGIN;
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-typed-text-routes-0123456789';
  const g = globalThis as { __punctualDb?: unknown; __punctualAuth?: unknown };
  delete g.__punctualDb;
  delete g.__punctualAuth;
  const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D', name: 'day before', audience: ['attendee', 'external', 'host'] }]);
  tenantId = tenant.id;
  await ensureStaffUser(db(), tenantId, { email: 'admin@typed.test', name: 'Tia Admin', role: 'admin', password: PASSWORD });
  const { getAuth } = await import('@/server/accounts/auth');
  const res = await getAuth().api.signInEmail({ body: { email: 'admin@typed.test', password: PASSWORD }, headers: new Headers({ host: '127.0.0.1:3997', origin: ORIGIN }), asResponse: true });
  expect(res.status).toBe(200);
  cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
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

interface Answer {
  status: number;
  body: { error?: string; field?: string; [k: string]: unknown };
}

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Calls a route handler as Next does: a real Request from our own origin, with the admin's session cookie. */
async function call(handler: Handler, method: string, path: string, body: unknown, params: Record<string, string> = {}, contentType = 'application/json'): Promise<Answer> {
  const req = new Request(`${ORIGIN}${path}`, {
    method,
    headers: { host: '127.0.0.1:3997', origin: ORIGIN, cookie, 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const res = await handler(req, { params: Promise.resolve(params) });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

/** Row counts of every table these routes write, for "nothing was stored". */
async function counts() {
  const n = async (table: typeof events | typeof bookings | typeof contacts | typeof staffUsers | typeof reminderRules | typeof suppressions | typeof auditLog) =>
    (await db().select({ n: count() }).from(table))[0]!.n;
  return { events: await n(events), bookings: await n(bookings), contacts: await n(contacts), staff: await n(staffUsers), rules: await n(reminderRules), suppressions: await n(suppressions), audit: await n(auditLog) };
}

/** Expects a 400 naming `field`, its message naming the character, and no row written anywhere. */
async function expectRefused(run: () => Promise<Answer>, field: string, codePoint = 'U+202E RIGHT-TO-LEFT OVERRIDE') {
  const before = await counts();
  const r = await run();
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.field).toBe(field);
  expect(r.body.error).toMatch(new RegExp(`^${field.replace('.', '\\.')}: must not contain ${codePoint.replace('+', '\\+')} \\(text-direction controls`));
  expect(await counts()).toEqual(before);
}

let n = 0;
const newEvent = async () =>
  createEvent(db(), tenantId, { title: `Glaze day ${++n}`, location: 'Studio 2', startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T12:00:00Z', timeZone: 'Europe/Warsaw' });
const eventForm = { title: 'Intro workshop', description: 'Bring an apron.', location: 'Studio 1', roomUrl: '', timeZone: 'Europe/Amsterdam', allDay: false, start: '2027-06-15T10:00', end: '2027-06-15T12:00' };

describe('events: title, location, description, room link', () => {
  it.each([
    ['title', { title: `Intro ${RLO}pohskrow` }],
    ['location', { location: `Studio${RLO} 1` }],
    ['description', { description: `Bring an apron.\n${RLO}Or not.` }],
    ['roomUrl', { roomUrl: `https://meet.example/room${RLO}` }],
  ])('POST /api/events with a right-to-left override in %s → 400 naming it, no event', async (field, change) => {
    const { POST } = await import('@/app/api/events/route');
    await expectRefused(() => call(POST as Handler, 'POST', '/api/events', { ...eventForm, ...change }), field);
  });

  it.each([
    ['\u202a', 'U+202A LEFT-TO-RIGHT EMBEDDING'],
    ['\u202b', 'U+202B RIGHT-TO-LEFT EMBEDDING'],
    ['\u202c', 'U+202C POP DIRECTIONAL FORMATTING'],
    ['\u202d', 'U+202D LEFT-TO-RIGHT OVERRIDE'],
    ['\u2066', 'U+2066 LEFT-TO-RIGHT ISOLATE'],
    ['\u2067', 'U+2067 RIGHT-TO-LEFT ISOLATE'],
    ['\u2068', 'U+2068 FIRST STRONG ISOLATE'],
    ['\u2069', 'U+2069 POP DIRECTIONAL ISOLATE'],
  ])('POST /api/events with %j in the title → 400 naming the title and %s', async (ch, name) => {
    const { POST } = await import('@/app/api/events/route');
    await expectRefused(() => call(POST as Handler, 'POST', '/api/events', { ...eventForm, title: `Intro ${ch}workshop` }), 'title', name);
  });

  it('PUT /api/events/:id with one in the location → 400, the event unchanged (version and texts)', async () => {
    const e = await newEvent();
    const { PUT } = await import('@/app/api/events/[id]/route');
    await expectRefused(() => call(PUT as Handler, 'PUT', `/api/events/${e.id}`, { ...eventForm, title: e.title, location: `Studio ${RLO}2`, version: e.version }, { id: e.id }), 'location');
    const [after] = await db().select().from(events).where(eq(events.id, e.id));
    expect(after).toMatchObject({ title: e.title, location: 'Studio 2', version: e.version });
  });

  it('Hebrew and Arabic titles and places, with their direction marks, are accepted as typed', async () => {
    const { POST } = await import('@/app/api/events/route');
    const r = await call(POST as Handler, 'POST', '/api/events', { ...eventForm, title: 'סדנת מבוא\u200f (2)', location: 'ورشة تمهيدية\u200e 4', description: 'Room 4 — חדר' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [e] = await db().select().from(events).where(eq(events.id, r.body.id as string));
    expect(e).toMatchObject({ title: 'סדנת מבוא\u200f (2)', location: 'ورشة تمهيدية\u200e 4', description: 'Room 4 — חדר' });
  });
});

describe('participants and contacts: names', () => {
  it('POST /api/events/:id/bookings with one in the name → 400 naming `name`, no contact, no booking', async () => {
    const e = await newEvent();
    const { POST } = await import('@/app/api/events/[id]/bookings/route');
    await expectRefused(() => call(POST as Handler, 'POST', `/api/events/${e.id}/bookings`, { name: `Ana ${RLO}avliS`, email: 'ana@typed.test', role: 'attendee' }, { id: e.id }), 'name');
  });

  it('PUT /api/bookings/:id/participant with one in the name → 400 naming `name`, the contact unchanged', async () => {
    const e = await newEvent();
    const b = await addBooking(db(), tenantId, { eventId: e.id, role: 'attendee', contact: { email: `bo${n}@typed.test`, name: 'Bo Berg' } }, new Date('2027-01-01T00:00:00Z'));
    const [before] = await db().select().from(contacts).where(eq(contacts.id, b.contactId));
    const { PUT } = await import('@/app/api/bookings/[id]/participant/route');
    await expectRefused(() => call(PUT as Handler, 'PUT', `/api/bookings/${b.id}/participant`, { name: `Bo \u2067Berg`, version: before!.version }, { id: b.id }), 'name', 'U+2067 RIGHT-TO-LEFT ISOLATE');
    const [after] = await db().select().from(contacts).where(eq(contacts.id, b.contactId));
    expect(after).toEqual(before);
  });

  it('POST /api/staff with one in the name (it greets them in the invitation email) → 400 naming `name`, no invitation, no account', async () => {
    const { POST } = await import('@/app/api/staff/route');
    await expectRefused(() => call(POST as Handler, 'POST', '/api/staff', { email: 'new@typed.test', name: `Nia ${RLO}weN`, role: 'staff', password: 'a-long-password-1' }), 'name');
  });
});

describe('reasons and notes', () => {
  it('POST /api/events/:id/cancel with one in the reason (it is quoted in the cancellation message) → 400, still scheduled', async () => {
    const e = await newEvent();
    const { POST } = await import('@/app/api/events/[id]/cancel/route');
    await expectRefused(() => call(POST as Handler, 'POST', `/api/events/${e.id}/cancel`, { reason: `Our model is ill ${RLO}.`, version: e.version }, { id: e.id }), 'reason');
    const [after] = await db().select().from(events).where(eq(events.id, e.id));
    expect(after!.status).toBe('scheduled');
  });

  it('POST /api/bookings/:id/cancel and the bulk cancel with one in the reason → 400, the booking stays', async () => {
    const e = await newEvent();
    const b = await addBooking(db(), tenantId, { eventId: e.id, role: 'attendee', contact: { email: `cy${n}@typed.test`, name: 'Cy' } }, new Date('2027-01-01T00:00:00Z'));
    const one = await import('@/app/api/bookings/[id]/cancel/route');
    await expectRefused(() => call(one.POST as Handler, 'POST', `/api/bookings/${b.id}/cancel`, { reason: `At your ${RLO}request`, version: b.version }, { id: b.id }), 'reason');
    const bulk = await import('@/app/api/events/[id]/bookings/cancel-selected/route');
    await expectRefused(
      () => call(bulk.POST as Handler, 'POST', `/api/events/${e.id}/bookings/cancel-selected`, { reason: `At your ${RLO}request`, bookings: [{ id: b.id, version: b.version }] }, { id: e.id }),
      'reason',
    );
    const [after] = await db().select().from(bookings).where(eq(bookings.id, b.id));
    expect(after!.status).not.toBe('cancelled');
  });

  it('POST /api/suppressions with one in the note → 400 naming `note`, nothing listed', async () => {
    const { POST } = await import('@/app/api/suppressions/route');
    await expectRefused(() => call(POST as Handler, 'POST', '/api/suppressions', { address: 'gone@typed.test', reason: 'manual', note: `asked ${RLO}by phone` }), 'note');
  });

  it('POST /api/deliveries/:id/discard and /mark-sent with one in the reason (shown on delivery pages and the audit log) → 400 naming `reason`', async () => {
    const { POST } = await import('@/app/api/deliveries/[id]/[action]/route');
    const id = '00000000-0000-4000-8000-0000000000d1';
    for (const action of ['discard', 'mark-sent']) {
      await expectRefused(() => call(POST as Handler, 'POST', `/api/deliveries/${id}/${action}`, { reason: `checked the ${RLO}provider log` }, { id, action }), 'reason');
    }
  });
});

describe('rules and organisation settings', () => {
  it('POST /api/rules with one in the rule name → 400 naming `name`, no rule', async () => {
    const { POST } = await import('@/app/api/rules/route');
    const rule = { name: `2 hours ${RLO}before`, anchor: 'start', offset: '-PT2H', audience: ['attendee'], channel: 'email', template: 'attendee-reminder', lateSendWindowSeconds: 3600, active: true, choice: 'new_only' };
    await expectRefused(() => call(POST as Handler, 'POST', '/api/rules', rule), 'name');
  });

  it('PUT /api/settings with one in the organisation name or sender name → 400 naming it, nothing saved', async () => {
    const { PUT } = await import('@/app/api/settings/route');
    const [t] = await db().select().from(tenants).where(eq(tenants.id, tenantId));
    const form = { name: t!.name, timeZone: t!.timeZone, senderName: '', senderEmail: t!.senderEmail, replyTo: '', locale: 'en', emailProvider: 'smtp', version: t!.version };
    await expectRefused(() => call(PUT as Handler, 'PUT', '/api/settings', { ...form, name: `Acme ${RLO}stnevE` }), 'name');
    await expectRefused(() => call(PUT as Handler, 'PUT', '/api/settings', { ...form, senderName: `Desk\u2066x` }), 'senderName', 'U+2066 LEFT-TO-RIGHT ISOLATE');
    const [after] = await db().select().from(tenants).where(eq(tenants.id, tenantId));
    expect(after).toEqual(t);
  });
});

describe('CSV participant import: a row problem naming the name column', () => {
  it('preview lists the row with a bad_name problem, the value shown with the control made visible; commit imports nothing', async () => {
    const e = await newEvent();
    const route = await import('@/app/api/events/[id]/import-csv/route');
    const text = `name,email\r\nZoë Nowak,zoe@typed.test\r\nEve ${RLO}live,eve@typed.test\r\n`;
    const before = await counts();
    const p = await call(route.POST as Handler, 'POST', `/api/events/${e.id}/import-csv?mode=preview`, text, { id: e.id }, 'text/csv; charset=utf-8');
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const preview = p.body as unknown as { withProblems: number; problemRows: { row: number; problems: { kind: string; field: string; message: string }[] }[] };
    expect(preview.withProblems).toBe(1);
    expect(preview.problemRows).toHaveLength(1);
    // The spreadsheet's row: the header is row 1.
    expect(preview.problemRows[0]!.row).toBe(2 + 1);
    expect(preview.problemRows[0]!.problems).toEqual([
      { kind: 'bad_name', field: 'name', message: expect.stringMatching(/^name "Eve <U\+202E>live": must not contain U\+202E RIGHT-TO-LEFT OVERRIDE \(/) },
    ]);
    // The message quoting the value holds no control itself.
    expect(preview.problemRows[0]!.problems[0]!.message).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    const c = await call(route.POST as Handler, 'POST', `/api/events/${e.id}/import-csv?mode=commit&digest=${csvDigest(text)}&file=people.csv`, text, { id: e.id }, 'text/csv; charset=utf-8');
    expect(c.status).toBe(409);
    expect(c.body.field).toBe('file');
    expect(await counts()).toEqual(before);
  });
});
