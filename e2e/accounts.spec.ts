/**
 * Accounts (issue #13), as people use them, at 1360 px and at 375 px — always on a FRESH account made here (the
 * demo accounts' passwords are used by every other spec and are never changed):
 * - the person changes their own password on /account (reached from the signed-in area of the shell): they stay
 *   signed in, their other browser is sent to sign-in;
 * - turns on two-factor (password → QR code and secret → a code computed here from the secret shown → backup codes
 *   shown once), and signing in then asks for the 6-digit code (a wrong one is refused);
 * - "Disabling an account signs it out on its next request": an admin disables the account on the Staff page, and
 *   its open browser is sent to sign-in, told the account has been disabled, on its next navigation.
 * Screenshots: accounts-<width>-*.png.
 */
import { base32 } from '@better-auth/utils/base32';
import { createOTP } from '@better-auth/utils/otp';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { authFile, expectAccessible, inviteAndAccept, screen, unique } from './support';

const FIRST = 'first-password-123';
const SECOND = 'second-password-456';

/** The authenticator app: the current 6-digit code for the base32 secret shown on the page (spaces ignored). */
function totpNow(secretText: string): Promise<string> {
  return createOTP(base32.decode(secretText.replace(/\s/g, '')), { digits: 6, period: 30 }).totp();
}

/** The code the app shows in the next 30 s (a code is accepted once: the setup used this step's). */
function totpNext(secretText: string): Promise<string> {
  return createOTP(base32.decode(secretText.replace(/\s/g, '')), { digits: 6, period: 30 }).hotp(Math.floor(Date.now() / 30_000) + 1);
}

async function signInForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function freshContext(browser: Browser, width: number) {
  return browser.newContext({ storageState: { cookies: [], origins: [] }, viewport: { width, height: 900 } });
}

for (const width of [1360, 375]) {
  test(`change password, two-factor sign-in, and an admin disabling the account — at ${width} px`, async ({ browser, baseURL }) => {
    const phone = width < 900;
    const tag = `accounts-${width}`;
    // The fresh account, added by the demo admin through the API.
    const admin = await browser.newContext({ storageState: authFile('admin'), viewport: { width, height: 900 } });
    const adminPage = await admin.newPage();
    const email = `${unique('acct')}@demo.punctual.local`;
    const name = `Acct ${width}`;
    await inviteAndAccept(adminPage, { name, email, role: 'staff', password: FIRST });

    // Two browsers signed in as the person; the first goes to its own account page from the shell.
    const mine = await freshContext(browser, width);
    const page = await mine.newPage();
    await signInForm(page, email, FIRST);
    await expect(page.getByTestId('current-role')).toHaveText('staff');
    const other = await freshContext(browser, width);
    const otherPage = await other.newPage();
    await signInForm(otherPage, email, FIRST);
    await expect(otherPage.getByTestId('current-role')).toHaveText('staff');

    if (phone) await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Your account' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
    await expect(page).toHaveURL(/\/account$/);

    // Change password: a mismatch is caught on the page; then the change; this browser stays signed in.
    const pw = page.locator('form', { has: page.getByRole('heading', { name: 'Change password' }) });
    await pw.getByLabel('Current password').fill(FIRST);
    await pw.getByLabel(/^New password \(/).fill(SECOND);
    await pw.getByLabel('New password again').fill('not-the-same-password');
    await pw.getByRole('button', { name: 'Change password' }).click();
    await expect(pw.getByRole('alert')).toHaveText('The two new passwords are not the same.');
    await pw.getByLabel('New password again').fill(SECOND);
    await pw.getByRole('button', { name: 'Change password' }).click();
    await expect(pw.getByRole('status')).toContainText('Password changed');
    await expectAccessible(page, 'account');
    await screen(page, `${tag}-password-changed`);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
    // The other browser's session ended with the change.
    await otherPage.goto('/events');
    await expect(otherPage).toHaveURL(/\/sign-in/);
    await expect(otherPage.getByLabel('Email')).toBeVisible();

    // Turn on two-factor: password → QR code + secret → a code → backup codes, shown once.
    const tf = page.locator('section', { has: page.getByRole('heading', { name: 'Two-factor sign-in' }) });
    await expect(tf).toContainText('Off');
    await tf.getByRole('button', { name: 'Turn on two-factor' }).click();
    await tf.getByLabel('Your password').fill('a-wrong-password');
    await tf.getByRole('button', { name: 'Continue' }).click();
    await expect(tf.getByRole('alert')).toHaveText('That is not your current password.');
    await tf.getByLabel('Your password').fill(SECOND);
    await tf.getByRole('button', { name: 'Continue' }).click();
    const qr = tf.getByRole('img', { name: /QR code for your authenticator app/ });
    await expect(qr).toBeVisible();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    // The image really drew (the page CSP allows data: images).
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    const secret = (await tf.getByTestId('totp-secret').textContent()) ?? '';
    expect(secret.replace(/\s/g, '')).toMatch(/^[A-Z2-7]{16,}$/);
    await screen(page, `${tag}-two-factor-scan`);
    await tf.getByLabel('Code from the app').fill(await totpNow(secret));
    await tf.getByRole('button', { name: 'Confirm and turn on' }).click();
    const codes = tf.getByRole('list', { name: 'Backup codes' }).getByRole('listitem');
    await expect(codes.first()).toBeVisible();
    expect(await codes.count()).toBeGreaterThanOrEqual(8);
    await screen(page, `${tag}-backup-codes`);
    await tf.getByRole('button', { name: 'I have saved these codes' }).click();
    await expect(tf).toContainText('On');
    await expect(tf.getByRole('button', { name: 'Turn off two-factor' })).toBeVisible();

    // Signing in now takes the code: a wrong one is refused, the right one lets the person in.
    await signInForm(otherPage, email, SECOND);
    const code = otherPage.getByLabel('6-digit code from your authenticator app');
    await expect(code).toBeVisible();
    await screen(otherPage, `${tag}-sign-in-code`);
    const right = await totpNow(secret);
    await code.fill(String((Number(right) + 500_000) % 1_000_000).padStart(6, '0'));
    await otherPage.getByRole('button', { name: 'Sign in' }).click();
    await expect(otherPage.locator('.form-error')).toContainText('That code is not right');
    await code.fill(await totpNext(secret));
    await otherPage.getByRole('button', { name: 'Sign in' }).click();
    await expect(otherPage.getByTestId('current-role')).toHaveText('staff');

    // The admin sees two-factor on, and disables the account.
    await adminPage.goto('/staff');
    const row = adminPage.locator(`tr[data-staff-email="${email}"]`);
    await expect(row.getByTestId('two-factor')).toHaveText('on');
    await expect(row.getByTestId('account-status')).toContainText('active');
    await row.getByRole('button', { name: `Disable ${name}` }).click();
    const dialog = adminPage.getByRole('dialog', { name: `Disable ${name}?` });
    await expect(dialog).toContainText('signed out everywhere at once');
    await dialog.getByRole('button', { name: 'Disable account' }).click();
    await expect(row.getByTestId('account-status')).toContainText('disabled');
    await expect(row.getByRole('button', { name: `Re-enable ${name}` })).toBeVisible();
    await screen(adminPage, `${tag}-staff-disabled`);

    // Both of the person's open browsers are sent to sign-in on their next navigation, and told why.
    for (const p of [page, otherPage]) {
      await p.goto('/events');
      await expect(p).toHaveURL(/\/sign-in\?disabled=1$/);
      await expect(p.getByRole('status')).toHaveText('This account has been disabled. Ask an admin of your organisation to turn it back on.');
    }
    await screen(page, `${tag}-signed-out-disabled`);
    // An API call from that browser is refused as well; and signing in again is refused with the same sentence.
    const api = await page.request.get('/api/alert-settings');
    expect(api.status()).toBe(401);
    await signInForm(page, email, SECOND);
    await expect(page.locator('.form-error')).toHaveText('This account has been disabled. Ask an admin of your organisation to turn it back on.');

    await adminPage.goto('/audit?action=staff_disable');
    await expect(adminPage.locator('tr[data-action="staff_disable"]', { hasText: email })).toHaveCount(1);
    expect(baseURL).toBeTruthy();
    await Promise.all([mine.close(), other.close(), admin.close()]);
  });
}
