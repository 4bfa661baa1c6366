/**
 * Accessibility sweep: axe (WCAG 2.x A/AA) on every page of the staff app, as an admin (who sees every
 * control), with no serious or critical violation. Feature specs check their own pages too; this one makes
 * sure no page is left out. Also: the editor of every message kind (in English) previews its email at two widths, its
 * plain-text part and its SMS text.
 */
import { templateIds } from '@/domain/vocabulary';
import { bookViaApi, createEventViaApi, expect, expectAccessible, firstHref, noWiderThan, screen, test, unique } from './support';

test.use({ role: 'admin' });

test('every page passes axe with no serious or critical violation', async ({ page }) => {
  const eventId = await createEventViaApi(page, unique('A11y sweep'));
  await bookViaApi(page, eventId, { name: 'Alex Access', email: `${unique('alex')}@example.test` });
  const ruleHref = await firstHref(page, '/rules', 'a[href^="/rules/"]');
  // The booking's confirmation: delivered by the worker, then caught by the mail catcher.
  const deliveryHref = await firstHref(page, '/deliveries', 'table.data-table tbody tr a.row-title');
  const messageHref = await firstHref(page, '/mailbox', 'table tbody tr a');
  const pages = ['/', '/events', `/events/${eventId}`, '/events/new', `/events/${eventId}/edit`, '/deliveries', deliveryHref, '/attention', '/suppressions', '/audit', '/rules', ruleHref, '/notifications', '/templates', '/templates/attendee-reminder/en', '/mailbox', messageHref];
  for (const url of pages) {
    expect(url, 'a link to follow').toBeTruthy();
    const res = await page.goto(url!);
    expect(res?.status(), url!).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expectAccessible(page, url!);
  }
});

test('templates: every message kind’s editor previews it at desktop and phone widths, with its plain-text part and SMS text', async ({ page }) => {
  for (const id of templateIds) {
    await page.goto(`/templates/${id}/en`);
    await expect(page.frameLocator('iframe[title="Email preview, desktop (600 px)"]').locator('h1')).toBeVisible();
    await expect(page.frameLocator('iframe[title="Email preview, phone (375 px)"]').locator('h1')).toBeVisible();
    const sms = page.locator('.template-sms');
    await expect(sms.getByRole('heading', { name: 'SMS', level: 3 })).toBeVisible();
    await expect(sms.locator('pre')).toContainText(': ');
    const details = page.locator('details', { hasText: 'Plain text' });
    await details.locator('summary').click();
    await expect(details.locator('pre')).toContainText('Hello');
    await expect(page.locator('main')).not.toContainText('undefined');
  }
  await expectAccessible(page, 'template editor');
  await page.setViewportSize({ width: 1360, height: 2400 });
  await screen(page, 'templates-with-text');

  // The overview: each language's SMS segments, of the words (the organisation's limit, 3 unless set) and with the link.
  await page.goto('/templates');
  await expect(page.getByTestId('sms-limit-note')).toContainText('your limit of 3 segments');
  const cost = page.locator('[data-kind="booking-confirmed"] li[data-locale="he"] [data-testid="sms-cost"]');
  await expect(cost).toHaveText(/^SMS: \d segments? · \d segments with the preferences link \(UCS-2\)$/);
  await expect(page.locator('[data-kind="booking-confirmed"] li[data-locale="en"] [data-testid="sms-cost"]')).toHaveText('SMS: 1 segment · 2 segments with the preferences link (GSM-7)');
  await screen(page, 'templates-overview');
  await page.setViewportSize({ width: 375, height: 812 });
  await noWiderThan(page, 375);
  await screen(page, 'templates-overview-375');
});
