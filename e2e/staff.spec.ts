/**
 * Staff accounts: an admin invites a person (refusals name the field; the answer is the same whether or not the
 * address has an account with another organisation), the invitation is listed until accepted, the person accepts
 * through the emailed link, choosing a password, and signs in with the invited role; the admin changes the role
 * and the person signs in with exactly that; an admin cannot change their own role; staff only read, and the
 * server refuses their forged requests. Each step is audited. Screenshots staff.png (1360 px), staff-375.png.
 */
import { expect, expectAccessible, invitationLink, sameOrigin, screen, test, unique } from './support';

test.describe('as admin', () => {
  test.use({ role: 'admin' });

  test('invite a person, they accept and sign in with that role; the admin changes it', async ({ page, browser, tenant }) => {
    const email = `${unique('new.staff')}@${tenant.emailDomain}`;
    await page.goto('/staff');
    await expect(page.getByRole('heading', { level: 1, name: 'Staff' })).toBeVisible();
    // Its own row (matched by the row's address: other rows may say "Disabled … by admin@demo…") has no role control.
    await expect(page.locator(`tr[data-staff-email="${tenant.accounts.admin}"]`)).toHaveCount(1);
    await expect(page.locator(`tr[data-staff-email="${tenant.accounts.admin}"]`).getByRole('combobox')).toHaveCount(0);
    const form = page.locator('form', { hasText: 'Invite someone' });
    await form.getByLabel('Name').fill('Nora New');
    await form.getByLabel('Email').fill('not-an-address');
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await expect(form.locator('.form-error')).toContainText('email');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Role').selectOption('staff');
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await expect(form.getByRole('status')).toContainText(email);
    const invited = page.locator(`tr[data-invited-email="${email}"]`);
    await expect(invited).toContainText('Nora New');
    await expect(invited).toContainText('invited');
    await expectAccessible(page, 'staff');
    await screen(page, 'staff');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.reload();
    await expect(page.locator(`tr[data-invited-email="${email}"]`)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screen(page, 'staff-375');
    await page.setViewportSize({ width: 1360, height: 900 });

    // The person opens the emailed link, chooses a password and is signed in with the invited role.
    const link = await invitationLink(email);
    const fresh = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const p = await fresh.newPage();
    await p.goto(new URL(link).pathname + new URL(link).search);
    await expect(p.getByRole('heading', { name: /^Join / })).toBeVisible();
    await p.getByLabel('New password').fill('a-long-enough-secret');
    await p.getByLabel('The same password again').fill('a-long-enough-secret');
    await p.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(p.getByTestId('current-role')).toHaveText('staff');
    await fresh.close();

    await page.reload();
    const row = page.locator(`tr[data-staff-email="${email}"]`);
    await expect(row).toContainText('Nora New');
    await expect(page.locator(`tr[data-invited-email="${email}"]`)).toHaveCount(0);
    // The change saves on select (PUT …/role); wait for that answer — a reload before it would cancel the request.
    const saved = page.waitForResponse((r) => r.url().endsWith('/role') && r.request().method() === 'PUT');
    await row.getByRole('combobox', { name: 'Role of Nora New' }).selectOption('viewer');
    expect((await saved).status()).toBe(200);
    // A new page (not a reload: Chromium restores a reloaded page's form values) shows the stored role.
    await page.goto('/staff');
    await expect(page.locator(`tr[data-staff-email="${email}"]`).getByRole('combobox')).toHaveValue('viewer');

    const again = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const q = await again.newPage();
    await q.goto('/sign-in');
    await q.getByLabel('Email').fill(email);
    await q.getByLabel('Password').fill('a-long-enough-secret');
    await q.getByRole('button', { name: 'Sign in' }).click();
    await expect(q.getByTestId('current-role')).toHaveText('viewer');
    await again.close();

    await page.goto('/audit');
    await expect(page.locator('tr[data-action="staff_invite"]', { hasText: email })).toHaveCount(1);
    await expect(page.locator('tr[data-action="staff_invite_accept"]', { hasText: email })).toHaveCount(1);
    await expect(page.locator('tr[data-action="staff_role"]', { hasText: email })).toHaveCount(1);
  });
});

test('staff see the list read-only; forged requests answer 403', async ({ page, tenant }) => {
  await page.goto('/staff');
  await expect(page.getByRole('combobox')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Invite someone' })).toHaveCount(0);
  const add = await page.request.post('/api/staff', { headers: sameOrigin(), data: { name: 'X', email: `${unique('x')}@example.test`, role: 'admin' } });
  expect(add.status()).toBe(403);
  const row = page.locator(`tr[data-staff-email="${tenant.accounts.viewer}"]`);
  const viewerId = await row.count();
  expect(viewerId).toBe(1);
  const promote = await page.request.put('/api/staff/00000000-0000-0000-0000-000000000000/role', { headers: sameOrigin(), data: { role: 'admin' } });
  expect(promote.status()).toBe(403);
  await expect(row).toContainText('viewer');
});
