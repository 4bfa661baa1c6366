/**
 * The mailbox's three tabs (issue #9 §9): `npm start` runs a built-in SMS API and webhook receiver beside the
 * mail catcher, and /mailbox shows what they caught. The demo contact Ada takes booking updates by SMS only
 * (dev/seed.ts; the spec's organisation has her too, e2e/tenants.ts) and its webhook points at the built-in receiver, so booking her onto a new
 * event sends a booking confirmation by SMS and a signed webhook delivery. This spec follows both into the
 * mailbox — list rows (from → to, text, segments; type, webhook-id, verified) and detail pages — at desktop
 * width and at 375 px, where no page may scroll sideways. Screenshots: mailbox-sms-*.png, mailbox-webhook-*.png.
 *
 * A booking confirmation by email carries a calendar invitation (domain/calendar/calendar-invite.ts): its mailbox page
 * lists the attachments read from the raw source (invite.ics, each a download), shows the invitation's key
 * lines (METHOD, UID, SEQUENCE, DTSTART with its TZID) and links the raw source; the downloads are this tenant's
 * only (another tenant gets 404, a signed-out request 401). Screenshots: mailbox-email-invite-*.png.
 */
import { type Page } from '@playwright/test';
import { bookViaApi, createEventViaApi, expect, expectAccessible, screen, test, unique } from './support';

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

  // SMS: the booking confirmation to Ada's phone, from the organisation's SMS sender.
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

test('a booking confirmation email shows its invite.ics attachment and the invitation’s key lines, at desktop and 375 px', async ({ page, browser, contextAs }) => {
  const title = unique('Wheel class');
  const email = `${unique('ivy')}@example.test`;
  const eventId = await createEventViaApi(page, title, { start: '2031-05-06T19:00', end: '2031-05-06T21:00', timeZone: 'Europe/Amsterdam' });
  await bookViaApi(page, eventId, { name: 'Ivy Invite', email });

  // The booking confirmation (a booking update) to Ivy, in the Email tab.
  const row = page.locator('table.mailbox-table tbody tr[data-message-kind="notification"]', { hasText: email });
  await waitForRow(page, '/mailbox', row, 'the booking confirmation email in the Email tab');
  await expect(row).toHaveCount(1);
  await row.locator('a.row-title').click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(title);

  // Attachments: the text/calendar alternative and invite.ics, with type and size.
  const attachments = page.locator('.message-attachments');
  await expect(attachments.getByRole('heading', { level: 2 })).toHaveText(/^Attachments\s*2$/);
  const invite = attachments.locator('li[data-attachment="invite.ics"]');
  await expect(invite.getByRole('link', { name: 'invite.ics' })).toBeVisible();
  await expect(invite).toContainText(/application\/ics · \d+(\.\d)? (bytes|KB)/);
  await expect(attachments.locator('li', { hasText: 'text/calendar; method=REQUEST' })).toContainText('no file name');

  // The invitation's key lines, verbatim: a new booking is SEQUENCE 0, its start in the event's zone with TZID.
  const box = page.locator('.message-calendar');
  await expect(box.getByRole('heading', { level: 2 })).toHaveText('Calendar invitation');
  await expect(box.locator('[data-ics="METHOD"] code')).toHaveText('METHOD:REQUEST');
  await expect(box.locator('[data-ics="UID"] code')).toHaveText(/^UID:\S+$/);
  await expect(box.locator('[data-ics="SEQUENCE"] code')).toHaveText('SEQUENCE:0');
  await expect(box.locator('[data-ics="DTSTART"] code')).toHaveText('DTSTART;TZID=Europe/Amsterdam:20310506T190000');
  await expect(box.locator('[data-ics="DTEND"] code')).toHaveText('DTEND;TZID=Europe/Amsterdam:20310506T210000');
  await expectAccessible(page, 'email detail with attachments');
  await screen(page, 'mailbox-email-invite-1360');
  const detailUrl = page.url();

  // The download is the .ics file itself; the raw source is the whole message as text/plain.
  const href = (await invite.getByRole('link', { name: 'invite.ics' }).getAttribute('href'))!;
  expect(href).toMatch(/^\/api\/mailbox\/[0-9a-f-]{36}\/attachments\/\d+$/);
  const file = await page.request.get(href);
  expect(file.status()).toBe(200);
  expect(file.headers()['content-type']).toBe('application/ics');
  expect(file.headers()['content-disposition']).toMatch(/^attachment; filename="invite\.ics"/);
  const ics = await file.text();
  expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
  expect(ics).toContain('\r\nSEQUENCE:0\r\n');
  expect(ics).toContain('\r\nDTSTART;TZID=Europe/Amsterdam:20310506T190000\r\n');
  const rawHref = (await page.getByRole('link', { name: 'View raw source' }).getAttribute('href'))!;
  const raw = await page.request.get(rawHref);
  expect(raw.status()).toBe(200);
  expect(raw.headers()['content-type']).toBe('text/plain; charset=utf-8');
  expect(await raw.text()).toMatch(/^Content-Type: application\/ics; name=invite\.ics\r$/m);

  // Another tenant's staff and a signed-out browser get nothing.
  const partner = await contextAs('partner');
  const nobody = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  try {
    for (const url of [href, rawHref]) {
      expect((await partner.request.get(url)).status(), url).toBe(404);
      expect((await nobody.request.get(url)).status(), url).toBe(401);
    }
  } finally {
    await partner.close();
    await nobody.close();
  }

  // 375 px: the key lines and the attachment list wrap inside the content column.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(detailUrl);
  await expect(box.locator('[data-ics="DTSTART"] code')).toBeVisible();
  await expectNoSideways(page, detailUrl);
  for (const el of [box, attachments]) {
    const b = await el.boundingBox();
    expect(b && b.x + b.width).toBeLessThanOrEqual(375);
  }
  await screen(page, 'mailbox-email-invite-375');
});
