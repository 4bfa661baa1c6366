/**
 * One-click unsubscribe in the browser (issue #10 §5; RFC 8058): `/u/<token>` for a demo contact, with
 * JavaScript DISABLED and without a session — the confirmation question (GET changes nothing), the plain form
 * button, the confirmation; a mail provider's raw `List-Unsubscribe=One-Click` POST without cookies answers 200;
 * a tampered token, an expired one and a missing body answer 400 and change nothing. Tokens are signed here with
 * the key the server derives from its session secret (scripts/lib.ts authSecret), as e2e/notifications.spec.ts
 * does for preference links.
 * Screenshots: unsubscribe-confirm-375, unsubscribe-confirm-1360, unsubscribe-done-375, unsubscribe-done-1360,
 * unsubscribe-invalid-375.
 */
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { type Page } from '@playwright/test';
import { createDb, type DbHandle } from '@/db/client';
import { contacts } from '@/db/schema';
import type { PreferenceCategory } from '@/domain/vocabulary';
import { authSecret, resolveDatabaseUrl, root } from '@/scripts/lib';
import { signUnsubscribeToken, unsubscribeExpiry, unsubscribeSecrets } from '@/server/sending/unsubscribe-link';
import { bookViaApi, createEventViaApi, expect, expectAccessible, screen, test, unique, type TenantFixtures } from './support';

// The person's browser: no script, no staff session.
test.use({ javaScriptEnabled: false, storageState: { cookies: [], origins: [] } });

let handle: DbHandle;
test.beforeAll(() => {
  const dbUrl = resolveDatabaseUrl();
  expect(dbUrl, 'the e2e server’s database').not.toBeNull();
  handle = createDb(dbUrl!, { max: 1 });
});
test.afterAll(async () => {
  await handle?.close();
});

const key = () => unsubscribeSecrets({ BETTER_AUTH_SECRET: authSecret(path.resolve(root, process.env.PUNCTUAL_DATA_DIR ?? '.data')) })[0];

/** Books a new person on a new event (as staff) and returns their contact row. */
async function demoContact(contextAs: TenantFixtures['contextAs'], name: string) {
  const staff = await contextAs('staff');
  try {
    const page = await staff.newPage();
    const eventId = await createEventViaApi(page, unique('Ceramics'));
    const email = `${unique('unsub')}@example.test`;
    await bookViaApi(page, eventId, { name, email });
    const [c] = await handle.db.select().from(contacts).where(eq(sql`lower(${contacts.email})`, email));
    return c;
  } finally {
    await staff.close();
  }
}

async function contactRow(id: string) {
  const [c] = await handle.db.select().from(contacts).where(eq(contacts.id, id));
  return c;
}

async function tokenFor(c: { tenantId: string; id: string }, category: PreferenceCategory, expiresAt = unsubscribeExpiry(new Date())) {
  return signUnsubscribeToken({ tenantId: c.tenantId, contactId: c.id, category, expiresAt }, key());
}

/** The token with one byte of its payload changed. */
function tampered(token: string): string {
  const [h, p, s] = token.split('.');
  const bytes = Buffer.from(p, 'base64url');
  bytes[20] ^= 0x01;
  return `${h}.${bytes.toString('base64url')}.${s}`;
}

const noWiderThan = async (page: Page, px: number) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(px);

test('the unsubscribe page works with JavaScript disabled: GET asks and changes nothing, the button unsubscribes', async ({ browser, page, contextAs, tenant }) => {
  const person = await demoContact(contextAs, 'Una Subscriber');
  const token = await tokenFor(person, 'reminders');
  const before = await contactRow(person.id);
  expect((before.preferences as { reminders: string[] }).reminders).toContain('email');

  await page.setViewportSize({ width: 375, height: 812 });
  const res = await page.goto(`/u/${token}`);
  expect(res?.status()).toBe(200);
  expect(res?.headers()['cache-control']).toBe('no-store');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Unsubscribe Una Subscriber from reminders from ${tenant.name}?`);
  const button = page.getByRole('button', { name: 'Unsubscribe' });
  await expect(button).toBeVisible();
  const prefs = page.getByRole('link', { name: 'your preferences page' });
  await expect(prefs).toHaveAttribute('href', /^\/preferences\/[\w-]+\.[\w-]+\.[\w-]+$/);
  await noWiderThan(page, 375);
  await screen(page, 'unsubscribe-confirm-375');
  await page.setViewportSize({ width: 1360, height: 900 });
  await screen(page, 'unsubscribe-confirm-1360');

  // A GET (what a link scanner does) changed nothing, however often.
  await page.goto(`/u/${token}`);
  const afterGet = await contactRow(person.id);
  expect(afterGet.version).toBe(before.version);
  expect(afterGet.preferences).toEqual(before.preferences);

  // The plain form button: a real POST of List-Unsubscribe=One-Click, answered 200 in place (no redirect).
  await page.setViewportSize({ width: 375, height: 812 });
  const [post] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), button.click()]);
  expect(post.status()).toBe(200);
  expect(post.request().postData()).toBe('List-Unsubscribe=One-Click');
  expect(new URL(page.url()).pathname).toBe(`/u/${token}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Unsubscribed from reminders');
  await expect(page.getByRole('status')).toHaveText(`Una Subscriber will no longer get reminders from ${tenant.name}.`);
  await noWiderThan(page, 375);
  await screen(page, 'unsubscribe-done-375');
  await page.setViewportSize({ width: 1360, height: 900 });
  await screen(page, 'unsubscribe-done-1360');

  const after = await contactRow(person.id);
  expect(after.version).toBe(before.version + 1);
  expect(after.updatedBy).toBe(`recipient ${person.email}`);
  expect(after.preferences).toMatchObject({ reminders: [], booking_updates: (before.preferences as { booking_updates: string[] }).booking_updates, unsubscribed: { reminders: expect.any(String) } });

  // Opening the link again says so; the preferences link opens the person's page (no sign-in).
  await page.goto(`/u/${token}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are unsubscribed from reminders');
  await page.getByRole('link', { name: 'your preferences page' }).click();
  await expect(page.getByRole('heading', { name: 'Your message preferences' })).toBeVisible();
  expect((await contactRow(person.id)).version).toBe(after.version);
});

test('the pages pass axe (script on, only for the checker: the pages themselves have none)', async ({ browser, contextAs }) => {
  const person = await demoContact(contextAs, 'Axel Checker');
  const token = await tokenFor(person, 'booking_updates');
  // The pages' Content-Security-Policy allows no script at all: bypass it for the checker alone.
  const ctx = await browser.newContext({ storageState: { cookies: [], origins: [] }, viewport: { width: 375, height: 812 }, bypassCSP: true, javaScriptEnabled: true });
  try {
    const page = await ctx.newPage();
    await page.goto(`/u/${token}`);
    await expectAccessible(page, 'unsubscribe question');
    await page.goto(`/u/${tampered(token)}`);
    await expectAccessible(page, 'unsubscribe link invalid');
  } finally {
    await ctx.close();
  }
  expect((await contactRow(person.id)).version).toBe(person.version);
});

test('a mail provider’s one-click POST answers 200 without cookies; a tampered or expired token and a missing body answer 400 and change nothing', async ({ browser, page, request, contextAs }) => {
  const person = await demoContact(contextAs, 'Otto Oneclick');
  expect((await request.storageState()).cookies).toEqual([]);
  const token = await tokenFor(person, 'booking_updates');
  const before = await contactRow(person.id);

  // Missing or wrong body → 400 naming the field; nothing changes.
  const empty = await request.post(`/u/${token}`, { maxRedirects: 0 });
  expect(empty.status()).toBe(400);
  expect(await empty.text()).toContain('List-Unsubscribe');
  const wrong = await request.post(`/u/${token}`, { form: { 'List-Unsubscribe': 'yes' }, maxRedirects: 0 });
  expect(wrong.status()).toBe(400);
  expect(await wrong.text()).toContain('List-Unsubscribe: must be One-Click');
  // Tampered (one byte) → 400, for POST and GET.
  const bad = await request.post(`/u/${tampered(token)}`, { form: { 'List-Unsubscribe': 'One-Click' }, maxRedirects: 0 });
  expect(bad.status()).toBe(400);
  expect(await bad.text()).toContain('This unsubscribe link does not work');
  // Expired → 400 saying so, pointing at the preferences link.
  const old = await tokenFor(person, 'booking_updates', new Date(Date.now() - 86_400_000));
  const expired = await request.post(`/u/${old}`, { form: { 'List-Unsubscribe': 'One-Click' }, maxRedirects: 0 });
  expect(expired.status()).toBe(400);
  expect(await expired.text()).toMatch(/This unsubscribe link has expired[\s\S]*preferences link/);
  expect((await contactRow(person.id)).version).toBe(before.version);

  // The real one: urlencoded, no cookies, no Origin → 200, a small HTML page, never a redirect.
  const ok = await request.post(`/u/${token}`, { form: { 'List-Unsubscribe': 'One-Click' }, maxRedirects: 0 });
  expect(ok.status()).toBe(200);
  expect(ok.headers()['content-type']).toMatch(/^text\/html/);
  expect(await ok.text()).toContain('Unsubscribed from booking updates');
  const after = await contactRow(person.id);
  expect(after.version).toBe(before.version + 1);
  expect(after.preferences).toMatchObject({ booking_updates: [], unsubscribed: { booking_updates: expect.any(String) } });
  // Again, as multipart/form-data (RFC 8058 allows both): still 200, nothing more changes.
  const again = await request.post(`/u/${token}`, { multipart: { 'List-Unsubscribe': 'One-Click' }, maxRedirects: 0 });
  expect(again.status()).toBe(200);
  expect((await contactRow(person.id)).version).toBe(after.version);

  // The tampered link in the browser: a plain 400 page, no staff links.
  await page.setViewportSize({ width: 375, height: 812 });
  const res = await page.goto(`/u/${tampered(token)}`);
  expect(res?.status()).toBe(400);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This unsubscribe link does not work');
  await expect(page.getByRole('link')).toHaveCount(0);
  await noWiderThan(page, 375);
  await screen(page, 'unsubscribe-invalid-375');
});
