/**
 * The text editor's live preview over real HTTP against real PostgreSQL: POST /api/message-texts/:kind/:locale/preview
 * renders an unsaved draft — `{eventTitel}` is the save's 400 (naming the variable, listing the known ones) and nothing
 * is stored; with a real booking chosen, the participant's event title and name are in the email and the SMS, with
 * the SMS segment count; every role may preview, a viewer may not save or send a test (403).
 */
import { hashPassword } from 'better-auth/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { messageTexts, orgTestMessages } from '@/db/schema';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { createTenant } from '@/server/organisations/tenants';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { signIn, startRouteServer, type RouteServer } from '@/test/support/route-server';

const PASSWORD = 'correct-horse-battery';
let tdb: TestDatabase;
let s: RouteServer;
const text = '(?<kind>[^/]+)/(?<locale>[^/]+)';

beforeAll(async () => {
  tdb = await createTestDatabase();
  s = await startRouteServer(tdb.url, [
    { pattern: /^\/api\/auth\//, load: () => import('@/app/api/auth/[...all]/route') },
    { pattern: new RegExp(`^/api/message-texts/${text}$`), load: () => import('@/app/api/message-texts/[kind]/[locale]/route') },
    { pattern: new RegExp(`^/api/message-texts/${text}/preview$`), load: () => import('@/app/api/message-texts/[kind]/[locale]/preview/route') },
    { pattern: new RegExp(`^/api/message-texts/${text}/test$`), load: () => import('@/app/api/message-texts/[kind]/[locale]/test/route') },
  ]);
});
afterAll(async () => {
  await s?.close();
  await tdb?.close();
});

const german = { subject: 'Erinnerung: {eventTitle}', body: 'Guten Tag,\n\n**{eventTitle}** beginnt {when}.\n\n- Bitte eine Schürze mitbringen.', sms: '{tenantName}: {eventTitle}, {when}.' };
const path = '/api/message-texts/attendee-reminder/de';

describe('POST /api/message-texts/:kind/:locale/preview', () => {
  it('400 for {eventTitel}; a real participant’s event in the preview; viewers preview but may not save or send a test', async () => {
    const slug = `pv-${Date.now().toString(36)}`;
    const tenant = await createTenant(tdb.db, { slug, name: 'Keramik Studio', timeZone: 'Europe/Berlin' });
    const hash = await hashPassword(PASSWORD);
    await insertStaffUser(tdb.db, { tenantId: tenant.id, email: `admin@${slug}.test`, name: 'Admin', role: 'admin', passwordHash: hash });
    await insertStaffUser(tdb.db, { tenantId: tenant.id, email: `viewer@${slug}.test`, name: 'Viewer', role: 'viewer', passwordHash: hash });
    const event = await createEvent(tdb.db, tenant.id, { title: 'Glasurabend für Fortgeschrittene', startsAt: '2031-03-11T18:30:00Z', endsAt: '2031-03-11T21:00:00Z', timeZone: 'Europe/Berlin' });
    const booking = await addBooking(tdb.db, tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'jonas@example.test', name: 'Jonas Berger', locale: 'de' } }, new Date('2031-03-01T10:00:00Z'));
    const admin = await signIn(s, `admin@${slug}.test`, PASSWORD);
    const viewer = await signIn(s, `viewer@${slug}.test`, PASSWORD);

    const bad = await s.call('POST', `${path}/preview`, { cookie: admin, body: { ...german, body: 'Guten Tag,\n\n{eventTitel} beginnt {when}.' } });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ field: 'body', variable: 'eventTitel', line: 3 });
    expect(bad.json.error).toContain('{eventTitel} is not a variable of this message — did you mean {eventTitle}?');
    expect(bad.json.errors).toEqual([expect.objectContaining({ field: 'body', line: 3, column: 1, variable: 'eventTitel', known: ['eventTitle', 'when', 'allDay', 'eventNote', 'tenantName'] })]);
    expect(await tdb.db.select().from(messageTexts).where(eq(messageTexts.tenantId, tenant.id))).toEqual([]);

    // The real participant: their event's title in subject, body and SMS, their name in the greeting, German dates.
    const real = await s.call('POST', `${path}/preview`, { cookie: viewer, body: { ...german, bookingId: booking.id } });
    expect(real.status, real.text).toBe(200);
    expect(real.json.subject).toBe('Erinnerung: Glasurabend für Fortgeschrittene');
    expect(real.json.html).toMatch(/<strong>.*Glasurabend für Fortgeschrittene.*<\/strong>/);
    expect(real.json.text).toContain('Jonas Berger');
    expect(real.json.text).toContain('Bitte eine Schürze mitbringen.');
    expect(real.json.text).toMatch(/März/);
    expect(real.json.sms).toMatch(/^Keramik Studio: Glasurabend für Fortgeschrittene, .+. Einstellungen: https?:\/\/\S+$/);
    expect(real.json.smsSegments).toEqual({ segments: expect.any(Number), encoding: 'GSM-7', characters: [...(real.json.sms as string)].length });
    expect((real.json.smsSegments as { segments: number }).segments).toBeGreaterThanOrEqual(2);
    expect(real.json.participant).toEqual({ bookingId: booking.id, contactName: 'Jonas Berger', eventTitle: 'Glasurabend für Fortgeschrittene' });
    for (const part of [real.json.subject, real.json.text, real.json.sms] as string[]) expect(part).not.toMatch(/\{|\}|undefined|Invalid DateTime/);

    // Without a booking: the kind's sample data, in the organisation's name.
    const sample = await s.call('POST', `${path}/preview`, { cookie: admin, body: german });
    expect(sample.status).toBe(200);
    expect(sample.json).toMatchObject({ participant: null, subject: 'Erinnerung: Intro workshop' });
    expect(sample.json.sms).toMatch(/^Keramik Studio: Intro workshop, /);

    // A booking of no organisation here is a 404 naming bookingId.
    const other = await s.call('POST', `${path}/preview`, { cookie: admin, body: { ...german, bookingId: '00000000-0000-4000-8000-000000000001' } });
    expect([other.status, other.json.field]).toEqual([404, 'bookingId']);

    // A viewer reads and previews, but may not save a draft or send a test.
    expect((await s.call('PUT', path, { cookie: viewer, body: { ...german, rowVersion: 0 } })).status).toBe(403);
    expect((await s.call('POST', `${path}/test`, { cookie: viewer, body: german })).status).toBe(403);
    expect(await tdb.db.select().from(orgTestMessages).where(eq(orgTestMessages.tenantId, tenant.id))).toEqual([]);
    // The admin's test is queued for the admin's own address.
    const test = await s.call('POST', `${path}/test`, { cookie: admin, body: { ...german, bookingId: booking.id } });
    expect(test.status, test.text).toBe(200);
    expect(test.json).toMatchObject({ to: `admin@${slug}.test`, status: 'pending' });
  });
});
