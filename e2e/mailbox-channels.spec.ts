/**
 * The mailbox's three tabs (issue #9 §9): `npm start` runs a built-in SMS API and webhook receiver beside the
 * mail catcher, and /mailbox shows what they caught. The demo contact Ada takes booking updates by SMS only
 * (server/seed.ts) and the demo tenant's webhook points at the built-in receiver, so booking her onto a new
 * event sends a booking confirmation by SMS and a signed webhook delivery. This spec follows both into the
 * mailbox — list rows (from → to, text, segments; type, webhook-id, verified) and detail pages — at desktop
 * width and at 375 px, where no page may scroll sideways. Screenshots: mailbox-sms-*.png, mailbox-webhook-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { bookViaApi, createEventViaApi, expectAccessible, screen, unique } from './support';

const ADA = { name: 'Ada Lovelace', email: 'ada@demo.punctual.local', phone: '+447911123456' };

/** Fails when the page is wider than the window (wide content must scroll inside its own box). */
async function expectNoSideways(page: Page, label: string) {
  const w = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(w.scrollWidth, `${label}: page wider than the window`).toBeLessThanOrEqual(w.clientWidth);
}

/** Reloads `url` until `locator` matches at least one element. */
async function waitForRow(page: Page, url: string, row: ReturnType<Page['locator']>, what: string) {
  await expect
    .poll(
      async () => {
        await page.goto(url);
        return row.count();
      },
      { timeout: 60_000, intervals: [1000, 2000], message: what },
    )
    .toBeGreaterThan(0);
}

test('an SMS and a webhook delivery show in the mailbox tabs, at desktop and 375 px', async ({ page }) => {
  const title = unique('Glaze night');
  const eventId = await createEventViaApi(page, title, { start: '2031-05-06T19:00', end: '2031-05-06T21:00' });
  const bookingId = await bookViaApi(page, eventId, { name: ADA.name, email: ADA.email });

  // SMS: the booking confirmation to Ada's phone, from the demo tenant's sender.
  const smsRow = page.locator('table.sms-table tbody tr', { hasText: title });
  await waitForRow(page, '/mailbox?channel=sms', smsRow, 'the booking confirmation SMS in the SMS tab');
  const tabs = page.getByRole('navigation', { name: 'Channels' });
  await expect(tabs.getByRole('link', { name: /^SMS \d+$/ })).toHaveAttribute('aria-current', 'page');
  await expect(tabs.getByRole('link', { name: /^Email \d+$/ })).toBeVisible();
  await expect(tabs.getByRole('link', { name: /^Webhooks \d+$/ })).toBeVisible();
  expect(Number((await tabs.locator('[data-channel="sms"] .count').textContent()) ?? '0')).toBeGreaterThan(0);
  await expect(smsRow).toHaveCount(1);
  await expect(smsRow).toContainText(`+15005550006 → ${ADA.phone}`);
  await expect(smsRow.locator('[data-segments]')).toHaveText(/^\d+ segments? · (GSM-7|UCS-2)$/);
  await expectAccessible(page, 'mailbox SMS tab');
  await screen(page, 'mailbox-sms-1360');

  await smsRow.locator('a').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`SMS to ${ADA.phone}`);
  await expect(page.locator('.message-facts')).toContainText('+15005550006');
  await expect(page.locator('.message-id')).toHaveText(/^SM[0-9a-f]{32}$/);
  await expect(page.locator('dd[data-segments]')).toHaveText(/^\d+ segments? · (GSM-7|UCS-2) · \d+ characters, \d+ (septets|UTF-16 units)$/);
  await expect(page.locator('pre.message-text')).toContainText(title);
  await expectAccessible(page, 'SMS detail');
  const smsUrl = page.url();
  await screen(page, 'mailbox-sms-detail-1360');

  // Webhooks: the booking_confirmed delivery for this booking (its webhook-id is the message key, which names
  // the booking), verified with the tenant's secret.
  const hookRow = page.locator('table.webhook-table tbody tr', { hasText: bookingId });
  await waitForRow(page, '/mailbox?channel=webhook', hookRow, 'the booking_confirmed webhook in the Webhooks tab');
  await expect(tabs.getByRole('link', { name: /^Webhooks \d+$/ })).toHaveAttribute('aria-current', 'page');
  await expect(hookRow).toHaveCount(1);
  await expect(hookRow.locator('a.row-title')).toHaveText('booking_confirmed');
  await expect(hookRow.locator('code.webhook-id')).toHaveText(new RegExp(`^ntf:[0-9a-f-]+:booking_confirmed:${bookingId}:r1:[0-9a-f-]+:webhook$`));
  await expect(hookRow).toHaveAttribute('data-verified', 'yes');
  await expect(hookRow).toContainText('verified: yes');
  await expectAccessible(page, 'mailbox Webhooks tab');
  await screen(page, 'mailbox-webhook-1360');

  await hookRow.locator('a.row-title').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('booking_confirmed');
  await expect(page.locator('dd[data-verified]')).toHaveAttribute('data-verified', 'yes');
  await expect(page.locator('dd[data-verified]')).toContainText('signature valid');
  const json = page.locator('pre.message-json');
  await expect(json).toContainText('"type": "booking_confirmed"');
  await expect(json).toContainText(`"title": "${title}"`);
  await expect(json).toContainText(`"email": "${ADA.email}"`);
  await expectAccessible(page, 'webhook detail');
  const hookUrl = page.url();
  await screen(page, 'mailbox-webhook-detail-1360');

  // The Email tab is the default and still lists mail only.
  await page.goto('/mailbox');
  await expect(tabs.getByRole('link', { name: /^Email \d+$/ })).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('table.sms-table, table.webhook-table')).toHaveCount(0);

  // 375 px: every one of these pages fits the window; long values and the JSON wrap or scroll in their own box.
  await page.setViewportSize({ width: 375, height: 800 });
  for (const [url, name] of [
    ['/mailbox?channel=sms', 'mailbox-sms-375'],
    [smsUrl, 'mailbox-sms-detail-375'],
    ['/mailbox?channel=webhook', 'mailbox-webhook-375'],
    [hookUrl, 'mailbox-webhook-detail-375'],
    ['/mailbox', 'mailbox-email-375'],
  ] as const) {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(tabs.or(page.locator('.breadcrumb')).first()).toBeVisible();
    await expectNoSideways(page, url);
    await screen(page, name);
  }
  // The JSON box is no wider than the content column.
  await page.goto(hookUrl);
  const box = await json.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(375);
});
