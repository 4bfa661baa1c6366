/**
 * A new organisation's first day, as `npm run tenant -- create` leaves it (its own `fresh` organisation: one admin,
 * nothing else): the dashboard's checklist says nothing will be sent until a rule exists, and ticks itself step by
 * step — the "2 hours before" preset opens the rule form filled in, an event, the admin booking themselves and the
 * message arriving in the mailbox — at 1360 and 375 px; the admin hides it, and it is gone for good.
 */
import { bookViaApi, createEventViaApi, expect, expectAccessible, sameOrigin, screen, test, unique } from './support';

test.use({ tenantKind: 'fresh', role: 'admin' });

test('the checklist of a fresh organisation ticks through its steps and can be hidden', async ({ page, tenant }) => {
  const checklist = page.getByTestId('first-day');
  const item = (id: string) => checklist.locator(`[data-item="${id}"]`);
  await page.goto('/');
  await expect(checklist.getByRole('heading', { name: 'Your first day with Punctual' })).toBeVisible();
  // The operator's create proved the sender address; nothing else is done yet.
  await expect(page.getByTestId('first-day-progress')).toHaveText('1 of 5 done');
  await expect(item('sender')).toHaveAttribute('data-done', 'true');
  await expect(item('rule')).toContainText('Nothing is sent before an event until a rule says when.');
  await expectAccessible(page, 'first-day checklist');
  await screen(page, 'first-day-fresh');

  // A preset opens the new-rule form filled in; creating it ticks the step.
  await item('rule').getByRole('link', { name: '2 hours before' }).click();
  await expect(page).toHaveURL(/\/rules\/new\?preset=two-hours$/);
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Two hours before');
  await page.getByRole('button', { name: 'Create rule' }).click();
  await page.getByTestId('rule-impact').getByRole('button', { name: /^Create rule — nothing to re-plan$|^Save — new bookings only$/ }).click();
  await expect(page).toHaveURL(/\/rules\?saved=/);
  await expect(page.locator('table.rules-table tbody tr', { hasText: 'Two hours before' })).toContainText('2 hours before start');

  // An event, then the admin books their own address and reminds themselves now: the message arrives.
  const eventId = await createEventViaApi(page, unique('First day'));
  await page.goto('/');
  await expect(item('event')).toHaveAttribute('data-done', 'true');
  await expect(item('test')).toHaveAttribute('data-done', 'false');
  const bookingId = await bookViaApi(page, eventId, { name: tenant.names.admin, email: tenant.accounts.admin });
  const nudge = await page.request.post(`/api/bookings/${bookingId}/nudge`, { headers: sameOrigin(), data: { template: 'attendee-reminder', idempotencyKey: unique('first-day') } });
  expect(nudge.status(), await nudge.text()).toBe(200);
  await expect
    .poll(
      async () => {
        await page.goto('/');
        return item('test').getAttribute('data-done');
      },
      { timeout: 30_000 },
    )
    .toBe('true');
  await expect(page.getByTestId('first-day-progress')).toHaveText('4 of 5 done');
  await expect(item('colleague').getByRole('link', { name: 'Invite someone' })).toHaveAttribute('href', '/staff');
  await screen(page, 'first-day-four-done');
  await page.setViewportSize({ width: 375, height: 812 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await screen(page, 'first-day-375');
  await page.setViewportSize({ width: 1360, height: 900 });

  // Hidden by the admin: gone, also after a reload; the audit log says who.
  await checklist.getByRole('button', { name: 'Hide this checklist' }).click();
  await page.getByRole('dialog', { name: 'Hide the first-day checklist?' }).getByRole('button', { name: 'Hide it' }).click();
  await expect(checklist).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(checklist).toHaveCount(0);
  await page.goto('/audit');
  await expect(page.locator('table.audit-table tbody tr').first()).toContainText('Dismissed the first-day checklist');
});
