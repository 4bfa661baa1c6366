/**
 * Dead letters: a forced permission error (the built-in catcher refuses the first reminder or nudge to a
 * `+deny-once` address with 550 5.7.1) → a dead letter owned by configuration on "Needs attention" → replay → exactly one
 * email. Discard needs a reason. Both actions show in the delivery's audit trail.
 */
import { expect, expectAccessible, faultyCase, mailboxCount, screen, test } from './support';

test('permission error → dead letter → replay → one email', async ({ page, tenant }) => {
  const { email, card } = await faultyCase(page, 'perm', 'deny-once');
  await expect(card).toContainText('To repair: configuration');
  await expect(card).toContainText('5.7.1');
  // A refusal that stays until someone fixes it: the fix is offered before "Replay".
  await expect(card.getByTestId('repair-first').getByRole('link', { name: 'Open the settings' })).toHaveAttribute('href', '/settings');
  await expect(card.locator('[data-kind="delivery"]')).toHaveAttribute('data-status', 'dead');
  expect(await mailboxCount(page, email)).toBe(0);
  await page.goto('/attention');
  await expectAccessible(page, 'attention');
  await screen(page, 'attention-dead-letter');
  await card.getByRole('button', { name: 'Replay', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Replay this dead letter?' });
  await expect(dialog).toContainText('same message key');
  await dialog.getByRole('button', { name: 'Replay now' }).click();
  await expect(card).toHaveCount(0);
  await expect.poll(() => mailboxCount(page, email), { timeout: 30_000 }).toBe(1);
  // The delivery's story shows both attempts and who replayed it.
  await page.goto(`/deliveries?q=${encodeURIComponent(email)}`);
  // The nudge's delivery (the booking confirmation to the same address is another one).
  await page.locator('table.data-table tbody tr', { hasText: 'Reminder:' }).locator('a.row-title').first().click();
  await expect(page.locator('[data-kind="delivery"]').first()).toHaveAttribute('data-status', 'accepted');
  await expect(page.locator('[data-action="replay"]')).toHaveText('Replayed a dead letter');
  await expect(page.locator('[data-action="nudge"]')).toHaveText('Reminded a participant');
  await expect(page.locator('body')).toContainText(tenant.accounts.staff);
  await screen(page, 'delivery-replayed');
});

test('discard needs a reason; replay-selected reports each result', async ({ page }) => {
  const one = await faultyCase(page, 'disc', 'deny-once');
  await one.card.getByRole('button', { name: 'Discard…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Discard this dead letter?' });
  await dialog.getByRole('button', { name: 'Discard' }).click();
  await expect(dialog.locator('.form-error')).toContainText('reason of at least 3 characters');
  await dialog.getByLabel(/Why is it not worth sending/).fill('event moved online; guest informed by phone');
  await dialog.getByRole('button', { name: 'Discard' }).click();
  await expect(one.card).toHaveCount(0);
  expect(await mailboxCount(page, one.email)).toBe(0);

  const two = await faultyCase(page, 'sel', 'deny-once');
  await page.goto('/attention');
  await two.card.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Replay selected' }).click();
  await page.getByRole('dialog', { name: 'Replay 1 dead letter?' }).getByRole('button', { name: 'Replay now' }).click();
  // The notice outlives the selection bar, which leaves the page with its last card.
  await expect(page.getByTestId('live-notice')).toContainText(`1 replayed: sending to ${two.email} again now.`);
  await expect.poll(() => mailboxCount(page, two.email), { timeout: 30_000 }).toBe(1);
});
