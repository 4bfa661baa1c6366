/**
 * The suppression list (issue #4): staff add an address (listed with channel, reason, source and a zoned "since"),
 * search it, and remove it only with a reason; a viewer sees the list without controls and the server refuses
 * a forged add or remove from the viewer's session (403), as it refuses any cross-site request (403).
 * Removing is a soft delete (issue #10 §3): the entry leaves the list and shows under "Show removed" with who
 * removed it, when and why; the address can then be listed again (a new entry).
 * Screenshots: suppressions, suppressions-remove, suppressions-empty-search, suppressions-viewer,
 * suppressions-removed-1360, suppressions-removed-375, suppressions-already-removed.
 */
import { expect, expectAccessible, screen, test, unique } from './support';

/** A wall-clock time followed by a zone: "11:00 CEST", "09:00 UTC", "14:30 UTC+5:30". */
const ZONED_TIME = /\d{2}:\d{2} (?:[A-Z]{2,5}|UTC[+-]\d{1,2}(?::\d{2})?)$/;

test('staff add an address, see where it came from, and remove it only with a reason', async ({ page, tenant }) => {
  const address = `${unique('do-not-mail')}@example.com`;
  await page.goto('/suppressions');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Suppressions');

  // An empty address is refused beside the form, naming the field.
  const form = page.getByRole('form', { name: 'Add an address' });
  await form.getByRole('button', { name: 'Add to list' }).click();
  await expect(form.getByRole('alert')).toHaveText(/^Address: required/);
  await expect(form.getByLabel('Address')).toHaveAttribute('aria-invalid', 'true');
  // The server's 400 names the field too.
  await form.getByLabel('Address').fill('not-an-address');
  await form.getByRole('button', { name: 'Add to list' }).click();
  await expect(form.getByRole('alert')).toHaveText('Address: must be an email address or a mobile number such as +31612345678');

  await form.getByLabel('Address').fill(address);
  await form.getByLabel('Reason').selectOption('unsubscribed');
  await form.getByLabel('Note (optional)').fill('asked by phone');
  await form.getByRole('button', { name: 'Add to list' }).click();
  await expect(form.getByRole('status')).toHaveText(`${address} is on the suppression list.`);
  await expect(form.getByRole('alert')).toHaveCount(0);
  await expect(form.getByLabel('Address')).toHaveValue('');

  const row = page.locator('table.suppressions-table tbody tr', { hasText: address });
  await expect(row).toHaveCount(1);
  await expect(row.locator('[data-reason]')).toHaveText('unsubscribed');
  await expect(row.locator('[data-channel]')).toHaveText('Email');
  await expect(row.locator('.suppression-source')).toHaveText(`added by ${tenant.accounts.staff}: asked by phone`);
  await expect(row.locator('time')).toHaveText(ZONED_TIME);

  // Adding it again: 409, shown beside the form.
  await form.getByLabel('Address').fill(address.toUpperCase());
  await form.getByRole('button', { name: 'Add to list' }).click();
  await expect(form.getByRole('alert')).toHaveText(`Address: ${address.toUpperCase()} is already on the suppression list`);
  await form.getByLabel('Address').fill('');
  await expectAccessible(page, 'suppressions');
  await screen(page, 'suppressions');

  // Search by address narrows the list; a search that matches nothing says so and offers a way back.
  await page.getByRole('searchbox', { name: 'Address' }).fill(address.split('@')[0]!);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/[?&]q=/);
  await expect(page.locator('table.suppressions-table tbody tr')).toHaveCount(1);
  await page.goto('/suppressions?q=nobody-has-this-address');
  await expect(page.getByText('No address matches this search')).toBeVisible();
  await expectAccessible(page, 'suppressions empty search');
  await screen(page, 'suppressions-empty-search');
  await page.getByRole('link', { name: 'Clear the search' }).click();
  await expect(page).toHaveURL(/\/suppressions$/);

  // Remove: the dialog requires a reason; an empty one is refused inside the dialog.
  await row.getByRole('button', { name: `Remove ${address} from the suppression list` }).click();
  const dialog = page.getByRole('dialog', { name: `Remove ${address}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('may reach');
  await dialog.getByRole('button', { name: 'Remove from list' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Reason for removing: a reason of at least 3 characters is required.');
  await expect(dialog).toBeVisible();
  await expectAccessible(page, 'suppressions remove dialog');
  await screen(page, 'suppressions-remove');
  await expect(row).toHaveCount(1);

  await dialog.getByLabel('Reason for removing').fill('mailbox confirmed working again');
  await dialog.getByRole('button', { name: 'Remove from list' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
  await page.reload();
  await expect(page.locator('table.suppressions-table tbody tr', { hasText: address })).toHaveCount(0);

  // A soft delete: the entry is kept as history under "Show removed", with who removed it, when and why.
  await page.getByRole('link', { name: 'Show removed' }).click();
  await expect(page).toHaveURL(/[?&]removed=1/);
  await expect(page.getByRole('link', { name: 'Show removed' })).toHaveAttribute('aria-current', 'page');
  const removed = page.locator('table.suppressions-table[data-view="removed"] tbody tr', { hasText: address });
  await expect(removed).toHaveCount(1);
  await expect(removed.locator('.suppression-removed')).toContainText(`by ${tenant.accounts.staff}`);
  await expect(removed.locator('.suppression-removed')).toContainText('“mailbox confirmed working again”');
  await expect(removed.locator('.suppression-removed time')).toHaveText(ZONED_TIME);
  await expect(removed.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
  await expectAccessible(page, 'suppressions removed history');
  await screen(page, 'suppressions-removed-1360');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll, 'page width at 375 px').toBeLessThanOrEqual(widths.client);
  await expect(removed).toBeVisible();
  await screen(page, 'suppressions-removed-375');
  await page.setViewportSize({ width: 1360, height: 900 });

  // The address can be listed again: a new entry beside the history.
  await page.getByRole('link', { name: 'On the list' }).click();
  await expect(page).not.toHaveURL(/removed=1/);
  await form.getByLabel('Address').fill(address);
  await form.getByLabel('Reason').selectOption('manual');
  await form.getByRole('button', { name: 'Add to list' }).click();
  await expect(form.getByRole('status')).toHaveText(`${address} is on the suppression list.`);
  await expect(page.locator('table.suppressions-table[data-view="live"] tbody tr', { hasText: address })).toHaveCount(1);
  const again = page.locator('table.suppressions-table tbody tr', { hasText: address });
  const id = await again.getAttribute('data-suppression-id');
  const cleanup = await page.request.delete(`/api/suppressions/${id}`, { data: { reason: 'e2e clean-up', version: 1 }, headers: { origin: new URL(page.url()).origin } });
  expect(cleanup.status()).toBe(200);
});

test('two tabs remove the same entry: the second sees who removed it, when and why (409), and the list follows when its dialog closes; a version never issued is a 400', async ({ page, baseURL }) => {
  const address = `${unique('two-tabs')}@example.com`;
  const added = await page.request.post('/api/suppressions', { data: { address, reason: 'bounced' }, headers: { origin: baseURL! } });
  expect(added.status()).toBe(200);
  const { id } = (await added.json()) as { id: string };

  // A version the server never issued is a 400 naming `version`, not a 409 "changed by system".
  const madeUp = await page.request.delete(`/api/suppressions/${id}`, { data: { reason: 'made-up version', version: 99 }, headers: { origin: baseURL! } });
  expect(madeUp.status()).toBe(400);
  const madeUpBody = (await madeUp.json()) as { error: string; field: string };
  expect(madeUpBody.field).toBe('version');
  expect(madeUpBody.error).toBe('version: 99 was never issued for this record (it is at version 1) — reload the page and try again');

  // This tab opens the dialog; meanwhile the entry is removed in another tab.
  await page.goto('/suppressions');
  const row = page.locator('table.suppressions-table tbody tr', { hasText: address });
  await row.getByRole('button', { name: `Remove ${address} from the suppression list` }).click();
  const dialog = page.getByRole('dialog', { name: `Remove ${address}?` });
  await dialog.getByLabel('Reason for removing').fill('mailbox works again');
  const other = await page.request.delete(`/api/suppressions/${id}`, { data: { reason: 'removed in the other tab', version: 1 }, headers: { origin: baseURL! } });
  expect(other.status()).toBe(200);

  await dialog.getByRole('button', { name: 'Remove from list' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(new RegExp(`^The suppression of ${address.replace(/[.]/g, '\\.')} was already removed by .+ at \\w{3} \\d{1,2} \\w{3} \\d{4}, \\d{2}:\\d{2} \\S+: “removed in the other tab”\\.$`));
  // The message stays readable: the row (and the dialog) are not taken away under it.
  await expect(dialog).toBeVisible();
  await expect(row).toHaveCount(1);
  await expectAccessible(page, 'suppressions already removed');
  await screen(page, 'suppressions-already-removed');
  const answer = await page.request.delete(`/api/suppressions/${id}`, { data: { reason: 'third try', version: 2 }, headers: { origin: baseURL! } });
  expect(answer.status()).toBe(409);
  const body = (await answer.json()) as { error: string; field: string; current: { removed: { reason: string } } };
  expect([body.field, body.current.removed.reason]).toEqual(['version', 'removed in the other tab']);

  // Closing the dialog brings the list up to date: the entry is gone from the live list.
  await dialog.getByRole('button', { name: 'Keep as is' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
});

test('a viewer sees the list without controls; forged and cross-site requests answer 403', async ({ page, browser, baseURL, contextAs }) => {
  // Staff (the default session) put an address on the list for the viewer to see.
  const address = `${unique('viewer-sees')}@example.com`;
  const added = await page.request.post('/api/suppressions', { data: { address, reason: 'bounced' }, headers: { origin: baseURL! } });
  expect(added.status()).toBe(200);
  const { id } = (await added.json()) as { id: string };

  const viewer = await contextAs('viewer');
  try {
    const vp = await viewer.newPage();
    await vp.goto('/suppressions');
    await expect(vp.getByRole('heading', { level: 1 })).toHaveText('Suppressions');
    await expect(vp.locator('[data-testid="current-role"]')).toHaveText('viewer');
    const row = vp.locator('table.suppressions-table tbody tr', { hasText: address });
    await expect(row).toHaveCount(1);
    await expect(row.locator('[data-reason]')).toHaveText('bounced');
    await expect(vp.getByRole('form', { name: 'Add an address' })).toHaveCount(0);
    await expect(vp.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
    await expect(vp.getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);
    await expect(vp.getByText('Your role (viewer) can look at the list')).toBeVisible();
    await expectAccessible(vp, 'suppressions as viewer');
    await screen(vp, 'suppressions-viewer');

    // The hidden controls are not the protection: the routes refuse the viewer's own session.
    const forgedAdd = await viewer.request.post('/api/suppressions', { data: { address: `${unique('forged')}@example.com`, reason: 'manual' }, headers: { origin: baseURL! } });
    expect(forgedAdd.status()).toBe(403);
    expect(((await forgedAdd.json()) as { error: string }).error).toContain('read-only');
    const forgedRemove = await viewer.request.delete(`/api/suppressions/${id}`, { data: { reason: 'viewer tries anyway' }, headers: { origin: baseURL! } });
    expect(forgedRemove.status()).toBe(403);
    await vp.reload();
    await expect(row).toHaveCount(1);
  } finally {
    await viewer.close();
  }

  // A request from another site is refused even with a staff session (CSRF).
  const crossSite = await page.request.post('/api/suppressions', { data: { address: `${unique('evil')}@example.com`, reason: 'manual' }, headers: { origin: 'http://evil.example' } });
  expect(crossSite.status()).toBe(403);
  expect(((await crossSite.json()) as { error: string }).error).toContain('cross-site');
  const crossSiteRemove = await page.request.delete(`/api/suppressions/${id}`, { data: { reason: 'from another site' }, headers: { origin: 'http://evil.example' } });
  expect(crossSiteRemove.status()).toBe(403);

  // Clean up through the real route (staff, same origin).
  const removed = await page.request.delete(`/api/suppressions/${id}`, { data: { reason: 'e2e clean-up', version: 1 }, headers: { origin: baseURL! } });
  expect(removed.status()).toBe(200);
});
