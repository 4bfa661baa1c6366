/**
 * The dashboard at `/` (issue #4 item 2): tiles with numbers and captions, each tile linking to the list it counts;
 * the dispatch-lag and provider-outcome charts drawn from the demo's history (dev/seed.ts: a working day's
 * messages sent on time over the past hours, issue #12 — so a fresh start shows a lag of well under a second and
 * nothing expired); text alternatives beside the charts; and the tenant scoping: the partner tenant, which sends
 * nothing, sees zeros and the charts' empty states. Screenshots: dashboard.png, dashboard-partner.png.
 */
import { type Page } from '@playwright/test';
import { expect, expectAccessible, screen, test } from './support';

// About the demo data `npm start` seeds (dev/seed.ts): the demo tenant, which no other spec changes.
test.use({ tenantKind: 'demo' });

const TILES = ['due-1h', 'due-24h', 'sent-today', 'failed', 'dead', 'unknown', 'expired'] as const;

const tileValue = async (page: Page, id: string) => Number(await page.locator(`[data-tile="${id}"] .stat-value`).textContent());

test('staff see counts, both charts of the last 24 hours and links to the filtered lists', async ({ page, baseURL }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('.page-head')).toContainText('times in Europe/Amsterdam');

  // Every tile shows a whole number and says what it counts over which period.
  for (const id of TILES) {
    await expect(page.locator(`[data-tile="${id}"] .stat-value`)).toHaveText(/^\d+$/);
    await expect(page.locator(`[data-tile="${id}"] .stat-caption`)).not.toBeEmpty();
  }
  await expect(page.locator('[data-tile="failed"] .stat-caption')).toContainText('Last 24 h');
  await expect(page.locator('[data-tile="dead"] .stat-caption')).toContainText('Any age');
  await expect(page.locator('[data-tile="sent-today"] .stat-caption')).toContainText(/since local midnight \(00:00 CES?T\)/);

  // The demo's history went out today (and its reminders keep going out): "sent today" is above 0.
  await expect
    .poll(
      async () => {
        await page.reload();
        return tileValue(page, 'sent-today');
      },
      { timeout: 45_000, message: 'a demo reminder accepted today' },
    )
    .toBeGreaterThan(0);
  // A fresh demo has nothing expired (issue #12: every reminder was planned before its due instant) — this spec runs
  // before any other spec books a late participant — one dead letter and one unknown outcome to act on.
  expect(await tileValue(page, 'expired')).toBe(0);
  expect(await tileValue(page, 'dead')).toBeGreaterThanOrEqual(1);
  expect(await tileValue(page, 'unknown')).toBeGreaterThanOrEqual(1);

  // Both charts render an SVG from real data, with a text summary and a table for screen readers.
  const lag = page.getByTestId('lag-figure');
  const outcomes = page.getByTestId('outcomes-figure');
  await expect(lag.locator('[data-chart="lag"] .recharts-wrapper > svg.recharts-surface')).toBeVisible();
  await expect(lag.locator('.recharts-line-dot').first()).toBeAttached();
  await expect(lag.getByTestId('lag-summary')).toContainText(/\d+ first attempts? in \d+ hours?\. Worst hourly p95: /);
  // The scheduler's lag, not minutes of late bookings: every hourly p95 under 10 s ("0.6 s", never "5 min 52 s").
  await expect(lag.getByTestId('lag-summary')).toContainText(/Worst hourly p95: \d\.\d s /);
  await expect(lag.locator('.visually-hidden table tbody tr').first()).toContainText(/\d{2}:\d{2} CES?T/);
  await expect(outcomes.locator('[data-chart="outcomes"] .recharts-wrapper > svg.recharts-surface')).toBeVisible();
  await expect(outcomes.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expect(outcomes.getByTestId('outcomes-summary')).toContainText(/^\d+ attempts?: \d+ accepted/);
  // Hour ticks are wall-clock hours in the tenant's zone.
  const hourTicks = outcomes.locator('.recharts-cartesian-axis-tick-value').filter({ hasText: /^\d{2}:\d{2}$/ });
  expect(await hourTicks.count()).toBeGreaterThanOrEqual(6);

  await expectAccessible(page, 'dashboard');
  await screen(page, 'dashboard');

  // Tiles link to the filtered lists they count.
  await expect(page.locator('[data-tile="dead"]')).toHaveAttribute('href', '/attention');
  await expect(page.locator('[data-tile="expired"]')).toHaveAttribute('href', '/reminders?status=expired&window=24h');
  await expect(page.locator('[data-tile="due-1h"]')).toHaveAttribute('href', '/reminders?status=upcoming&window=1h');
  await expect(page.locator('[data-tile="unknown"]')).toHaveAttribute('href', '/attention');
  await page.locator('[data-tile="sent-today"]').click();
  await expect(page).toHaveURL(/\/deliveries\?status=accepted&from=\d{4}-\d{2}-\d{2}$/);
  await expect(page.getByLabel('Status')).toHaveValue('accepted');
  await expect(page.locator('table.data-table tbody tr').first()).toBeVisible();
  expect(new URL(page.url()).origin).toBe(baseURL);
});

test.describe('another tenant', () => {
  test.use({ role: 'partner' });

  test('the partner tenant sees only its own numbers: zeros and the charts’ empty states', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(page.locator('.page-head')).toContainText('times in Europe/London');
    for (const id of TILES) await expect(page.locator(`[data-tile="${id}"] .stat-value`)).toHaveText('0');
    await expect(page.getByText('No sends in the last 24 hours')).toBeVisible();
    await expect(page.getByText('No send attempts in the last 24 hours')).toBeVisible();
    await expect(page.locator('svg.recharts-surface')).toHaveCount(0);
    await expectAccessible(page, 'dashboard (empty tenant)');
    await screen(page, 'dashboard-partner');
  });
});

test.describe('read-only role', () => {
  test.use({ role: 'viewer' });

  test('a viewer reads the dashboard too', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('current-role')).toHaveText('viewer');
    await expect(page.locator('[data-tile="sent-today"] .stat-value')).toHaveText(/^\d+$/);
  });
});
