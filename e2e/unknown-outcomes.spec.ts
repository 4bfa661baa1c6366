/**
 * Unknown outcomes: the built-in catcher stores the first message to a `+drop-once` address and drops the
 * connection before replying, so Punctual cannot know whether it went out. Nothing is resent by itself; a
 * person marks it as sent (no new email) or sends it again after a warning that it may arrive twice.
 */
import { expect, expectAccessible, faultyCase, mailboxCount, screen, test } from './support';

test('mark as sent: no new email; send again: warned, and the recipient gets it a second time', async ({ page }) => {
  const a = await faultyCase(page, 'una', 'drop-once');
  await expect(a.card.locator('[data-kind="delivery"]')).toHaveAttribute('data-status', 'unknown');
  await expect(a.card).toContainText('look for Message-ID');
  await expect(a.card.getByRole('button', { name: 'Replay', exact: true })).toHaveCount(0);
  await expectAccessible(page, 'attention-unknown');
  await screen(page, 'attention-unknown');
  await a.card.getByRole('button', { name: 'Mark as sent…' }).click();
  const mark = page.getByRole('dialog', { name: 'Mark as sent?' });
  await mark.getByLabel(/How do you know/).fill('found in the catcher mailbox');
  await mark.getByRole('button', { name: 'Mark as sent' }).click();
  await expect(a.card).toHaveCount(0);
  expect(await mailboxCount(page, a.email)).toBe(1);

  const b = await faultyCase(page, 'uno', 'drop-once');
  expect(await mailboxCount(page, b.email)).toBe(1);
  await page.goto('/attention');
  await b.card.getByRole('button', { name: 'Send again…' }).click();
  const again = page.getByRole('dialog', { name: 'Send again?' });
  await expect(again).toContainText('may get this message twice');
  await screen(page, 'attention-send-again');
  await again.getByLabel(/Reason/).fill('recipient says nothing arrived');
  await again.getByRole('button', { name: 'Send again' }).click();
  await expect(b.card).toHaveCount(0);
  await expect.poll(() => mailboxCount(page, b.email), { timeout: 30_000 }).toBe(2);
});
