/**
 * The development mailbox shows a credential only to the person it was sent to. A viewer of the spec's organisation
 * asks for a password reset for its admin (the public "forgot password" form: anyone may): the reset mail is
 * caught, but it is not in the viewer's mailbox and its page answers 404; a booking email's preference and
 * unsubscribe links are shown as dots, not links, on the message page, at 1360 and 375 px (screenshots
 * mailbox-masked-1360.png, mailbox-masked-375.png); the admin, signed in as themself, finds the reset mail with a
 * working-looking link. Staff book one participant first, for the booking email; no setting is changed.
 */
import { and, eq, gt, sql } from 'drizzle-orm';
import { createDb, type DbHandle } from '@/db/client';
import { caughtMessages } from '@/db/schema';
import { resolveDatabaseUrl } from '@/scripts/lib';
import { bookViaApi, createEventViaApi, expect, expectAccessible, sameOrigin, screen, test, unique } from './support';

let handle: DbHandle;
test.beforeAll(() => {
  handle = createDb(resolveDatabaseUrl()!, { max: 1 });
});
test.afterAll(async () => {
  await handle?.close();
});

test('a viewer sees no reset mail of the admin and only masked links; the admin sees their own link', async ({ page: staffPage, contextAs, tenant }) => {
  // A booking email to a participant for the viewer to find (staff book them: this organisation starts empty).
  const eventId = await createEventViaApi(staffPage, unique('Masked links'));
  await bookViaApi(staffPage, eventId, { name: 'Mara Masked', email: `${unique('mara')}@example.test` });
  const viewerCtx = await contextAs('viewer');
  const adminCtx = await contextAs('admin');
  try {
    const page = await viewerCtx.newPage();
    const [{ now }] = await handle.db.select({ now: sql<Date>`now()` }).from(sql`(select 1) as one`);
    const asked = await page.request.post('/api/auth/request-password-reset', { data: { email: tenant.accounts.admin, redirectTo: '/set-password' }, headers: sameOrigin() });
    expect(asked.status(), 'the public reset form answers the same for anyone').toBeLessThan(500);
    // The worker mails it: wait for the catcher to hold it.
    const resetMail = async () =>
      (
        await handle.db
          .select({ id: caughtMessages.id, text: caughtMessages.text })
          .from(caughtMessages)
          .where(and(eq(caughtMessages.accountMail, true), gt(caughtMessages.receivedAt, new Date(now)), sql`${tenant.accounts.admin} = any(${caughtMessages.envelopeTo})`))
      )[0];
    await expect.poll(async () => (await resetMail())?.id ?? null, { timeout: 30_000, message: 'the reset mail is caught' }).not.toBeNull();
    const reset = (await resetMail())!;
    const token = /set-password\?token=([\w-]+)/.exec(reset.text ?? '')![1];

    // The booking email is caught too (the viewer's mailbox lists it: a table, not the empty state).
    const booked = page.locator('table.mailbox-table a[href^="/mailbox/"]', { hasText: /You.re booked/ }).first();
    await expect
      .poll(async () => (await page.goto('/mailbox'), booked.count()), { timeout: 30_000, message: 'the booking email is caught' })
      .toBeGreaterThan(0);

    // The viewer: not in the list, no page, no raw source — and the token nowhere.
    await page.goto('/mailbox');
    await expect(page.locator('table.mailbox-table')).toBeVisible();
    expect(await page.content()).not.toContain(token);
    await expect(page.locator(`a[href="/mailbox/${reset.id}"]`)).toHaveCount(0);
    expect((await page.goto(`/mailbox/${reset.id}`))?.status()).toBe(404);
    const raw = await page.request.get(`/api/mailbox/${reset.id}/raw`);
    expect(raw.status()).toBe(404);
    expect(await raw.text()).not.toContain(token);

    // A booking email to a participant: its links are dots, and not links.
    await page.goto('/mailbox');
    await expect(booked).toBeVisible();
    await booked.click();
    await expect(page.getByTestId('masked-notice')).toBeVisible();
    const text = page.locator('.message-text');
    await expect(text).toContainText('/preferences/••••');
    const html = page.frameLocator('iframe.message-html');
    await expect(html.locator('a[data-masked-href]').first()).toBeAttached();
    await expect(html.locator('a[href*="/preferences/"], a[href*="/u/"]')).toHaveCount(0);
    await expectAccessible(page, 'a masked message');
    await screen(page, 'mailbox-masked-1360');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.reload();
    await expect(page.getByTestId('masked-notice')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screen(page, 'mailbox-masked-375');

    // The admin, signed in as themself: their reset mail is listed and its link is readable.
    const admin = await adminCtx.newPage();
    await admin.goto(`/mailbox/${reset.id}`);
    await expect(admin.locator('.message-text')).toContainText(`set-password?token=${token}`);
    await expect(admin.getByTestId('masked-notice')).toHaveCount(0);
  } finally {
    await viewerCtx.close();
    await adminCtx.close();
  }
});
