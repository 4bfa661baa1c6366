/**
 * "Remind participant": the dialog previews the real message; a double click sends exactly one email (the
 * idempotency key made when the dialog opened); a second nudge within the minute is refused with a clear
 * message; the nudge shows in the timeline and never touches the planned reminders.
 */
import { eq, sql } from 'drizzle-orm';
import { createDb } from '@/db/client';
import { contacts } from '@/db/schema';
import { resolveDatabaseUrl } from '@/scripts/lib';
import { bookViaApi, createEventViaApi, expect, expectAccessible, keepTimelinesOpen, mailboxCount, sameOrigin, screen, test, unique } from './support';

// The event page folds each participant's timeline; these checks read the timelines.
test.beforeEach(async ({ page }) => keepTimelinesOpen(page));

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
  // The message key is on the delivery's page (the row links to it), not on the timeline.
  await expect(nudges.first().locator('a.delivery-link')).toHaveAttribute('href', /^\/deliveries\//);
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

test('a person who unsubscribed from reminders (link or preferences): the preview says so and the send button is off', async ({ page }) => {
  const eventId = await createEventViaApi(page, unique('Unsubscribed nudge'));
  const email = `${unique('uma')}@example.test`;
  const bookingId = await bookViaApi(page, eventId, { name: 'Uma Unsub', email });
  const handle = createDb(resolveDatabaseUrl()!, { max: 1 });
  const setPrefs = (preferences: unknown) => handle.db.update(contacts).set({ preferences }).where(eq(sql`lower(${contacts.email})`, email));
  type Preview = { optedOut: { reason: string; unsubscribedAt: string | null; zone: string } | null };
  const preview = async () => (await (await page.request.get(`/api/bookings/${bookingId}/preview?template=attendee-reminder`)).json()) as Preview;
  try {
    expect((await preview()).optedOut).toBeNull();
    // One-click link (the marker domain/notifications/preferences.ts unsubscribeFrom writes).
    await setPrefs({ reminders: [], booking_updates: ['email'], unsubscribed: { reminders: '2027-08-03T12:00:00.000Z' } });
    const linked = await preview();
    expect(linked.optedOut).toMatchObject({ reason: 'unsubscribed from reminders (one-click link, 2027-08-03T12:00:00.000Z)', unsubscribedAt: '2027-08-03T12:00:00.000Z' });
    await page.goto(`/events/${eventId}`);
    const card = page.locator(`[data-booking-id="${bookingId}"]`);
    await card.getByRole('button', { name: 'Remind now — Uma Unsub' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remind Uma Unsub now' });
    await expect(dialog.locator('[data-opted-out="link"]')).toContainText(/^Uma Unsub unsubscribed from reminders on \w{3} 3 Aug 2027, \d\d:\d\d \S+ with the link in a message, so nothing would be sent\./);
    await expect(dialog).not.toContainText('One email goes to');
    await expect(dialog.getByRole('button', { name: 'Send reminder now' })).toBeDisabled();
    await screen(page, 'nudge-unsubscribed');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Opted out on the preferences page (no marker): the send path cancels it the same way.
    await setPrefs({ reminders: [], booking_updates: ['email'] });
    expect((await preview()).optedOut).toMatchObject({ reason: 'opted out of reminders by email', unsubscribedAt: null });
    await page.goto(`/events/${eventId}`);
    await card.getByRole('button', { name: 'Remind now — Uma Unsub' }).click();
    await expect(dialog.locator('[data-opted-out="preferences"]')).toContainText('Uma Unsub opted out of reminders by email in their preferences, so nothing would be sent.');
    await expect(dialog.getByRole('button', { name: 'Send reminder now' })).toBeDisabled();
  } finally {
    await handle.close();
  }
});
