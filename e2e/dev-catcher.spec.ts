/**
 * The built-in mail catcher of `npm start` is a development catcher, and says so (issue #12): /mailbox shows a notice
 * (desktop and 375 px; screenshots dev-catcher-notice-*.png). It takes mail only from the app: a local client that
 * talks SMTP to it without the app's login (or with a wrong one) is refused and its message never shows in the
 * mailbox, while the worker's reminders (the seeded host heads-up goes out at once) keep arriving.
 */
import fs from 'node:fs';
import path from 'node:path';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { root } from '@/scripts/lib';
import { expect, screen, test, unique } from './support';

// Reads the demo's own mail (the seeded host heads-up goes out at once): the demo tenant, which it does not change.
test.use({ tenantKind: 'demo' });

/** The mail catcher's port of the running `npm start` (its data folder's ports.json). */
function catcherPort(): number {
  const file = path.resolve(root, process.env.PUNCTUAL_DATA_DIR ?? '.data', 'ports.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { smtp: number }).smtp;
}

/** Sends a message as a forger would, logging in with `auth` first when given; the SMTP reply code of the refusal, or 250. */
function forge(subject: string, auth?: { user: string; pass: string }): Promise<number | undefined> {
  const conn = new SMTPConnection({ host: '127.0.0.1', port: catcherPort(), ignoreTLS: true });
  const raw = `From: "Demo" <hello@demo.punctual.local>\r\nTo: ana@example.test\r\nSubject: ${subject}\r\n\r\nYour booking was cancelled.\r\n`;
  return new Promise((resolve, reject) => {
    const done = (err: Error | null) => {
      conn.close();
      resolve(err ? (err as { responseCode?: number }).responseCode : 250);
    };
    conn.once('error', reject);
    conn.connect(() => {
      const send = () => conn.send({ from: 'hello@demo.punctual.local', to: ['ana@example.test'] }, raw, (err) => done(err));
      if (auth) conn.login(auth, (err) => (err ? done(err) : send()));
      else send();
    });
  });
}

test('the mailbox says it is a development catcher; mail that does not come from the app is refused', async ({ page }) => {
  const subject = unique('Forged: booking cancelled');
  expect(await forge(subject), 'SMTP without logging in').toBe(530);
  expect(await forge(subject, { user: 'punctual', pass: 'a-guess' }), 'SMTP with a wrong password').toBe(535);

  // The worker's mail still arrives (it logs in with the SMTP_URL npm start gave it).
  await expect
    .poll(
      async () => {
        await page.goto('/mailbox');
        return page.locator('table tbody tr').count();
      },
      { timeout: 60_000, intervals: [1000, 2000], message: 'the worker’s mail in the mailbox' },
    )
    .toBeGreaterThan(0);
  await expect(page.getByText(subject)).toHaveCount(0);

  const notice = page.getByTestId('dev-catcher-notice');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Development catcher');
  await expect(notice).toContainText('take messages only from this app');
  await screen(page, 'dev-catcher-notice-desktop');

  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(notice).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await screen(page, 'dev-catcher-notice-375');
});
