/**
 * Channels everywhere the staff look (issue #9 §8, "Done when": a participant's timeline showing email, SMS
 * and webhook rows). In the spec's own organisation, set up like the demo started by scripts/start.ts — built-in
 * mail catcher, SMS API and webhook receiver; its webhook switched on; the default notification policy — a person who takes
 * booking updates by email AND SMS (mobile number and preferences set through `PUT /api/contacts/:id/
 * preferences`, or straight in the database where that API is not there) is added to an event by a staff member
 * through the event page's form, mobile number included. Their timeline then shows the confirmation three times — an Email, an SMS and a
 * Webhook row, each reaching its own accepted state, each with its own attempt — and on expand the SMS text
 * with its segment count and the webhook target. The deliveries log filters the same messages by channel.
 * The dashboard counts outcomes per channel; Needs attention says when the webhook endpoint was switched off;
 * every template shows its SMS segment line.
 * Screenshots: channels-timeline-1360.png, channels-timeline-375.png, channels-deliveries-375.png,
 * channels-dashboard-1360.png, channels-dashboard-375.png, channels-attention-375.png.
 */
import { type Page } from '@playwright/test';
import { connectPostgres } from '@/db/url';
import { templateIds } from '@/domain/vocabulary';
import { resolveDatabaseUrl } from '@/scripts/lib';
import { bookViaApi, createEventViaApi, expect, expectAccessible, keepTimelinesOpen, sameOrigin, screen, test, unique } from './support';

// The event page folds each participant's timeline; these checks read the timelines.
test.beforeEach(async ({ page }) => keepTimelinesOpen(page));

const PHONE = '+31612345678';
const PREFS = { reminders: ['email'], booking_updates: ['email', 'sms'] };
const WENT_OUT = /^(accepted|delivered)$/;

interface Timeline {
  bookings: { id: string; contact: { id: string; email: string } | null; reminders: { kind: string; channel: string; notificationType: string | null; delivery: { status: string } | null }[] }[];
}

async function timeline(page: Page, eventId: string): Promise<Timeline> {
  const res = await page.request.get(`/api/events/${eventId}/timeline`);
  expect(res.status()).toBe(200);
  return (await res.json()) as Timeline;
}

/**
 * Gives contact `contactId` a mobile number and booking updates by email and SMS: through the staff API when
 * the app has it, else directly in the app's database (the test's own connection). @returns which way it went.
 */
async function takeUpdatesByEmailAndSms(page: Page, contactId: string): Promise<'api' | 'db'> {
  const current = await page.request.get(`/api/contacts/${contactId}/preferences`);
  if (current.status() === 200) {
    const { version } = (await current.json()) as { version: number };
    const res = await page.request.put(`/api/contacts/${contactId}/preferences`, {
      headers: sameOrigin(),
      data: { preferences: PREFS, quietHours: null, phone: PHONE, version },
    });
    expect(res.status(), await res.text()).toBe(200);
    return 'api';
  }
  const url = resolveDatabaseUrl();
  expect(url, 'the app database (DATABASE_URL, or the embedded one of this npm start)').toBeTruthy();
  const sql = connectPostgres(url!, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`update contacts set phone = ${PHONE}, preferences = ${sql.json(PREFS)} where id = ${contactId} returning id`;
    expect(rows).toHaveLength(1);
  } finally {
    await sql.end();
  }
  return 'db';
}

test('a participant who takes booking updates by email and SMS: the confirmation shows as Email, SMS and Webhook rows, each accepted', async ({ page }) => {
  const email = `${unique('mo-channels')}@example.test`;
  // The person is known already (booked on another event), so their number and preferences can be set first.
  const earlier = await createEventViaApi(page, unique('Channels warm-up'), { start: '2031-05-01T10:00', end: '2031-05-01T11:00' });
  await bookViaApi(page, earlier, { name: 'Mo Reyes', email });
  const known = (await timeline(page, earlier)).bookings[0]!;
  const via = await takeUpdatesByEmailAndSms(page, known.contact!.id);
  test.info().annotations.push({ type: 'preferences', description: `set through ${via}` });

  // A staff member adds them to the event on the event page.
  const eventId = await createEventViaApi(page, unique('Glass blowing'), { start: '2031-05-08T10:00', end: '2031-05-08T12:00' });
  await page.goto(`/events/${eventId}`);
  const add = page.locator('form.add-participant');
  await add.getByLabel('Name').fill('Mo Reyes');
  await add.getByLabel('Email').fill(email);
  await add.getByLabel('Mobile number').fill('+31 6 12345678');
  await add.getByRole('button', { name: 'Add participant' }).click();
  await expect(add.getByRole('status')).toContainText('Mo Reyes is booked');

  const card = page.locator('[data-role-group="attendee"] [data-booking-id]', { hasText: 'Mo Reyes' });
  await expect(card).toContainText(PHONE);
  const confirmation = card.locator('.timeline-row[data-kind="notification"][data-notification-type="booking_confirmed"]');
  // One row per channel, each its own message reaching its own accepted state (the page refreshes every 2 s).
  await expect(confirmation).toHaveCount(3, { timeout: 30_000 });
  for (const [channel, label] of [
    ['email', 'Email'],
    ['sms', 'SMS'],
    ['webhook', 'Webhook'],
  ] as const) {
    const row = confirmation.and(page.locator(`[data-channel="${channel}"]`));
    await expect(row).toHaveCount(1);
    await expect(row.locator('.channel-badge')).toHaveText(label);
    await expect(row.locator('.rule-name')).toHaveText('Booking confirmed');
    await expect(row).toHaveAttribute('data-delivery-status', WENT_OUT, { timeout: 30_000 });
    await expect(row.locator('[data-kind="delivery"]')).toHaveAttribute('data-status', WENT_OUT);
    await expect(row.locator('.timeline-delivery')).toContainText('1 attempt');
  }
  // Not "(rule deleted)": a notification is titled by its type.
  await expect(card).not.toContainText('(rule deleted)');

  // Expanded: the SMS text with its segment count, the webhook's type and target, each attempt's outcome.
  const smsRow = confirmation.and(page.locator('[data-channel="sms"]'));
  await smsRow.locator('details.timeline-more summary').click();
  await expect(smsRow.locator('[data-subject="sms"] .sms-text')).toContainText('Glass blowing');
  await expect(smsRow.locator('.sms-segments')).toHaveText(/^\d+ segments? · (GSM-7|UCS-2) · \d+ characters/);
  await expect(smsRow.locator('.attempt-list li[data-attempt="1"]')).toHaveAttribute('data-outcome', 'accepted');
  const hookRow = confirmation.and(page.locator('[data-channel="webhook"]'));
  await hookRow.locator('details.timeline-more summary').click();
  await expect(hookRow.locator('[data-subject="webhook"]')).toContainText(/^booking_confirmed → https?:\/\/\S+/);
  const emailRow = confirmation.and(page.locator('[data-channel="email"]'));
  await emailRow.locator('details.timeline-more summary').click();
  await expect(emailRow.locator('[data-subject="email"]')).toContainText('Glass blowing');
  await expectAccessible(page, 'event with email, SMS and webhook rows');
  await card.scrollIntoViewIfNeeded();
  await screen(page, 'channels-timeline-1360');

  // At 375 px: nothing wider than the window, every row inside the participant's card.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(confirmation).toHaveCount(3);
  for (const row of await confirmation.all()) await row.locator('details.timeline-more summary').click();
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll, 'page width at 375 px').toBeLessThanOrEqual(widths.client);
  const cardBox = (await card.boundingBox())!;
  for (const row of await confirmation.all()) {
    expect(await row.evaluate((el) => el.scrollWidth <= el.clientWidth), 'timeline row fits its box').toBe(true);
    const b = (await row.boundingBox())!;
    expect(b.x + b.width).toBeLessThanOrEqual(cardBox.x + cardBox.width + 0.5);
  }
  await card.scrollIntoViewIfNeeded();
  await screen(page, 'channels-timeline-375');

  // The deliveries log: a channel column, and the channel filter finds the SMS by its number.
  await page.goto(`/deliveries?channel=sms&q=${encodeURIComponent(PHONE)}`);
  await expect(page.getByLabel('Channel')).toHaveValue('sms');
  const smsDeliveries = page.locator('table.deliveries-table tbody tr');
  await expect(smsDeliveries.first()).toBeVisible();
  for (const r of await smsDeliveries.all()) await expect(r).toHaveAttribute('data-channel', 'sms');
  await expect(smsDeliveries.filter({ hasText: 'Booking confirmed' }).first()).toBeVisible();
  const w375 = await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  expect(w375, 'deliveries page fits 375 px').toBe(true);
  await screen(page, 'channels-deliveries-375');
  await page.goto(`/deliveries?channel=webhook&q=${encodeURIComponent('booking_confirmed')}`);
  await expect(page.locator('table.deliveries-table tbody tr[data-channel="webhook"]').first()).toBeVisible();
  await expect(page.locator('table.deliveries-table tbody tr:not([data-channel="webhook"])')).toHaveCount(0);
});

test('the dashboard counts outcomes per channel, with a text summary', async ({ page }) => {
  await page.goto('/');
  const section = page.getByTestId('channel-outcomes');
  await expect(section.getByRole('heading', { name: 'Outcomes per channel, last 24 hours' })).toBeVisible();
  await expect
    .poll(
      async () => {
        await page.reload();
        return (await section.getByTestId('channel-summary').count()) > 0;
      },
      { timeout: 45_000, message: 'a send in the last 24 hours' },
    )
    .toBe(true);
  await expect(section.getByTestId('channel-summary')).toHaveText(/^By channel: email (no attempts|\d+ attempts?.*); SMS (no attempts|\d+ attempts?.*); webhook (no attempts|\d+ attempts?.*)\.$/);
  for (const c of ['email', 'sms', 'webhook']) await expect(section.locator(`tbody tr[data-channel="${c}"] td[data-count="total"]`)).toHaveText(/^\d+$/);
  await section.scrollIntoViewIfNeeded();
  await screen(page, 'channels-dashboard-1360');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(section.locator('.scroll-hint')).toBeVisible();
  // The table scrolls inside its own box, never the page.
  const box = section.locator('.scroll-table-box');
  expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await section.scrollIntoViewIfNeeded();
  await screen(page, 'channels-dashboard-375');
});

test('needs attention says when and why the webhook endpoint was switched off, with a link to the settings', async ({ page, tenant }) => {
  const url = resolveDatabaseUrl();
  expect(url, 'the app database').toBeTruthy();
  const sql = connectPostgres(url!, { max: 1, onnotice: () => {} });
  const reason = 'the receiver answered HTTP_410 on 2026-11-30T08:15:00.000Z';
  try {
    // As the send path records a 410 Gone (db/queries/scheduling/domain-events.ts disableWebhook), for this spec's organisation only.
    const off = await sql`update notification_settings set webhook_enabled = false, webhook_disabled_reason = ${reason},
      webhook_disabled_at = '2026-11-30T08:15:00Z' where tenant_id = (select id from tenants where slug = ${tenant.slug}) and webhook_enabled returning tenant_id`;
    expect(off, 'the organisation has a webhook endpoint switched on').toHaveLength(1);
    await page.goto('/attention');
    const banner = page.getByTestId('webhook-switched-off');
    // The stored reason's instant reads in the tenant's zone too, never as a raw ISO instant (issue #12).
    await expect(banner).toContainText('Webhook endpoint switched off on Mon 30 Nov 2026, 09:15 CET: the receiver answered HTTP_410 on Mon 30 Nov 2026, 09:15 CET');
    expect(await banner.innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    await expect(banner.getByRole('link', { name: /notification settings/ })).toHaveAttribute('href', '/notifications');
    // The channel filter narrows the cases; the banner stays.
    await page.getByLabel('Channel').selectOption('webhook');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page).toHaveURL(/\/attention\?channel=webhook$/);
    await expect(page.locator('.page-head')).toContainText('on the Webhook channel');
    await expect(banner).toBeVisible();
    await expectAccessible(page, 'needs attention with the webhook banner');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await screen(page, 'channels-attention-375');
  } finally {
    await sql`update notification_settings set webhook_enabled = true, webhook_disabled_reason = null, webhook_disabled_at = null
      where tenant_id = (select id from tenants where slug = ${tenant.slug}) and webhook_disabled_reason = ${reason}`;
    await sql.end();
  }
  await page.goto('/attention');
  await expect(page.getByTestId('webhook-switched-off')).toHaveCount(0);
});

test('the text editor shows each message kind’s SMS text with its segment count and encoding', async ({ page }) => {
  for (const id of templateIds) {
    await page.goto(`/templates/${id}/en`);
    await expect(page.getByTestId('sms-segments')).toHaveText(/^\d+ segments? · (GSM-7|UCS-2) · \d+ characters/);
  }
});
