/**
 * The announcement routes over real HTTP against real PostgreSQL: a viewer may read the list and the live preview but
 * not write or cancel (403); staff get the preview's counts per channel and one real recipient's message; a bad field
 * is a 400 JSON answer naming it; a repeated idempotency key answers the first announcement.
 */
import { hashPassword } from 'better-auth/crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { contacts } from '@/db/schema';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
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
    { pattern: /^\/api\/events\/(?<id>[^/]+)\/announcements$/, load: () => import('@/app/api/events/[id]/announcements/route') },
    { pattern: /^\/api\/events\/(?<id>[^/]+)\/announcements\/preview$/, load: () => import('@/app/api/events/[id]/announcements/preview/route') },
    { pattern: /^\/api\/announcements\/(?<id>[^/]+)\/cancel$/, load: () => import('@/app/api/announcements/[id]/cancel/route') },
  ]);
});
afterAll(async () => {
  await s?.close();
  await tdb?.close();
});

const texts = { nl: { subject: 'Neem een schort mee naar {eventTitle}', body: 'Hallo,\n\nNeem een **schort** mee.', sms: '' } };
const audience = { roles: ['attendee'], statuses: ['confirmed'], channels: ['email', 'sms'] };

describe('/api/events/:id/announcements', () => {
  it('viewer 403; preview counts per channel and renders for a real recipient; 400 names the field; a double click answers once', async () => {
    const slug = `an-${Date.now().toString(36)}`;
    const tenant = await createTenant(tdb.db, { slug, name: 'Keramiek Studio', timeZone: 'Europe/Amsterdam' });
    const hash = await hashPassword(PASSWORD);
    await insertStaffUser(tdb.db, { tenantId: tenant.id, email: `staff@${slug}.test`, name: 'Staff', role: 'staff', passwordHash: hash });
    await insertStaffUser(tdb.db, { tenantId: tenant.id, email: `viewer@${slug}.test`, name: 'Viewer', role: 'viewer', passwordHash: hash });
    const staff = await signIn(s, `staff@${slug}.test`, PASSWORD);
    const viewer = await signIn(s, `viewer@${slug}.test`, PASSWORD);
    const now = new Date();
    const event = await createEvent(tdb.db, tenant.id, { title: 'Glazuuravond', startsAt: new Date(now.getTime() + 7 * 86400_000).toISOString(), endsAt: new Date(now.getTime() + 7 * 86400_000 + 7200_000).toISOString(), timeZone: 'Europe/Amsterdam' });
    await addBooking(tdb.db, tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'jan@example.test', name: 'Jan', locale: 'nl' } }, now);
    const out = await addBooking(tdb.db, tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'out@example.test', name: 'Out' } }, now);
    await tdb.db.update(contacts).set({ preferences: { reminders: ['email'], booking_updates: ['email'], announcements: [] } }).where(eq(contacts.id, out.contactId));
    const path = `/api/events/${event.id}/announcements`;

    const forbidden = await s.call('POST', path, { cookie: viewer, body: { audience, texts, idempotencyKey: 'viewer-key-01' } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.error).toContain('read-only');

    const preview = await s.call('POST', `${path}/preview`, { cookie: viewer, body: { audience, texts } });
    expect(preview.status).toBe(200);
    expect(preview.json.count).toEqual({ people: 2, email: 1, sms: 0, optedOut: 1, unreachable: 0 });
    expect(preview.json.preview).toMatchObject({ name: 'Jan', language: 'nl', subject: 'Neem een schort mee naar Glazuuravond' });
    expect((preview.json.preview as { html: string }).html).toContain('Hallo Jan,'.replace('Hallo ', 'Hallo <span dir="auto">').replace(',', '</span>,'));
    const badPreview = await s.call('POST', `${path}/preview`, { cookie: staff, body: { audience: { ...audience, roles: ['vip'] } } });
    expect([badPreview.status, badPreview.json.field]).toEqual([400, 'audience.roles']);

    const bad = await s.call('POST', path, { cookie: staff, body: { audience, texts: { nl: { ...texts.nl, subject: '' } }, idempotencyKey: 'staff-key-001' } });
    expect([bad.status, bad.json.field]).toEqual([400, 'texts.nl.subject']);
    const first = await s.call('POST', path, { cookie: staff, body: { audience, texts, idempotencyKey: 'staff-key-002' } });
    const second = await s.call('POST', path, { cookie: staff, body: { audience, texts, idempotencyKey: 'staff-key-002' } });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.json.replayed, second.json.replayed]).toEqual([false, true]);
    const idOf = (a: { json: Record<string, unknown> }) => (a.json.announcement as { id: string }).id;
    expect(idOf(second)).toBe(idOf(first));

    const list = await s.call('GET', path, { cookie: viewer });
    expect((list.json.announcements as { id: string; status: string }[]).map((a) => [a.id, a.status])).toEqual([[idOf(first), 'scheduled']]);
    const cancelByViewer = await s.call('POST', `/api/announcements/${idOf(first)}/cancel`, { cookie: viewer, body: { version: 1 } });
    expect(cancelByViewer.status).toBe(403);
  });
});
