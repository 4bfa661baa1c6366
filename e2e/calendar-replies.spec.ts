/**
 * Calendar replies and the personal calendar feed, as staff use them: two replies arrive through the signed inbound
 * webhook (an Outlook decline from an address that is not the booking's → not counted; Google's accept from the booked
 * address → applied: attendance confirmed), and the Calendar replies page lists them with their outcome, at desktop width and at 375 px.
 * From the event page a participant's "Calendar feed" opens their contact page: the webcal address serves the booking
 * with its invitation UID; "Rotate feed address" (confirmed in a dialog) gives a new address and the old one answers
 * 404. Screenshots: calendar-replies, calendar-replies-375, contact-feed, contact-feed-rotate, contact-feed-375.
 */
import { createHmac } from 'node:crypto';
import { replyFor } from '../test/calendar/itip-harness';
import { bookViaApi, createEventViaApi, expect, expectAccessible, noWiderThan, screen, test, unique } from './support';

const SECRET = 'e2e-inbound-reply-secret';
const sign = (raw: Buffer) => `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`;

test('staff see calendar replies and rotate a person’s feed (desktop and 375 px)', async ({ page }) => {
  const title = unique('Pottery workshop');
  const eventId = await createEventViaApi(page, title);
  const ana = await bookViaApi(page, eventId, { name: 'Ana López', email: 'ana.lopez@example.org' });
  const bo = await bookViaApi(page, eventId, { name: 'Bo Berg', email: `${unique('bo')}@example.org` });

  const unsigned = await page.request.post('/api/replies/inbound', { headers: { 'content-type': 'message/rfc822' }, data: replyFor('outlook-declined.eml', bo) });
  expect(unsigned.status()).toBe(401);
  for (const [file, id, outcome] of [
    ['outlook-declined.eml', bo, 'unmatched'],
    ['google-accepted.eml', ana, 'applied'],
  ] as const) {
    const raw = replyFor(file, id);
    const res = await page.request.post('/api/replies/inbound', { headers: { 'content-type': 'message/rfc822', 'x-punctual-signature': sign(raw) }, data: raw });
    expect(res.status(), await res.text()).toBe(200);
    expect(((await res.json()) as { outcome: string }).outcome).toBe(outcome);
  }

  await page.goto(`/replies?event=${eventId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Calendar replies');
  const rows = page.locator('table.replies-table tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(page.locator('tr[data-outcome="unmatched"]')).toContainText("ATTENDEE ana.lopez@example.org is not the booking's address");
  await expect(page.locator('tr[data-outcome="unmatched"]')).toContainText('booking of Bo Berg');
  await expect(page.locator('tr[data-outcome="applied"]')).toContainText('ACCEPTED');
  await expectAccessible(page, 'calendar replies');
  await screen(page, 'calendar-replies');
  await page.setViewportSize({ width: 375, height: 800 });
  await noWiderThan(page, 375);
  await screen(page, 'calendar-replies-375');
  await page.setViewportSize({ width: 1360, height: 900 });

  // The event page leads to Ana's contact page and her feed.
  await page.goto(`/events/${eventId}`);
  const row = page.locator('article', { hasText: 'Ana López' }).first();
  await row.locator('summary.participant-summary').click();
  await row.getByTestId('contact-feed-link').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ana López');
  const webcal = page.getByTestId('feed-webcal');
  await expect(webcal).toHaveText(/^webcal:\/\/.+\/feeds\/[^/]+\.ics$/);
  const before = (await webcal.textContent())!;
  const httpUrl = before.replace(/^webcal:/, new URL(page.url()).protocol);
  const feed = await page.request.get(httpUrl);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  expect(await feed.text()).toContain(`UID:booking-${ana}@punctual`);
  await expectAccessible(page, 'contact feed');
  await screen(page, 'contact-feed');

  await page.getByTestId('rotate-feed').click();
  const dialog = page.getByRole('dialog', { name: 'New feed address for Ana López?' });
  await expect(dialog).toContainText('stops working at once');
  await screen(page, 'contact-feed-rotate');
  await dialog.getByRole('button', { name: 'Rotate address' }).click();
  await expect(webcal).not.toHaveText(before);
  expect((await page.request.get(httpUrl)).status()).toBe(404);
  const after = (await webcal.textContent())!.replace(/^webcal:/, new URL(page.url()).protocol);
  expect((await page.request.get(after)).status()).toBe(200);

  await page.setViewportSize({ width: 375, height: 800 });
  await noWiderThan(page, 375);
  await screen(page, 'contact-feed-375');
});
