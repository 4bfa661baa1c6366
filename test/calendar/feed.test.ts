/**
 * A contact's calendar feed over HTTP against real PostgreSQL (app/feeds/[file]/route.ts, server/calendar/
 * calendar-feed.ts): the feed lists the booking with its invitation's UID and SEQUENCE (the same derivation as the
 * invitation email), alarms only when switched on and then at the planned reminders' offsets, an ETag answered 304,
 * and after a rotation the old URL answers 404 like a tampered one — the same body, not saying which.
 */
import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog } from '@/db/schema';
import { changeFeed, feedViewOf } from '@/server/calendar/calendar-feed';
import { feedSecrets } from '@/server/calendar/feed-link';
import { cancelBooking } from '@/server/scheduling/bookings';
import { rescheduleEvent } from '@/server/scheduling/events';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { eventWithBooking, tenantWithRules } from '@/test/support/fixtures';
import { startRouteServer, type RouteServer } from '@/test/support/route-server';

let t: TestDatabase;
let server: RouteServer;
const db = () => t.db;
const NOW = new Date();

beforeAll(async () => {
  t = await createTestDatabase();
  server = await startRouteServer(t.url, [{ pattern: /^\/feeds\/(?<file>[^/]+)$/, load: () => import('@/app/feeds/[file]/route') }]);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});
beforeEach(() => t.reset());

const opts = () => ({ baseUrl: server.origin, secret: feedSecrets()[0] });
const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });
const vevents = (text: string) => new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');

async function booked() {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D' }, { offset: '-PT2H' }]);
  const startsAt = new Date(NOW.getTime() + 10 * 86_400_000).toISOString();
  const { event, booking } = await eventWithBooking(db(), tenant.id, { startsAt, timeZone: 'Europe/Amsterdam', title: 'Pottery workshop' }, NOW, { email: 'ana@example.org' });
  const ctx = { tenantId: tenant.id, actor: 'staff@example.org', now: NOW };
  return { tenant, event, booking, ctx };
}

describe('GET /feeds/<token>.ics', () => {
  it('lists the booking with the invitation UID and SEQUENCE; alarms only when on, at the planned reminders; ETag → 304', async () => {
    const { tenant, event, booking, ctx } = await booked();
    const view = await feedViewOf(db(), tenant.id, booking.contactId, opts());
    expect(view.webcal).toMatch(/^webcal:\/\/127\.0\.0\.1:\d+\/feeds\/[^/]+\.ics$/);
    const res = await get(view.url!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('METHOD:PUBLISH');
    const [e] = vevents(text);
    expect(e.getFirstPropertyValue('uid')).toBe(`booking-${booking.id}@punctual`);
    expect(e.getFirstPropertyValue('sequence')).toBe(0);
    expect(e.getAllSubcomponents('valarm')).toHaveLength(0);

    const etag = res.headers.get('etag')!;
    expect((await get(view.url!, { 'if-none-match': etag })).status).toBe(304);

    // A reschedule: the next invitation is SEQUENCE 1, and so is the feed's entry.
    await rescheduleEvent(db(), tenant.id, event.id, { startsAt: new Date(event.startsAt.getTime() + 3_600_000), endsAt: new Date(event.endsAt.getTime() + 3_600_000), timeZone: event.timeZone }, NOW);
    const moved = await get(view.url!, { 'if-none-match': etag });
    expect(moved.status).toBe(200);
    expect(vevents(await moved.text())[0].getFirstPropertyValue('sequence')).toBe(1);

    const on = await changeFeed(db(), ctx, booking.contactId, { version: 0, alarms: true }, { rotate: false, ...opts() });
    expect(on).toMatchObject({ alarms: true, version: 1, generation: 0, url: view.url });
    const withAlarms = vevents(await (await get(view.url!)).text())[0];
    expect(withAlarms.getAllSubcomponents('valarm').map((a) => String(a.getFirstPropertyValue('trigger')))).toEqual(['-P1D', '-PT2H']);

    // A cancelled booking leaves the feed.
    await cancelBooking(db(), tenant.id, booking.id, 'test', NOW);
    expect(vevents(await (await get(view.url!)).text())).toHaveLength(0);
  });

  it('after rotation the old URL gives 404 (like a tampered token), the new one works; audited; a stale version is a 409', async () => {
    const { tenant, booking, ctx } = await booked();
    const before = await feedViewOf(db(), tenant.id, booking.contactId, opts());
    expect((await get(before.url!)).status).toBe(200);

    const rotated = await changeFeed(db(), ctx, booking.contactId, { version: 0 }, { rotate: true, ...opts() });
    expect(rotated).toMatchObject({ generation: 1, version: 1, rotatedBy: 'staff@example.org' });
    expect(rotated.url).not.toBe(before.url);

    const old = await get(before.url!);
    expect(old.status).toBe(404);
    const tampered = await get(before.url!.replace(/.\.ics$/, (m) => (m[0] === 'A' ? 'B' : 'A') + '.ics'));
    expect(tampered.status).toBe(404);
    expect(await old.text()).toBe(await tampered.text());
    expect((await get(rotated.url!.replace(/\.ics$/, ''))).status).toBe(404);
    expect((await get(rotated.url!)).status).toBe(200);

    const audit = await db().select().from(auditLog).where(eq(auditLog.tenantId, tenant.id));
    expect(audit.filter((a) => a.action === 'calendar_feed_rotate').map((a) => a.details)).toEqual([{ contactId: booking.contactId, generation: 1, alarms: false, previousGeneration: 0 }]);

    await expect(changeFeed(db(), ctx, booking.contactId, { version: 0 }, { rotate: true, ...opts() })).rejects.toMatchObject({ code: 'conflict', field: 'version' });
    await expect(changeFeed(db(), ctx, booking.contactId, {}, { rotate: true, ...opts() })).rejects.toMatchObject({ code: 'validation', field: 'version' });
    expect((await get(rotated.url!)).status).toBe(200);
  });
});
