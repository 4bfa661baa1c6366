/**
 * Page layout at a phone (375×800) and a desktop (1360×900) viewport: no staff page is wider than the window
 * (`documentElement.scrollWidth <= clientWidth`: wide content scrolls inside its own box, never the page), and
 * an event's reminder timeline keeps its long message keys inside the participant's card at 375 px.
 *
 * The data is made here so the audit log and the timeline hold the long tokens that used to overflow: an
 * event is booked, nudged (a `nudge:…` message key in the timeline and in the audit details) and rescheduled
 * (a "starts at: … → …" detail). Screenshots: layout-dashboard-375.png, layout-audit-1360.png,
 * layout-event-375.png.
 */
import { type Page } from '@playwright/test';
import { bookViaApi, createEventViaApi, expect, keepTimelinesOpen, sameOrigin, screen, test, unique } from './support';

// The event page folds each participant's timeline; these checks read the timelines.
test.beforeEach(async ({ page }) => keepTimelinesOpen(page));

const PAGES = ['/', '/audit', '/events', '/deliveries', '/attention', '/suppressions', '/rules', '/staff', '/templates', '/notifications', '/alerts', '/mailbox', '/mailbox?channel=sms', '/mailbox?channel=webhook'] as const;
const VIEWPORTS = [
  { width: 375, height: 800 },
  { width: 1360, height: 900 },
] as const;

/** The page's horizontal extent against the window's, in CSS px. */
const pageWidths = (page: Page) =>
  page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));

let eventId = '';
let bookingId = '';

test.beforeAll(async ({ tenants }, testInfo) => {
  const context = await tenants.contextAs(await tenants.of(testInfo), 'staff');
  const page = await context.newPage();
  try {
    eventId = await createEventViaApi(page, unique('Layout check with a rather long event title'), { start: '2031-03-04T10:00', end: '2031-03-04T11:00' });
    bookingId = await bookViaApi(page, eventId, { name: 'Lena Layout', email: `${unique('lena-layout-with-a-long-address')}@example.test` });
    const nudge = await page.request.post(`/api/bookings/${bookingId}/nudge`, {
      headers: sameOrigin(),
      data: { template: 'attendee-reminder', idempotencyKey: unique('layout') },
    });
    expect(nudge.status(), await nudge.text()).toBe(200);
    // Reschedule only once the nudge went out: a reschedule supersedes a nudge still waiting (it would name
    // the old time), and this spec needs the nudge's message key in the timeline.
    await expect
      .poll(
        async () => {
          const t = (await (await page.request.get(`/api/events/${eventId}/timeline`)).json()) as { bookings: { reminders: { kind: string; delivery: { status: string } | null }[] }[] };
          return t.bookings.flatMap((b) => b.reminders).some((r) => r.kind === 'nudge' && r.delivery && ['accepted', 'delivered'].includes(r.delivery.status));
        },
        { timeout: 30_000, message: 'the nudge is handed to the mail server' },
      )
      .toBe(true);
    const moved = await page.request.put(`/api/events/${eventId}`, {
      headers: { ...sameOrigin(), 'if-match': '"1"' },
      data: { title: 'Layout check, moved', timeZone: 'Europe/Amsterdam', allDay: false, start: '2031-03-05T14:30', end: '2031-03-05T15:30' },
    });
    expect(moved.status(), await moved.text()).toBe(200);
  } finally {
    await context.close();
  }
});

for (const viewport of VIEWPORTS) {
  test(`no page is wider than a ${viewport.width}×${viewport.height} window`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const overflowing: string[] = [];
    for (const path of PAGES) {
      await page.goto(path);
      await expect(page.locator('h1').first()).toBeVisible();
      if (path === '/') {
        // The nudge made in beforeAll is the last 24 hours' send: reload until the server renders both summaries
        // (the page reads the attempts when it renders), then wait without reloading for the charts to draw them:
        // recharts draws its SVG in the browser once the page has hydrated, which takes seconds on a busy machine,
        // and a reload before that starts it over.
        await expect
          .poll(
            async () => {
              await page.reload();
              return page.locator('[data-testid="lag-summary"], [data-testid="outcomes-summary"]').count();
            },
            { timeout: 45_000, message: 'both dashboard summaries rendered' },
          )
          .toBe(2);
        for (const chart of ['lag', 'outcomes']) {
          await expect(page.locator(`.chart-box[data-chart="${chart}"] svg`).first(), `the ${chart} chart drawn`).toBeVisible({ timeout: 30_000 });
        }
      }
      if (path === '/audit') {
        await expect(page.locator('.audit-table tbody tr').first()).toBeVisible();
        if (viewport.width === 375) {
          // Phones: one labelled card per entry (like the deliveries list), not a table scrolling sideways.
          expect(await page.locator('.audit-table thead').evaluate((el) => getComputedStyle(el).position)).toBe('absolute');
          expect(await page.locator('.audit-table tbody tr').first().evaluate((el) => getComputedStyle(el).display)).toBe('block');
          await expect(page.locator('.audit-table tbody tr').first().locator('td[data-label="Action"]')).toBeVisible();
        } else {
          // Desktop: the whole table fits its box (no column hidden past the right edge).
          const fit = await page.locator('.audit-table').evaluate((t) => ({ table: t.scrollWidth, box: t.parentElement!.clientWidth }));
          expect(fit.table, 'audit table width at 1360 px').toBeLessThanOrEqual(fit.box);
        }
      }
      if (path === '/deliveries') {
        // A phone number never breaks inside: its text takes one line (one client rect per line it spans).
        for (const link of await page.locator('table.deliveries-table tr[data-channel="sms"] td[data-label="To"] a').all()) {
          const lines = await link.evaluate((el) => {
            const r = document.createRange();
            r.selectNodeContents(el);
            return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size;
          });
          expect(lines, `phone number ${await link.textContent()} on one line`).toBe(1);
        }
      }
      const w = await pageWidths(page);
      if (w.scrollWidth > w.clientWidth) overflowing.push(`${path}: scrollWidth ${w.scrollWidth} > clientWidth ${w.clientWidth}`);
      if (path === '/' && viewport.width === 375) await screen(page, 'layout-dashboard-375');
      if (path === '/audit' && viewport.width === 1360) await screen(page, 'layout-audit-1360');
    }
    expect(overflowing, 'pages wider than the window').toEqual([]);
  });
}

test('at 375 px the reminder timeline fits the participant card; the message key is on the delivery page', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/events/${eventId}`);
  const card = page.locator(`[data-booking-id="${bookingId}"]`);
  // The timeline shows no raw message key; its delivery link leads to the page that does.
  const link = card.locator('.timeline-row[data-kind="nudge"] a.delivery-link');
  await expect(link).toBeVisible();
  await expect(card.locator('code.message-key')).toHaveCount(0);
  const cardBox = (await card.boundingBox())!;
  const rows = card.locator('.timeline-row');
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    // The row's own content fits it (nothing clipped by the card's overflow: hidden) ...
    const fits = await row.evaluate((el) => el.scrollWidth <= el.clientWidth);
    expect(fits, `timeline row ${i} is no wider than its box`).toBe(true);
    const b = (await row.boundingBox())!;
    expect(b.x + b.width, `row ${i} ends inside the card`).toBeLessThanOrEqual(cardBox.x + cardBox.width + 1);
  }
  const w = await pageWidths(page);
  expect(w.scrollWidth).toBeLessThanOrEqual(w.clientWidth);
  await screen(page, 'layout-event-375');
  // The delivery's page shows the message key (and the provider's Message-ID once accepted).
  await link.click();
  await expect(page).toHaveURL(/\/deliveries\//);
  await expect(page.locator('p.mono', { hasText: 'nudge:' })).toBeVisible();
});
