/**
 * Delivery reports in the demo (issue #10 §1–2): under `npm start` the built-in SMS API plays the carrier and POSTs a
 * signed `delivered` status callback to the web app's /api/reports/sms a moment after each SMS (scripts/start.ts
 * wires SMS_STATUS_CALLBACK_URL and SMS_AUTH_TOKEN). A person who takes booking updates by SMS is booked; their
 * confirmation SMS ends `delivered`, the timeline row lists the report under its attempt, and the delivery's page
 * shows it with what it did. A forged callback — from a client without a session — is refused by the signature
 * check (401 naming X-Twilio-Signature), not by the session check: the route is public, the signature is the
 * credential. Screenshots: reports-timeline-1360.png, reports-timeline-375.png, reports-delivery-375.png.
 */
import { type Page } from '@playwright/test';
import { bookViaApi, createEventViaApi, expect, expectAccessible, keepTimelinesOpen, sameOrigin, screen, test, unique } from './support';

// The event page folds each participant's timeline; these checks read the timelines.
test.beforeEach(async ({ page }) => keepTimelinesOpen(page));

interface Timeline {
  bookings: { contact: { id: string } | null; reminders: { channel: string; notificationType: string | null; delivery: { id: string; status: string } | null }[] }[];
}
const timeline = async (page: Page, eventId: string) => (await (await page.request.get(`/api/events/${eventId}/timeline`)).json()) as Timeline;

test('an SMS confirmation ends delivered by the provider’s signed report; a forged report is refused', async ({ page, playwright, baseURL }) => {
  const email = `${unique('rita-reports')}@example.test`;
  // A known person (booked before) who takes booking updates by SMS only.
  const warmUp = await createEventViaApi(page, unique('Reports warm-up'), { start: '2030-06-01T10:00', end: '2030-06-01T11:00' });
  await bookViaApi(page, warmUp, { name: 'Rita Reports', email });
  const contactId = (await timeline(page, warmUp)).bookings[0]!.contact!.id;
  const current = await page.request.get(`/api/contacts/${contactId}/preferences`);
  expect(current.status()).toBe(200);
  const { version } = (await current.json()) as { version: number };
  const saved = await page.request.put(`/api/contacts/${contactId}/preferences`, {
    headers: sameOrigin(),
    data: { preferences: { reminders: ['email'], booking_updates: ['sms'] }, quietHours: null, phone: '+31612345670', version },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  const eventId = await createEventViaApi(page, unique('Bookbinding'), { start: '2030-06-08T10:00', end: '2030-06-08T12:00' });
  await bookViaApi(page, eventId, { name: 'Rita Reports', email });
  let deliveryId = '';
  await expect
    .poll(
      async () => {
        const sms = (await timeline(page, eventId)).bookings.flatMap((b) => b.reminders).find((r) => r.channel === 'sms' && r.notificationType === 'booking_confirmed');
        deliveryId = sms?.delivery?.id ?? '';
        return sms?.delivery?.status ?? 'none';
      },
      { timeout: 30_000, message: 'the confirmation SMS is reported delivered by the built-in SMS API' },
    )
    .toBe('delivered');

  await page.goto(`/events/${eventId}`);
  const row = page.locator('.timeline-row[data-channel="sms"][data-notification-type="booking_confirmed"]');
  await expect(row).toHaveAttribute('data-delivery-status', 'delivered');
  await expect(row.locator('details.timeline-more summary')).toContainText('1 attempt · 1 report');
  await row.locator('details.timeline-more summary').click();
  const report = row.locator('.report-list li[data-report-kind="delivered"]');
  await expect(report).toHaveCount(1);
  await expect(report).toContainText('SMS status callback · accepted → delivered');
  await row.scrollIntoViewIfNeeded();
  await screen(page, 'reports-timeline-1360');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await row.locator('details.timeline-more summary').click();
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll, 'page width at 375 px').toBeLessThanOrEqual(widths.client);
  expect(await row.evaluate((el) => el.scrollWidth <= el.clientWidth), 'timeline row fits its box').toBe(true);
  await row.scrollIntoViewIfNeeded();
  await screen(page, 'reports-timeline-375');

  await page.goto(`/deliveries/${deliveryId}`);
  await expect(page.getByRole('heading', { name: 'Delivery reports' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Delivery reports' });
  await expect(list.locator('li')).toHaveCount(1);
  await expect(list.locator('li')).toContainText('delivered');
  await expect(list.locator('li')).toContainText('accepted → delivered');
  const w2 = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(w2.scroll, 'delivery page width at 375 px').toBeLessThanOrEqual(w2.client);
  await expectAccessible(page, 'delivery page with a report');
  await screen(page, 'reports-delivery-375');

  // A forged callback from a client with no session: the route answers it (no sign-in redirect), and refuses it.
  const anonymous = await playwright.request.newContext({ baseURL });
  try {
    const forged = await anonymous.post('/api/reports/sms', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'bm90LWEtc2lnbmF0dXJl' },
      data: new URLSearchParams({ MessageSid: 'SM00000000000000000000000000000000', MessageStatus: 'undelivered', ErrorCode: '21610' }).toString(),
    });
    expect(forged.status()).toBe(401);
    expect(((await forged.json()) as { error: string }).error).toContain('X-Twilio-Signature');
  } finally {
    await anonymous.dispose();
  }
});
