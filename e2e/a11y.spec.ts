/**
 * Accessibility sweep: axe (WCAG 2.x A/AA) on every page of the staff app, as an admin (who sees every
 * control), with no serious or critical violation. Feature specs check their own pages too; this one makes
 * sure no page is left out. Also: the templates page shows HTML at two widths, the plain-text part and the
 * SMS text of every template.
 */
import { templateIds } from '@/domain/vocabulary';
import { bookViaApi, createEventViaApi, expect, expectAccessible, firstHref, screen, test, unique } from './support';

test.use({ role: 'admin' });

test('every page passes axe with no serious or critical violation', async ({ page }) => {
  const eventId = await createEventViaApi(page, unique('A11y sweep'));
  await bookViaApi(page, eventId, { name: 'Alex Access', email: `${unique('alex')}@example.test` });
  const ruleHref = await firstHref(page, '/rules', 'a[href^="/rules/"]');
  // The booking's confirmation: delivered by the worker, then caught by the mail catcher.
  const deliveryHref = await firstHref(page, '/deliveries', 'table.data-table tbody tr a.row-title');
  const messageHref = await firstHref(page, '/mailbox', 'table tbody tr a');
  const pages = ['/', '/events', `/events/${eventId}`, '/events/new', `/events/${eventId}/edit`, '/deliveries', deliveryHref, '/attention', '/suppressions', '/audit', '/rules', ruleHref, '/notifications', '/templates', '/mailbox', messageHref];
  for (const url of pages) {
    expect(url, 'a link to follow').toBeTruthy();
    const res = await page.goto(url!);
    expect(res?.status(), url!).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expectAccessible(page, url!);
  }
});

test('templates: every template at desktop and phone widths, with its plain-text part and SMS text', async ({ page }) => {
  await page.goto('/templates');
  for (const id of templateIds) {
    await expect(page.frameLocator(`iframe[title="${id} desktop"]`).locator('h1')).toBeVisible();
    await expect(page.frameLocator(`iframe[title="${id} phone"]`).locator('h1')).toBeVisible();
    const sms = page.locator(`[data-sms="${id}"]`);
    await expect(sms.getByRole('heading', { name: 'SMS', level: 3 })).toBeVisible();
    await expect(sms.locator('pre')).toContainText(': ');
  }
  const details = page.locator('details', { hasText: 'Plain text' });
  await expect(details).toHaveCount(templateIds.length);
  for (const d of await details.all()) {
    await d.locator('summary').click();
    await expect(d.locator('pre')).toContainText('Hello');
  }
  await expect(page.locator('body')).not.toContainText('undefined');
  await expectAccessible(page, 'templates');
  await page.setViewportSize({ width: 1360, height: 3200 });
  await screen(page, 'templates-with-text');
});
