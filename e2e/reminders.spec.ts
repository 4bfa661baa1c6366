/**
 * The dashboard's tiles open lists that show what they count (issue #12):
 *  - "Expired" opens /reminders?status=expired, which lists an expired reminder (it has no delivery, so the
 *    deliveries log could never show it): a person booked on an event starting in 3 minutes gets a "day before"
 *    reminder planned after its expiry instant, and a "starting soon" reminder due 2 minutes ago — sent at once,
 *    counted on the dashboard as planned late, not as 2 minutes of dispatch lag;
 *  - "Due in the next hour" opens the upcoming reminders of the events starting in minutes;
 *  - "Dead letters" lands on Needs attention, where a dead letter can be replayed;
 *  - the list works at 375 px without sideways scrolling, and a viewer may read it;
 *  - staff-facing text shows no raw ISO instant: the list, Needs attention, the audit log, and the alerts page with
 *    the alert messages' subjects (of the alert a dead letter of the spec's own sets off; e2e/alerts.spec.ts reads a
 *    whole alert email).
 * Screenshots: reminders-expired-1360, reminders-expired-375, reminders-upcoming-1360, dashboard-attention-tile,
 * dashboard-375, dashboard-late-planned.
 */
import { type Page } from '@playwright/test';
import { bookViaApi, createEventViaApi, expect, expectAccessible, faultyCase, sameOrigin, screen, test, unique } from './support';

/** An ISO-8601 date and time as `toISOString()` writes it. */
const ISO_INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

const tileValue = async (page: Page, id: string) => Number(await page.locator(`[data-tile="${id}"] .stat-value`).textContent());

/** "YYYY-MM-DDTHH:mm" in UTC for `ms` from now (the event form's local time, with the event in UTC). */
const utcLocal = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 16);

/** The words a person reads on the page (no markup, no machine-readable attributes). */
const visibleText = (page: Page) => page.evaluate(() => document.body.innerText);

async function expectNoIsoInstant(page: Page, what: string) {
  expect(await visibleText(page), `${what} shows a raw ISO instant`).not.toMatch(ISO_INSTANT);
}

test('a late booking: the Expired tile lists its expired reminder, the lag chart counts its late send apart; the due tile lists what is coming up; 375 px', async ({ page }) => {
  // A participant booked on an event 3 minutes from now: their "day before" reminder was useful until ~22 h ago
  // (stored expired), their "starting soon" one was due 2 minutes ago (sent at once: planned late).
  const title = unique('Booked too late');
  const eventId = await createEventViaApi(page, title, { start: utcLocal(3 * 60_000), end: utcLocal(63 * 60_000), timeZone: 'UTC' });
  const email = `${unique('late')}@example.test`;
  await bookViaApi(page, eventId, { name: 'Lou Late', email });

  // The dashboard counts that send as planned late, and the lag stays the scheduler's: under 10 s, not minutes.
  await page.goto('/');
  const late = page.getByTestId('late-planned');
  await expect
    .poll(
      async () => {
        await page.reload();
        return (await late.count()) > 0 ? Number(await late.getAttribute('data-count')) : 0;
      },
      { timeout: 45_000, message: 'the late-planned send counted on the dashboard' },
    )
    .toBeGreaterThanOrEqual(1);
  await expect(late).toContainText(/Planned late: \d+\./);
  await expect(late).toContainText('not counted as lag');
  await expect(page.getByTestId('lag-summary')).toContainText(/Worst hourly p95: \d\.\d s /);
  await screen(page, 'dashboard-late-planned');

  expect(await tileValue(page, 'expired')).toBeGreaterThanOrEqual(1);
  await page.locator('[data-tile="expired"]').click();
  await expect(page).toHaveURL(/\/reminders\?status=expired&window=24h$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Reminders' })).toBeVisible();
  await expect(page.getByLabel('Status')).toHaveValue('expired');
  await expect(page.getByLabel('Within')).toHaveValue('24h');
  const row = page.locator('table.reminders-table tbody tr', { hasText: email });
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-status', 'expired');
  await expect(row.getByRole('link', { name: title })).toHaveAttribute('href', `/events/${eventId}`);
  await expect(row).toContainText('Lou Late');
  await expect(row).toContainText('Day before');
  // The due instant in the event's zone (UTC here), the viewer's zone and UTC on hover; the reason without ISO.
  await expect(row.locator('td[data-label="Due"] time').first()).toHaveText(/^\w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC$/);
  await expect(row.locator('td[data-label="Due"] time').first()).toHaveAttribute('title', /UTC/);
  await expect(row.locator('.status-reason')).toContainText('planned after its expiry instant');
  // Every row of the list counts in the tile: "Showing 1–N of N" where N ≤ the tile (which also counts deliveries out of retry time).
  await expect(page.locator('.pager')).toContainText(/Showing 1–\d+ of \d+/);
  await expectNoIsoInstant(page, '/reminders?status=expired');
  await expectAccessible(page, 'reminders (expired)');
  await screen(page, 'reminders-expired-1360');

  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(row).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await screen(page, 'reminders-expired-375');
  await page.goto('/');
  // Measured once the dashboard has drawn (its charts size themselves to their card after the first paint).
  await expect(page.getByTestId('lag-summary')).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 5_000 }).toBeLessThanOrEqual(375);
  await screen(page, 'dashboard-375');
  await page.setViewportSize({ width: 1360, height: 900 });

  // "Due in the next hour": events starting in minutes, soonest first, each still waiting.
  await page.goto('/');
  const due = await tileValue(page, 'due-1h');
  await page.locator('[data-tile="due-1h"]').click();
  await expect(page).toHaveURL(/\/reminders\?status=upcoming&window=1h$/);
  const rows = page.locator('table.reminders-table tbody tr');
  // Reminders keep going out while this runs: the list holds at most what the tile counted a moment ago.
  if (due > 0) await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeLessThanOrEqual(due);
  for (const status of await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-status')))) expect(['scheduled', 'dispatched']).toContain(status);
  await expectNoIsoInstant(page, '/reminders?status=upcoming');
  await screen(page, 'reminders-upcoming-1360');
});

test('the Dead letters tile lands on Needs attention, where the dead letter can be replayed', async ({ page }) => {
  // A dead letter of this spec's own (its organisation has no seeded one).
  const { email } = await faultyCase(page, 'tile', 'deny-once');
  await page.goto('/');
  expect(await tileValue(page, 'dead')).toBeGreaterThanOrEqual(1);
  await page.locator('[data-tile="dead"]').click();
  await expect(page).toHaveURL(/\/attention$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Needs attention');
  const card = page.locator('section.case-card', { hasText: email });
  await expect(card.locator('[data-kind="delivery"]')).toHaveAttribute('data-status', 'dead');
  await expect(card).toContainText('5.7.1');
  await expect(card.getByRole('button', { name: 'Replay', exact: true })).toBeVisible();
  await expectNoIsoInstant(page, '/attention');
  await screen(page, 'dashboard-attention-tile');
});

test('alert texts, the alerts page and the audit log show times in the tenant’s zone, never a raw ISO instant', async ({ browser, contextAs }) => {
  const ctx = await contextAs('admin');
  try {
    const page = await ctx.newPage();
    // A dead letter of this test's own sets off an alert (this organisation has no seeded history): the alerts page
    // lists the subjects of the alerts dead letters and unknown outcomes set off (the email's subject line). The
    // alert is evaluated here and by the worker's minute sweep, after the quiet period (2 s: playwright.config.ts).
    await faultyCase(page, 'alert-subject', 'deny-once');
    const subjects = page.locator(
      'table.alert-messages tbody tr[data-transition="started"]:is([data-condition="dead_letters"], [data-condition="unknown_outcomes"]) td[data-label="Alert"] .muted',
    );
    await expect
      .poll(
        async () => {
          const r = await page.request.post('/api/alert-settings/check', { headers: sameOrigin() });
          expect(r.status(), await r.text()).toBe(200);
          await page.goto('/alerts');
          return subjects.count();
        },
        { timeout: 45_000, intervals: [1_000, 2_000], message: 'a dead-letter alert on the alerts page' },
      )
      .toBeGreaterThan(0);
    await expect(subjects.first()).toBeVisible();
    for (const text of await subjects.allInnerTexts()) {
      expect(text).toMatch(/first at \w{3} \d{1,2} \w{3} \d{4}, \d\d:\d\d:\d\d CES?T$/);
      expect(text).not.toMatch(ISO_INSTANT);
    }
    await expectNoIsoInstant(page, '/alerts');

    // An audited action whose details hold instants: a reschedule (from → to).
    const eventId = await createEventViaApi(page, unique('Moved'), { start: '2031-03-03T10:00', end: '2031-03-03T11:00' });
    const timeline = (await (await page.request.get(`/api/events/${eventId}/timeline`)).json()) as { event: { version: number } };
    const moved = await page.request.put(`/api/events/${eventId}`, {
      headers: sameOrigin(),
      data: { title: 'Moved', timeZone: 'Europe/Amsterdam', allDay: false, start: '2031-03-04T10:00', end: '2031-03-04T11:00', version: timeline.event.version },
    });
    expect(moved.status(), await moved.text()).toBe(200);
    await page.goto('/audit');
    await expect(page.locator('tr[data-action="event_reschedule"]').first()).toBeVisible();
    await expectNoIsoInstant(page, '/audit');
  } finally {
    await ctx.close();
  }
});

test.describe('read-only role', () => {
  test.use({ role: 'viewer' });

  test('a viewer reads the reminders list', async ({ page }) => {
    await page.goto('/reminders?status=upcoming&window=all');
    await expect(page.getByRole('heading', { level: 1, name: 'Reminders' })).toBeVisible();
    await expect(page.locator('table.reminders-table tbody tr').first()).toBeVisible();
  });
});
