/** Tenant isolation: a tenant-A id in a tenant-B session answers 404 — pages and APIs, reads and writes. */
import { bookViaApi, createEventViaApi, expect, expectAccessible, sameOrigin, screen, test, unique } from './support';

test('a demo event, booking and delivery are invisible to the partner tenant', async ({ browser, page, contextAs, tenant }) => {
  const title = unique('Tenant A only');
  const eventId = await createEventViaApi(page, title);
  const bookingId = await bookViaApi(page, eventId, { name: 'Ada Isolated', email: `${unique('ada')}@example.test` });
  const nudge = await page.request.post(`/api/bookings/${bookingId}/nudge`, { headers: sameOrigin(), data: { template: 'attendee-reminder', idempotencyKey: unique('tenancy') } });
  expect(nudge.status()).toBe(200);
  await expect.poll(async () => {
    const t = (await (await page.request.get(`/api/events/${eventId}/timeline`)).json()) as { bookings: { reminders: { delivery: { id: string } | null }[] }[] };
    return t.bookings[0]?.reminders.find((r) => r.delivery)?.delivery?.id ?? null;
  }).not.toBeNull();
  const t = (await (await page.request.get(`/api/events/${eventId}/timeline`)).json()) as { bookings: { reminders: { delivery: { id: string } | null }[] }[] };
  const deliveryId = t.bookings[0].reminders.find((r) => r.delivery)!.delivery!.id;

  const partner = await contextAs('partner');
  const p = await partner.newPage();
  for (const url of [`/events/${eventId}`, `/events/${eventId}/edit`, `/deliveries/${deliveryId}`]) {
    const res = await p.goto(url);
    expect(res?.status(), url).toBe(404);
    await expect(p.locator('body')).not.toContainText(title);
  }
  await expect(p.getByText('Not found')).toBeVisible();
  await expectAccessible(p, 'not-found');
  await screen(p, 'not-found-other-tenant');
  const origin = sameOrigin();
  expect((await p.request.get(`/api/events/${eventId}/timeline`)).status()).toBe(404);
  expect((await p.request.get(`/api/bookings/${bookingId}/preview?template=attendee-reminder`)).status()).toBe(404);
  expect((await p.request.post(`/api/bookings/${bookingId}/nudge`, { headers: origin, data: { template: 'attendee-reminder', idempotencyKey: unique('x') } })).status()).toBe(404);
  expect((await p.request.post(`/api/bookings/${bookingId}/cancel`, { headers: origin, data: { reason: 'other tenant', version: 1 } })).status()).toBe(404);
  expect((await p.request.post(`/api/events/${eventId}/cancel`, { headers: origin, data: { reason: 'other tenant', version: 1 } })).status()).toBe(404);
  expect((await p.request.post(`/api/events/${eventId}/bookings`, { headers: origin, data: { name: 'X', email: 'x@example.test', role: 'attendee' } })).status()).toBe(404);
  expect((await p.request.post(`/api/deliveries/${deliveryId}/discard`, { headers: origin, data: { reason: 'other tenant' } })).status()).toBe(404);
  // Partner may not book people as guests of its own in demo's name: demo never agreed.
  const partnerEvent = await p.request.post('/api/events', { headers: origin, data: { title: unique('Spoof'), timeZone: 'UTC', start: '2030-01-01T10:00', end: '2030-01-01T11:00' } });
  const spoof = await p.request.post(`/api/events/${((await partnerEvent.json()) as { id: string }).id}/bookings`, { headers: origin, data: { name: 'Victim', email: 'victim@anywhere.test', role: 'external', guestTenant: tenant.slug } });
  expect(spoof.status()).toBe(400);
  expect(await spoof.json()).toMatchObject({ field: 'guestTenant' });
  // Lists in the partner tenant do not show tenant A's event.
  await p.goto(`/events`);
  await expect(p.locator('body')).not.toContainText(title);
  await partner.close();
  // And it is all still there for tenant A.
  const again = (await (await page.request.get(`/api/events/${eventId}/timeline`)).json()) as { event: { status: string }; bookings: { status: string }[] };
  expect(again.event.status).toBe('scheduled');
  expect(again.bookings[0].status).toBe('confirmed');
});
