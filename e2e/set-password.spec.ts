/**
 * One-time password links (issue #13) in the browser: an organisation and its first admin made with the real CLI
 * (`npm run tenant -- create`, against the e2e instance's database), the printed link opened at 1360 and 375 px,
 * the password chosen twice and the admin signed in; the same link refused plainly afterwards; and "Forgot your
 * password?" from the sign-in page. Uses its own organisation, never the demo accounts.
 */
import { execFileSync } from 'node:child_process';
import { type Page } from '@playwright/test';
import { expect, screen, test } from './support';

test.use({ storageState: { cookies: [], origins: [] } });

/** Runs `npm run tenant -- …` against the instance under test (DATABASE_URL, or the running start's data folder). */
function tenantCli(args: string[], baseURL: string): string {
  return execFileSync(process.execPath, ['--import', 'tsx', 'scripts/tenant.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, PUNCTUAL_PUBLIC_URL: baseURL },
  });
}

function onlyLink(stdout: string): string {
  const links = [...stdout.matchAll(/http:\/\/\S+\/set-password\?token=[A-Za-z0-9_-]+/g)].map((m) => m[0]);
  expect(links).toHaveLength(1);
  return links[0];
}

async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

test('a new admin opens the printed link, chooses a password and is signed in; the link works once', async ({ page, baseURL, browser }) => {
  const slug = `e2e-${Date.now().toString(36)}`;
  const email = `first-admin@${slug}.example`;
  const out = tenantCli(['create', '--slug', slug, '--name', 'E2E Events', '--time-zone', 'Europe/Dublin', '--sender', `reminders@${slug}.example`, '--admin-email', email, '--admin-name', 'Fay First'], baseURL!);
  const link = onlyLink(out);
  expect(out).toContain('valid until');

  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  // No Referer leaves this page (the token is in its address).
  const res = await page.request.get(link);
  expect(res.headers()['referrer-policy']).toBe('no-referrer');
  await screen(page, 'set-password-1360');

  await page.getByLabel('New password').fill('fay-first-password');
  await page.getByLabel('The same password again').fill('fay-first-passwork');
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page.locator('.form-error')).toHaveText(/not the same/);
  await page.getByLabel('The same password again').fill('fay-first-password');
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page.getByTestId('current-role')).toHaveText('admin');
  await screen(page, 'set-password-signed-in');

  // The same link again, signed out: one plain sentence, no form.
  const fresh = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const again = await fresh.newPage();
  await again.goto(link);
  await expect(again.getByRole('heading', { name: 'This link cannot be used' })).toBeVisible();
  await expect(again.locator('.form-error')).toContainText('This link has been used or has expired — ask an admin for a new one (npm run tenant -- link');
  await expect(again.getByLabel('New password')).toHaveCount(0);
  await screen(again, 'set-password-used');
  await fresh.close();

  // At 375 px: a fresh link for the same account (`tenant link`), which now resets an existing password.
  const narrow = await browser.newContext({ storageState: { cookies: [], origins: [] }, viewport: { width: 375, height: 800 } });
  const phone = await narrow.newPage();
  await phone.goto(onlyLink(tenantCli(['link', '--email', email], baseURL!)));
  await expect(phone.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  expect(await fitsWidth(phone), 'the set-password page fits 375 px').toBe(true);
  await screen(phone, 'set-password-375');
  await phone.getByLabel('New password').fill('fay-second-password');
  await phone.getByLabel('The same password again').fill('fay-second-password');
  await phone.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(phone.getByTestId('current-role')).toHaveText('admin');
  await narrow.close();
});

test('“Forgot your password?” on the sign-in page asks for the address and answers the same for any address', async ({ page, browser }) => {
  await page.goto('/sign-in');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await screen(page, 'forgot-password-1360');
  await page.getByLabel('Email').fill(`nobody-${Date.now().toString(36)}@nowhere.example`);
  await page.getByRole('button', { name: 'Email me a link' }).click();
  await expect(page.getByRole('status')).toHaveText(/If that address has an account, a link to choose a new password is on its way/);
  await screen(page, 'forgot-password-sent');

  const narrow = await browser.newContext({ storageState: { cookies: [], origins: [] }, viewport: { width: 375, height: 800 } });
  const phone = await narrow.newPage();
  await phone.goto('/forgot-password');
  await expect(phone.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  expect(await fitsWidth(phone), 'the forgot-password page fits 375 px').toBe(true);
  await screen(phone, 'forgot-password-375');
  await narrow.close();
});
