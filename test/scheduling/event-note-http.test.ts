/**
 * The event's note for participants over real HTTP against real PostgreSQL (POST /api/events, PUT /api/events/:id): a
 * note that is not text, too long, or in a language Punctual writes no messages in is a 400 naming `eventNote`, and
 * nothing is stored (no event created; the edited event keeps its note and its row version); a good note is stored
 * normalised; a save without `eventNote` keeps the stored note; a stale save is a 409 whose `current` carries the note.
 */
import { hashPassword } from 'better-auth/crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { events } from '@/db/schema';
import { createTenant } from '@/server/organisations/tenants';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { signIn, startRouteServer, type RouteServer } from '@/test/support/route-server';

const PASSWORD = 'correct-horse-battery';
let tdb: TestDatabase;
let s: RouteServer;

beforeAll(async () => {
  tdb = await createTestDatabase();
  s = await startRouteServer(tdb.url, [
    { pattern: /^\/api\/auth\//, load: () => import('@/app/api/auth/[...all]/route') },
    { pattern: /^\/api\/events$/, load: () => import('@/app/api/events/route') },
    { pattern: /^\/api\/events\/(?<id>[^/]+)$/, load: () => import('@/app/api/events/[id]/route') },
  ]);
});
afterAll(async () => {
  await s?.close();
  await tdb?.close();
});

const form = { title: 'Glaze Night', timeZone: 'Europe/Amsterdam', start: '2027-03-11T19:30', end: '2027-03-11T22:00' };

describe('the note for participants at the event API', () => {
  it('400 naming eventNote for a bad note, nothing stored; a good note stored normalised; absent keeps it; stale is 409 with the note', async () => {
    const slug = `en-${Date.now().toString(36)}`;
    const tenant = await createTenant(tdb.db, { slug, name: 'Klei', timeZone: 'Europe/Amsterdam' });
    await insertStaffUser(tdb.db, { tenantId: tenant.id, email: `staff@${slug}.test`, name: 'Staff', role: 'staff', passwordHash: await hashPassword(PASSWORD) });
    const cookie = await signIn(s, `staff@${slug}.test`, PASSWORD);
    const stored = async () => tdb.db.select({ eventNote: events.eventNote, version: events.version }).from(events).where(eq(events.tenantId, tenant.id));

    const bad: [string, unknown, string][] = [
      ['not text', { nl: 42 }, 'the note in nl must be text'],
      ['a string instead of languages', 'Bring an apron', 'must be an object'],
      ['too long', { '': 'x'.repeat(501) }, 'is 501 characters long; at most 500'],
      ['an unknown language', { xx: 'Hallo' }, '"xx" is not a language Punctual writes messages in'],
    ];
    for (const [what, eventNote, message] of bad) {
      const r = await s.call('POST', '/api/events', { cookie, body: { ...form, eventNote } });
      expect([what, r.status, r.json.field]).toEqual([what, 400, 'eventNote']);
      expect(String(r.json.error ?? r.json.message)).toContain(message);
    }
    expect(await stored()).toEqual([]);

    const created = await s.call('POST', '/api/events', { cookie, body: { ...form, eventNote: { nl: ' Neem een schort mee ', '': 'Bring an apron', de: '  ' } } });
    expect(created.status).toBe(200);
    const id = String(created.json.id);
    expect(await stored()).toEqual([{ eventNote: { '': 'Bring an apron', nl: 'Neem een schort mee' }, version: 1 }]);

    for (const [what, eventNote] of bad) {
      const r = await s.call('PUT', `/api/events/${id}`, { cookie, body: { ...form, eventNote, version: 1 } });
      expect([what, r.status, r.json.field]).toEqual([what, 400, 'eventNote']);
    }
    expect(await stored()).toEqual([{ eventNote: { '': 'Bring an apron', nl: 'Neem een schort mee' }, version: 1 }]);

    // Without eventNote (an older client): the note stays; the save changes nothing, so the version stays too.
    expect((await s.call('PUT', `/api/events/${id}`, { cookie, body: { ...form, version: 1 } })).status).toBe(200);
    expect(await stored()).toEqual([{ eventNote: { '': 'Bring an apron', nl: 'Neem een schort mee' }, version: 1 }]);

    const edited = await s.call('PUT', `/api/events/${id}`, { cookie, body: { ...form, eventNote: { nl: 'Neem een schort mee' }, version: 1 } });
    expect([edited.status, edited.json.version]).toEqual([200, 2]);
    const stale = await s.call('PUT', `/api/events/${id}`, { cookie, body: { ...form, eventNote: {}, version: 1 } });
    expect(stale.status).toBe(409);
    expect((stale.json.current as { eventNote: unknown }).eventNote).toEqual({ nl: 'Neem een schort mee' });
    // {} clears it (stored as null).
    expect((await s.call('PUT', `/api/events/${id}`, { cookie, body: { ...form, eventNote: {}, version: 2 } })).status).toBe(200);
    expect(await stored()).toEqual([{ eventNote: null, version: 3 }]);
  });
});
