/**
 * The audit log at /audit (issue #4 item 7): an action staff take through the API shows up at the top with
 * who, the action in words, its subject (an address, or a link to the event) and reason; the action and
 * date filters narrow the list and survive paging; bad filter values are ignored; and another tenant never
 * sees the entry. Screenshots: audit.png, audit-filtered.png, audit-partner.png.
 */
import { type APIRequestContext } from '@playwright/test';
import { DateTime } from 'luxon';
import { expect, expectAccessible, screen, test, unique } from './support';

/** The spec's organisation's zone (e2e/tenants.ts, as the demo's): the date filters are local dates there. */
const DEMO_ZONE = 'Europe/Amsterdam';
const ZONED = /\d{2}:\d{2} CES?T$/;

async function suppress(request: APIRequestContext, baseURL: string, address: string, note: string) {
  const res = await request.post('/api/suppressions', { data: { address, reason: 'manual', note }, headers: { origin: baseURL } });
  expect(res.status(), await res.text()).toBe(200);
}

/** Shared between the tests: the address the staff member suppressed (tests run in order, one worker). */
let address = '';

test('an action staff take appears at the top of the audit log, in words, with its subject and reason', async ({ page, baseURL, tenant }) => {
  address = `${unique('audit')}@example.test`;
  await suppress(page.request, baseURL!, address, 'e2e: asked to stop');
  const title = unique('Audited event');
  const created = await page.request.post('/api/events', {
    data: { title, timeZone: DEMO_ZONE, start: '2031-05-06T10:00', end: '2031-05-06T11:00' },
    headers: { origin: baseURL! },
  });
  expect(created.status(), await created.text()).toBe(200);
  const { id: eventId } = (await created.json()) as { id: string };

  await page.goto('/audit');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Audit log' })).toHaveAttribute('aria-current', 'page');
  const rows = page.locator('table.audit-table tbody tr');

  // Newest first: the event created second is above the suppression.
  const eventRow = rows.nth(0);
  await expect(eventRow).toHaveAttribute('data-action', 'event_create');
  await expect(eventRow.getByRole('cell').nth(2)).toHaveText('Created an event');
  const link = eventRow.getByRole('link', { name: title });
  await expect(link).toHaveAttribute('href', `/events/${eventId}`);

  const row = rows.nth(1);
  await expect(row).toHaveAttribute('data-action', 'suppression_add');
  await expect(row.locator('time')).toHaveText(ZONED);
  await expect(row.getByRole('cell').nth(1)).toHaveText(tenant.accounts.staff);
  await expect(row.getByRole('cell').nth(2)).toHaveText('Suppressed an address');
  await expect(row.getByRole('cell').nth(3)).toHaveText(address);
  await expect(row.getByRole('cell').nth(4)).toHaveText('e2e: asked to stop');
  await expect(row.getByRole('cell').nth(5)).toContainText('suppression reason: manual');

  await expectAccessible(page, 'audit log');
  await screen(page, 'audit');

  // The subject link leads to the event.
  await link.click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(title);
});

test('filters by action and local date, keeping both across pages; bad values are ignored', async ({ page, baseURL }) => {
  // 51 suppressions make two pages of suppression entries (50 a page).
  const batch = unique('audit-page');
  for (let i = 0; i < 51; i++) await suppress(page.request, baseURL!, `${batch}-${i}@example.test`, `e2e page filler ${i}`);
  const today = DateTime.now().setZone(DEMO_ZONE).toISODate()!;

  // Through the form, with the keyboard-usable labelled controls.
  await page.goto('/audit');
  await page.getByLabel('Action').selectOption({ label: 'Suppressed an address' });
  await page.getByLabel(/^From/).fill(today);
  await page.getByLabel(/^To/).fill(today);
  await page.getByRole('button', { name: 'Filter' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/audit\\?action=suppression_add&from=${today}&to=${today}$`));
  await expect(page.getByLabel('Action')).toHaveValue('suppression_add');
  const rows = page.locator('table.audit-table tbody tr');
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText(`${batch}-50@example.test`);
  expect(await rows.evaluateAll((trs) => trs.every((tr) => tr.getAttribute('data-action') === 'suppression_add'))).toBe(true);
  await expect(page.locator('.pager')).toContainText('Showing 1–50 of');
  await screen(page, 'audit-filtered');

  const next = page.getByRole('link', { name: 'Next →' });
  await expect(next).toHaveAttribute('href', `/audit?action=suppression_add&from=${today}&to=${today}&page=2`);
  await next.click();
  await expect(page.locator('.pager')).toContainText('Showing 51–');
  await expect(page.getByLabel('Action')).toHaveValue('suppression_add');
  await expect(page.getByLabel(/^From/)).toHaveValue(today);
  await expect(rows.first()).toHaveAttribute('data-action', 'suppression_add');
  // The first test's suppression is older than the 51 fillers: it is on this page.
  await expect(page.getByRole('cell', { name: address, exact: true })).toBeVisible();

  // Another action, or a range before today, has none of them.
  await page.goto(`/audit?action=suppression_remove&from=${today}`);
  await expect(page.getByText('No audit entries match')).toBeVisible();
  await page.goto('/audit?to=2001-01-01');
  await expect(page.getByText('No audit entries match')).toBeVisible();
  await expectAccessible(page, 'audit log (no match)');

  // Garbage in the query string is ignored, never an error.
  const res = await page.goto('/audit?action=drop_table&from=yesterday&to=31-12-2020&page=-3');
  expect(res?.status()).toBe(200);
  await expect(page.getByLabel('Action')).toHaveValue('');
  await expect(rows.first()).toBeVisible();
});

test.describe('another tenant', () => {
  test.use({ role: 'partner' });

  test('the partner tenant’s audit log never shows this tenant’s entries', async ({ page, tenant }) => {
    expect(address, 'the first test ran').not.toBe('');
    await page.goto('/audit');
    await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
    await expect(page.locator('.page-head')).toContainText('times in Europe/London');
    await expect(page.getByText(address)).toHaveCount(0);
    await expect(page.getByText(tenant.accounts.staff)).toHaveCount(0);
    await page.goto('/audit?action=suppression_add');
    await expect(page.getByText('No audit entries match')).toBeVisible();
    await expectAccessible(page, 'audit log (other tenant)');
    await screen(page, 'audit-partner');
  });
});

test.describe('read-only role', () => {
  test.use({ role: 'viewer' });

  test('a viewer reads the audit log of the own tenant', async ({ page }) => {
    await page.goto('/audit?action=suppression_add');
    await expect(page.locator('table.audit-table tbody tr').first()).toHaveAttribute('data-action', 'suppression_add');
  });
});
