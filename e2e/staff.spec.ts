/**
 * Staff accounts: an admin adds an account (refusals name the field), changes its role, and the new person
 * signs in with exactly that role; an admin cannot change their own role; staff only read, and the server
 * refuses their forged requests. Both changes are audited.
 */
import { expect, test } from '@playwright/test';
import { authFile, expectAccessible, sameOrigin, screen, unique } from './support';

test.describe('as admin', () => {
  test.use({ storageState: authFile('admin') });

  test('add an account, change its role, and the person signs in with that role', async ({ page, browser }) => {
    const email = `${unique('new.staff')}@demo.punctual.local`;
    await page.goto('/staff');
    await expect(page.getByRole('heading', { level: 1, name: 'Staff' })).toBeVisible();
    // Its own row (matched by the row's address: other rows may say "Disabled … by admin@demo…") has no role control.
    await expect(page.locator('tr[data-staff-email="admin@demo.punctual.local"]')).toHaveCount(1);
    await expect(page.locator('tr[data-staff-email="admin@demo.punctual.local"]').getByRole('combobox')).toHaveCount(0);
    const form = page.locator('form', { hasText: 'Add a staff account' });
    await form.getByLabel('Name').fill('Nora New');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel(/Initial password/).fill('short');
    await form.getByRole('button', { name: 'Add account' }).click();
    await expect(form.locator('.form-error')).toContainText('password');
    await form.getByLabel(/Initial password/).fill('a-long-enough-secret');
    await form.getByRole('button', { name: 'Add account' }).click();
    await expect(form.getByRole('status')).toContainText(email);
    const row = page.locator(`tr[data-staff-email="${email}"]`);
    await expect(row).toContainText('Nora New');
    await expectAccessible(page, 'staff');
    await screen(page, 'staff');

    await row.getByRole('combobox', { name: 'Role of Nora New' }).selectOption('viewer');
    await expect.poll(async () => {
      await page.reload();
      return page.locator(`tr[data-staff-email="${email}"]`).getByRole('combobox').inputValue();
    }).toBe('viewer');

    const fresh = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const p = await fresh.newPage();
    await p.goto('/sign-in');
    await p.getByLabel('Email').fill(email);
    await p.getByLabel('Password').fill('a-long-enough-secret');
    await p.getByRole('button', { name: 'Sign in' }).click();
    await expect(p.getByTestId('current-role')).toHaveText('viewer');
    await fresh.close();

    await page.goto('/audit');
    await expect(page.locator('tr[data-action="staff_add"]', { hasText: email })).toHaveCount(1);
    await expect(page.locator('tr[data-action="staff_role"]', { hasText: email })).toHaveCount(1);
  });
});

test('staff see the list read-only; forged requests answer 403', async ({ page }) => {
  await page.goto('/staff');
  await expect(page.getByRole('combobox')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Add a staff account' })).toHaveCount(0);
  const add = await page.request.post('/api/staff', { headers: sameOrigin(), data: { name: 'X', email: `${unique('x')}@example.test`, role: 'admin', password: 'a-long-enough-secret' } });
  expect(add.status()).toBe(403);
  const row = page.locator('tr[data-staff-email="viewer@demo.punctual.local"]');
  const viewerId = await row.count();
  expect(viewerId).toBe(1);
  const promote = await page.request.put('/api/staff/00000000-0000-0000-0000-000000000000/role', { headers: sameOrigin(), data: { role: 'admin' } });
  expect(promote.status()).toBe(403);
  await expect(row).toContainText('viewer');
});
