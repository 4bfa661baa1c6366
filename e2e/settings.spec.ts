/**
 * Issue #13, the organisation settings page: an admin changes the sender name and sees it saved (after a reload
 * too), sees where mail goes out from, sends a test message (to their own address: only staff) and sees the answer of the dev mail catcher verbatim (a worker sends it), at 1360 px and
 * at 375 px; a viewer reads the settings without a form. The spec's own organisation's settings are put back at the end. Screenshots: settings, settings-375, settings-viewer.
 */
import { type Page } from '@playwright/test';
import { expect, expectAccessible, reEscape, sameOrigin, screen, test, unique, type TestTenant } from './support';

interface Settings {
  name: string;
  timeZone: string;
  senderName: string | null;
  senderEmail: string;
  replyTo: string | null;
  locale: string;
  emailProvider: string;
  version: number;
}

/** The settings as they were before this spec, put back in afterAll. */
let original: Settings | null = null;
/** When the last test message was asked for (ms): one per 10 s per organisation. */
let lastTestAt = 0;

test.use({ role: 'admin' });

test.beforeAll(async ({ tenants }, testInfo) => {
  const ctx = await tenants.contextAs(await tenants.of(testInfo), 'admin');
  original = (await (await ctx.request.get('/api/settings')).json()) as Settings;
  await ctx.close();
});

test.afterAll(async ({ tenants }, testInfo) => {
  if (!original) return;
  const ctx = await tenants.contextAs(await tenants.of(testInfo), 'admin');
  try {
    const now = (await (await ctx.request.get('/api/settings')).json()) as Settings;
    const { name, timeZone, senderName, senderEmail, replyTo, locale, emailProvider } = original;
    const r = await ctx.request.put('/api/settings', { headers: sameOrigin(), data: { name, timeZone, senderName, senderEmail, replyTo, locale, emailProvider, version: now.version } });
    expect(r.status(), await r.text()).toBe(200);
  } finally {
    await ctx.close();
  }
});

async function changeSenderAndSendTest(page: Page, tenant: TestTenant, shot: string) {
  const desk = `desk@${tenant.emailDomain}`;
  await page.goto('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Organisation settings' });
  const sender = unique('Demo Desk');
  await form.getByLabel('Sender name').fill(sender);
  await form.getByLabel('Reply-to address').fill(desk);
  await expect(form.getByTestId('from-preview')).toHaveText(`Mail reads: From “${sender}” <${tenant.senderEmail}>, Reply-To ${desk}`);
  await form.getByRole('button', { name: 'Save settings' }).click();
  await expect(form.getByRole('status')).toHaveText(`Saved. Mail now comes from “${sender}” <${tenant.senderEmail}>, replies go to ${desk}.`);
  await page.reload();
  await expect(page.getByRole('form', { name: 'Organisation settings' }).getByLabel('Sender name')).toHaveValue(sender);

  // A test message: a worker sends it through the dev mail catcher, whose answer is shown verbatim.
  const wait = lastTestAt + 10_500 - Date.now();
  if (wait > 0) await page.waitForTimeout(wait);
  // Where mail goes out from, and why: the organisation's own address — set by the operator (the seed,
  // e2e/tenants.ts), or at the deployment's sender domain anyway (npm start: punctual.local).
  await expect(page.getByTestId('sender-status')).toContainText(new RegExp(`Mail goes out from ${reEscape(tenant.senderEmail)} \\((verified|its domain is on this deployment’s list of sender domains)\\)\\.`));
  const panel = page.getByRole('form', { name: 'Send a test message' });
  // Only to a staff member of the organisation: the admin's own address is filled in.
  const to = await panel.getByLabel('Send a test message to').inputValue();
  expect(to).toMatch(/@/);
  await panel.getByRole('button', { name: 'Send a test message' }).click();
  lastTestAt = Date.now();
  const result = panel.getByTestId('test-message-result');
  await expect(result).toBeVisible(); // the request was answered: pending (or already sent)
  // Another one within 10 s is refused with a sentence (asked at once, so well inside the 10 s).
  const again = await page.request.post('/api/settings/test-message', { headers: sameOrigin(), data: { to } });
  expect(again.status()).toBe(429);
  expect(((await again.json()) as { error: string }).error).toMatch(/^One test message per 10 seconds: the last one was asked for moments ago — try again in \d+ s\.$/);
  await expect(result).toHaveAttribute('data-status', 'sent', { timeout: 30_000 });
  await expect(result).toContainText(`Accepted by the provider · ${to}`);
  await expect(panel.getByTestId('provider-answer')).toHaveText(/^250 /);
  await expectAccessible(page, `settings (${shot})`);
  await screen(page, shot);

  // The catcher has it, from the new sender name.
  await page.goto('/mailbox');
  await expect(page.locator('main')).toContainText(`Test message from ${sender}`);
}

test('an admin changes the sender name and sends a test message (1360 px)', async ({ page, tenant }) => {
  await changeSenderAndSendTest(page, tenant, 'settings');
  // The change is in the audit log, before → after.
  await page.goto('/audit?action=settings_update');
  const entry = page.locator('table.audit-table tbody tr').first();
  await expect(entry.locator('td[data-label="Action"]')).toHaveText('Changed the organisation settings');
  await expect(entry.locator('td[data-label="Details"]')).toContainText('Demo Desk-');
  await screen(page, 'settings-audit');
});

test('the same at 375 px', async ({ page, tenant }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await changeSenderAndSendTest(page, tenant, 'settings-375');
});

test('an address that is not verified yet: the page says where mail goes out from instead, at 375 px', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/settings');
  const form = page.getByRole('form', { name: 'Organisation settings' });
  await form.getByLabel('Reply-to address').fill('');
  await form.getByLabel('Sender address', { exact: true }).fill('news@unverified.example');
  await form.getByRole('button', { name: 'Save settings' }).click();
  await expect(form.getByRole('status')).toContainText('news@unverified.example is not verified yet: we sent a link to it');
  const status = page.getByTestId('sender-status');
  await expect(status).toHaveAttribute('data-proof', 'unverified');
  await expect(status).toContainText('news@unverified.example is not verified yet: mail goes out from reminders@punctual.local with Reply-To news@unverified.example.');
  await expect(status.getByRole('button', { name: 'Send the link again' })).toBeVisible();
  // Another organisation's address is refused, naming the field.
  await form.getByLabel('Sender address', { exact: true }).fill('HELLO@partner.punctual.local');
  await form.getByRole('button', { name: 'Save settings' }).click();
  await expect(form.getByLabel('Sender address', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'settings (unverified sender, 375 px)');
  await screen(page, 'settings-unverified-375');
});

test.describe('as viewer', () => {
  test.use({ role: 'viewer' });
  test('a viewer reads the settings and cannot change them', async ({ page }) => {
    await page.goto('/settings');
    await expect(page.getByText('Your role (viewer) can read the settings; only an admin can change them.')).toBeVisible();
    await expect(page.getByRole('form', { name: 'Organisation settings' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Send a test message' })).toHaveCount(0);
    const r = await page.request.put('/api/settings', { headers: sameOrigin(), data: { name: 'Hijacked', version: 1 } });
    expect(r.status()).toBe(403);
    await screen(page, 'settings-viewer');
  });
});

test('guest partnerships are agreed by both sides: the partner asks, the demo studio sees it pending and declines', async ({ page, contextAs, tenant }) => {
  const partner = await contextAs('partner');
  const p = await partner.newPage();
  try {
    // Partner Collective asks to book the demo studio's people (the other direction of the seeded partnership).
    await p.goto('/settings');
    const propose = p.getByRole('form', { name: 'Propose a guest partnership' });
    await propose.getByRole('radio', { name: 'Ask them to let us book their people as guests' }).check();
    await propose.getByLabel('Their organisation’s short name').fill(tenant.slug);
    await propose.getByRole('button', { name: 'Propose' }).click();
    // The answer names the slug typed, not the organisation: the same words as for a slug nobody has.
    await expect(propose.getByRole('status')).toHaveText(`Proposal sent to “${tenant.slug}”; it shows as pending until they accept.`);
    const asked = p.locator(`.partnership-host-list li.partnership[data-partner="${tenant.slug}"]`);
    await expect(asked).toHaveAttribute('data-status', 'pending');
    await expect(asked).toContainText(`Waiting for “${tenant.slug}” to accept`);
    await expect(asked.getByRole('button', { name: `Accept: ${tenant.slug}` })).toHaveCount(0); // only the other side accepts
    await expect(p.locator('.partnership-host-list')).not.toContainText(tenant.name);
    const nobody = `nobody-${Date.now().toString(36)}`;
    await propose.getByRole('radio', { name: 'Ask them to let us book their people as guests' }).check();
    await propose.getByLabel('Their organisation’s short name').fill(nobody);
    await propose.getByRole('button', { name: 'Propose' }).click();
    await expect(propose.getByRole('status')).toHaveText(`Proposal sent to “${nobody}”; it shows as pending until they accept.`);
    await expect(p.locator(`.partnership-host-list li.partnership[data-partner="${nobody}"]`)).toContainText(`Waiting for “${nobody}” to accept`);
    await screen(p, 'settings-partnership-proposals-by-slug');
    await p.setViewportSize({ width: 375, height: 800 });
    await screen(p, 'settings-partnership-proposals-by-slug-375');

    // The demo studio's admin sees the request, pending, and declines it after confirming.
    await page.goto('/settings');
    const card = page.locator('.partnership-list li.partnership[data-partner="Partner Collective"][data-status="pending"]');
    await expect(card.getByTestId('partnership-state')).toContainText('Partner Collective asks to book our people as guests');
    await expectAccessible(page, 'settings with a pending partnership');
    await screen(page, 'settings-partnership-pending');
    await card.getByRole('button', { name: 'Decline: Partner Collective' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Decline' }).click();
    await expect(page.locator('li.partnership[data-partner="Partner Collective"][data-status="pending"]')).toHaveCount(0);
    await expect(page.locator('.partnership-past')).toContainText('Partner Collective (they would book our people): declined');
    // Both organisations' audit logs have both steps.
    await page.goto('/audit');
    await expect(page.locator('table.audit-table tbody tr', { hasText: 'Declined a guest partnership' }).first()).toBeVisible();
    await p.goto('/audit');
    await expect(p.locator('table.audit-table tbody tr', { hasText: 'Proposed a guest partnership' }).first()).toBeVisible();
  } finally {
    await partner.close();
  }
});
