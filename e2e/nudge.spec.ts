/**
 * "Remind participant": the dialog previews the real message; a double click sends exactly one email (the
 * idempotency key made when the dialog opened); a second nudge within the minute is refused with a clear
 * message; the nudge shows in the timeline and never touches the planned reminders.
 */
import { expect, test } from '@playwright/test';
import { bookViaApi, createEventViaApi, expectAccessible, mailboxCount, sameOrigin, screen, unique } from './support';

test('double click → exactly one email; a second nudge within a minute is refused', async ({ page }) => {
  const title = unique('Nudge workshop');
  const eventId = await createEventViaApi(page, title);
  const email = `${unique('nia')}@example.test`;
  const bookingId = await bookViaApi(page, eventId, { name: 'Nia Nudge', email });
  await page.goto(`/events/${eventId}`);
  const card = page.locator(`[data-booking-id="${bookingId}"]`);
  // Demo rules for attendees: day before and starting soon (the room-opening rule needs an online room).
  await expect(card.locator('.timeline-row[data-kind="rule"]')).toHaveCount(2);

  await card.getByRole('button', { name: 'Remind now — Nia Nudge' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remind Nia Nudge now' });
  await expect(dialog.getByLabel('Channel')).toHaveValue('email');
  await expect(dialog.getByLabel('Template')).toHaveValue('attendee-reminder');
  await expect(dialog).toContainText(`Subject:`);
  await expect(dialog.frameLocator('iframe').locator('body')).toContainText(title);
  await expectAccessible(page, 'nudge-dialog');
  await screen(page, 'nudge-dialog');
  await dialog.getByRole('button', { name: 'Send reminder now' }).dblclick();
  await expect(dialog).toBeHidden();

  const nudges = card.locator('.timeline-row[data-kind="nudge"]');
  await expect(nudges).toHaveCount(1);
  await expect(nudges.first()).toContainText('Manual reminder');
  await expect(nudges.first()).toHaveAttribute('data-delivery-status', /accepted|delivered/, { timeout: 30_000 });
  await expect(nudges.first().locator('code[title="Message key"]')).toContainText('nudge:');
  // The planned reminders are untouched.
  await expect(card.locator('.timeline-row[data-kind="rule"][data-reminder-status="scheduled"]')).toHaveCount(2);
  await expect.poll(() => mailboxCount(page, email), { timeout: 20_000 }).toBe(1);

  // A new request (new idempotency key) within the minute is refused, naming the wait.
  const key = unique('retry');
  const first = await page.request.post(`/api/bookings/${bookingId}/nudge`, { headers: sameOrigin(), data: { template: 'attendee-reminder', idempotencyKey: key } });
  expect(first.status()).toBe(429);
  expect(((await first.json()) as { error: string }).error).toMatch(/at most one manual reminder per minute\. Try again in \d+ s/);

  // Through the UI: a second nudge within the minute is refused plainly; the dialog stays open.
  await page.goto(`/events/${eventId}`);
  await card.getByRole('button', { name: 'Remind now — Nia Nudge' }).click();
  await dialog.getByRole('button', { name: 'Send reminder now' }).click();
  await expect(dialog.locator('.form-error')).toContainText('at most one manual reminder per minute');
  await screen(page, 'nudge-refused');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await mailboxCount(page, email)).toBe(1);
});

test('the same idempotency key sent twice at once answers the same nudge', async ({ page }) => {
  const eventId = await createEventViaApi(page, unique('Idempotent nudge'));
  const email = `${unique('ike')}@example.test`;
  const bookingId = await bookViaApi(page, eventId, { name: 'Ike Idem', email });
  const key = unique('same-key');
  const send = () => page.request.post(`/api/bookings/${bookingId}/nudge`, { headers: sameOrigin(), data: { template: 'attendee-reminder', idempotencyKey: key } });
  const [a, b] = await Promise.all([send(), send()]);
  expect([a.status(), b.status()]).toEqual([200, 200]);
  const [ja, jb] = (await Promise.all([a.json(), b.json()])) as { reminderId: string; replayed: boolean }[];
  expect(ja.reminderId).toBe(jb.reminderId);
  expect([ja.replayed, jb.replayed].sort()).toEqual([false, true]);
  await expect.poll(() => mailboxCount(page, email), { timeout: 20_000 }).toBe(1);
});
