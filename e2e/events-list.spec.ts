/**
 * The events list's filters (issue #4 item 10): search by title or location, status, start-date range in the
 * tenant's zone, pagination links that keep the filters, an empty state with a way back, nonsense parameters
 * that never crash the page, the schedule version column, and "New event" for staff only.
 * The spec adds one cancelled event of its own far in the future, so the demo events stay untouched.
 * Screenshots: events-list, events-list-filtered, events-list-cancelled, events-list-empty.
 */
import { expect, expectAccessible, screen, test, unique } from './support';

// About the demo data `npm start` seeds (dev/seed.ts): the demo tenant, which no other spec changes.
test.use({ tenantKind: 'demo' });

test('search, status and date filters narrow the list; nonsense filters do not crash; empty state', async ({ page, baseURL }) => {
  const headers = { origin: baseURL! };
  const title = unique('Pottery night');
  const created = await page.request.post('/api/events', {
    data: { title, location: 'Kiln Hall 7', timeZone: 'Europe/Amsterdam', start: '2031-05-20T19:00', end: '2031-05-20T21:00' },
    headers,
  });
  expect(created.status()).toBe(200);
  const { id } = (await created.json()) as { id: string };
  const cancelled = await page.request.post(`/api/events/${id}/cancel`, { data: { reason: 'e2e: status filter check', version: 1 }, headers });
  expect(cancelled.status()).toBe(200);

  const rows = page.locator('table.events-table tbody tr');
  const titles = () => rows.locator('a.row-title').allTextContents();

  // Unfiltered: the demo events and ours, each with its schedule version; staff get "New event".
  await page.goto('/events');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Events');
  await expect(page.getByRole('link', { name: 'New event' })).toHaveAttribute('href', '/events/new');
  const all = await titles();
  expect(all).toEqual(expect.arrayContaining(['Evening Yoga', 'Clay & Coffee (online)', title]));
  await expect(page.getByRole('columnheader', { name: 'Version' })).toBeVisible();
  await expect(rows.filter({ hasText: title }).locator('td.num').first()).toHaveText('v1');
  await expectAccessible(page, 'events list');
  await screen(page, 'events-list');

  // Search by title, through the form.
  await page.getByRole('searchbox', { name: 'Title or location' }).fill('yoga');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/[?&]q=yoga/);
  await expect.poll(titles).toEqual(['Evening Yoga']);
  await expect(page.getByRole('searchbox', { name: 'Title or location' })).toHaveValue('yoga');
  await expect(page.getByRole('link', { name: 'Clear filters' })).toBeVisible();
  await screen(page, 'events-list-filtered');
  // Search by location.
  await page.goto('/events?q=kiln+hall');
  await expect.poll(titles).toEqual([title]);

  // Status: only our event is cancelled; "scheduled" leaves it out.
  await page.getByLabel('Status').selectOption('cancelled');
  await page.getByRole('searchbox', { name: 'Title or location' }).fill('');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/status=cancelled/);
  await expect.poll(titles).toContain(title);
  for (const status of await rows.locator('[data-kind="event"]').allTextContents()) expect(status).toBe('cancelled');
  await expect(rows.filter({ hasText: title })).toContainText('e2e: status filter check');
  await screen(page, 'events-list-cancelled');
  await page.goto('/events?status=scheduled');
  const scheduled = await titles();
  expect(scheduled).toEqual(expect.arrayContaining(['Evening Yoga']));
  expect(scheduled).not.toContain(title);

  // Date range on the start, in the tenant's zone, both days included.
  await page.goto('/events?from=2031-05-20&to=2031-05-20');
  await expect(page.getByLabel('Starts from')).toHaveValue('2031-05-20');
  await expect.poll(titles).toEqual([title]);
  await page.goto('/events?from=2031-05-21');
  await expect(page.getByText('No events match these filters')).toBeVisible();
  await page.goto('/events?from=2031-05-21&to=2031-05-20');
  await expect(page.getByText('is after “Starts until”')).toBeVisible();

  // Pages keep the filters: past the last page of a search, the way back keeps it.
  await page.goto('/events?q=yoga&page=2');
  await expect(page.getByText('No events on this page')).toBeVisible();
  await page.getByRole('link', { name: 'Back to the first page' }).click();
  await expect(page).toHaveURL(/\/events\?q=yoga$/);
  await expect.poll(titles).toEqual(['Evening Yoga']);

  // Nonsense parameters are dropped, never a server error.
  for (const query of [
    'status=bogus&from=yesterday&to=2027-02-30&page=-4',
    'page=abc&status[]=x&q=%25%25_',
    `from=0000-01-01&to=9999-12-31&page=99999999999&q=${'x'.repeat(500)}`,
    'status=cancelled&status=scheduled&from=2027-13-01',
  ]) {
    const res = await page.goto(`/events?${query}`);
    expect(res?.status(), query).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }), query).toHaveText('Events');
  }
  await page.goto('/events?status=bogus&from=yesterday');
  await expect(page.getByLabel('Status')).toHaveValue('');
  await expect(page.getByLabel('Starts from')).toHaveValue('');
  await expect.poll(async () => (await titles()).length).toBe(all.length);

  // A search that matches nothing: the empty state and a way back.
  await page.goto('/events?q=no-event-is-called-this');
  await expect(page.getByText('No events match these filters')).toBeVisible();
  await expect(rows).toHaveCount(0);
  await expectAccessible(page, 'events list empty');
  await screen(page, 'events-list-empty');
  await page.getByRole('link', { name: 'clear the filters' }).click();
  await expect(page).toHaveURL(/\/events$/);
  await expect.poll(async () => (await titles()).length).toBe(all.length);
});

test('a viewer gets no "New event" button', async ({ browser, contextAs }) => {
  const viewer = await contextAs('viewer');
  try {
    const page = await viewer.newPage();
    await page.goto('/events');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Events');
    await expect(page.locator('table.events-table tbody tr').first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'New event' })).toHaveCount(0);
  } finally {
    await viewer.close();
  }
});
