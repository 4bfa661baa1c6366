/**
 * Requests that arrive twice (issue #8 §4), through the browser: the create forms send an Idempotency-Key,
 * so two submits of one form (a double click that beats the disabled button, or a retried request) create
 * once and both answers name the same record; a person whose booking was cancelled is booked again and the
 * event page keeps the cancelled booking as history beside the live one.
 * Screenshots (desktop 1360 px and phone 375 px): event-rebooked, event-rebooked-phone, audit-rebook,
 * audit-rebook-phone.
 */
import { type Page, type Response } from '@playwright/test';
import { expect, expectAccessible, keepTimelinesOpen, screen, test, unique } from './support';

// The event page folds each participant's timeline; these checks read the timelines.
test.beforeEach(async ({ page }) => keepTimelinesOpen(page));

/** Collects the answers to POSTs whose path matches `path` while `action` runs. */
async function postsDuring(page: Page, path: RegExp, action: () => Promise<void>): Promise<{ status: number; id: string; replayed: boolean; key: string | null }[]> {
  const seen: Promise<{ status: number; id: string; replayed: boolean; key: string | null }>[] = [];
  const onResponse = (r: Response) => {
    if (r.request().method() !== 'POST' || !path.test(new URL(r.url()).pathname)) return;
    seen.push(
      r.json().then((b: { id?: string }) => ({
        status: r.status(),
        id: String(b.id),
        replayed: r.headers()['idempotent-replayed'] === 'true',
        key: r.request().headers()['idempotency-key'] ?? null,
      })),
    );
  };
  page.on('response', onResponse);
  await action();
  await expect.poll(() => seen.length).toBeGreaterThanOrEqual(2);
  page.off('response', onResponse);
  return Promise.all(seen);
}

/** Submits `form` twice in the same task: both submit events fire before React can disable the button. */
async function submitTwice(page: Page, selector: string): Promise<void> {
  await page.locator(selector).evaluate((f: HTMLFormElement) => {
    f.requestSubmit();
    f.requestSubmit();
  });
}

test('two submits of New event and Add participant create once; a cancelled participant is booked again and both bookings show', async ({ page }) => {
  const title = unique('Glaze workshop');
  await page.goto('/events/new');
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Starts (local time)').fill('2030-09-10T18:00');
  await page.getByLabel('Ends (local time)').fill('2030-09-10T20:00');
  const eventPosts = await postsDuring(page, /^\/api\/events$/, () => submitTwice(page, 'form.event-form'));
  expect(eventPosts.map((p) => p.status)).toEqual([200, 200]);
  expect(eventPosts[0]!.key).toBeTruthy();
  expect(eventPosts[1]!.key).toBe(eventPosts[0]!.key);
  expect(eventPosts[1]!.id).toBe(eventPosts[0]!.id);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const eventUrl = page.url();
  await page.goto(`/events?q=${encodeURIComponent(title)}`);
  await expect(page.locator('table.events-table tbody tr', { hasText: title })).toHaveCount(1);
  await page.goto(eventUrl);

  // Add participant, submitted twice: one booking, one reminder plan, no "already booked" error.
  const add = page.locator('form.add-participant');
  const email = `${unique('rita')}@example.test`;
  await add.getByLabel('Name').fill('Rita Rebook');
  await add.getByLabel('Email').fill(email);
  const bookingPosts = await postsDuring(page, /^\/api\/events\/[^/]+\/bookings$/, () => submitTwice(page, 'form.add-participant'));
  expect(bookingPosts.map((p) => p.status)).toEqual([200, 200]);
  expect(bookingPosts[1]!.key).toBe(bookingPosts[0]!.key);
  expect(bookingPosts[1]!.id).toBe(bookingPosts[0]!.id);
  expect(bookingPosts.filter((p) => p.replayed)).toHaveLength(1);
  await expect(add.getByRole('status')).toContainText('Rita Rebook is booked');
  await expect(add.getByRole('alert')).toHaveCount(0);
  const rita = page.locator('[data-role-group="attendee"] [data-booking-id]', { hasText: 'Rita Rebook' });
  await expect(rita).toHaveCount(1);
  // Demo rules for an event without an online room: 2 reminders for an attendee, planned once (rule reminders:
  // the booking notifications show in the timeline too).
  await expect(rita.locator('.timeline-row[data-kind="rule"]')).toHaveCount(2);
  const firstId = bookingPosts[0]!.id;

  // A later booking from the same form gets a new key (the first one was used up by the success).
  await add.getByLabel('Name').fill('Otto Other');
  await add.getByLabel('Email').fill(`${unique('otto')}@example.test`);
  const others = await postsDuring(page, /^\/api\/events\/[^/]+\/bookings$/, async () => {
    await add.getByRole('button', { name: 'Add participant' }).click();
    await expect(add.getByRole('status')).toContainText('Otto Other is booked');
    await add.getByLabel('Name').fill('Otto Other');
    await add.getByLabel('Email').fill(`${unique('otto2')}@example.test`);
    await add.getByRole('button', { name: 'Add participant' }).click();
    await expect(add.getByRole('status')).toContainText('Otto Other is booked');
  });
  expect(others.map((p) => p.status)).toEqual([200, 200]);
  expect(others[0]!.id).not.toBe(others[1]!.id);
  expect(new Set([bookingPosts[0]!.key, others[0]!.key, others[1]!.key]).size).toBe(3);

  // Cancel Rita's booking, then book her again.
  await page.getByRole('button', { name: 'Cancel booking — Rita Rebook' }).click();
  const cancel = page.getByRole('dialog', { name: /Cancel Rita Rebook/ });
  await cancel.getByLabel(/Reason/).fill('changed her mind');
  await cancel.getByRole('button', { name: 'Cancel booking' }).click();
  await expect(rita.locator('[data-kind="booking"]')).toHaveAttribute('data-status', 'cancelled');
  await add.getByLabel('Name').fill('Rita Rebook');
  await add.getByLabel('Email').fill(email);
  await add.getByRole('button', { name: 'Add participant' }).click();
  await expect(add.getByRole('status')).toContainText('Rita Rebook is booked');

  await expect(rita).toHaveCount(2);
  const live = rita.filter({ has: page.locator('[data-kind="booking"][data-status="confirmed"]') });
  const history = page.locator(`[data-booking-id="${firstId}"]`);
  await expect(live).toHaveCount(1);
  await expect(live.locator('.timeline-row[data-kind="rule"][data-reminder-status="scheduled"]')).toHaveCount(2);
  await expect(history).toHaveClass(/is-history/);
  await expect(history).toContainText('booked again');
  await expect(history.locator('.timeline-row[data-kind="rule"][data-reminder-status="cancelled"]')).toHaveCount(2);
  await expect(history).toHaveAttribute('data-rebooked-as', (await live.getAttribute('data-booking-id'))!);
  // The live booking comes first; the group counts people (Rita, Otto ×2), not bookings.
  await expect(rita.first()).not.toHaveClass(/is-history/);
  await expect(page.locator('#group-attendee .count')).toHaveText('3');
  // Rita's live booking and the two Ottos: 3 × 2 (the cancelled booking expects nothing).
  await expect(page.getByTestId('coverage')).toContainText('6 reminders planned');
  await expectAccessible(page, 'event rebooked');
  await screen(page, 'event-rebooked');
  await page.setViewportSize({ width: 375, height: 800 });
  await rita.first().scrollIntoViewIfNeeded();
  await screen(page, 'event-rebooked-phone');
  await page.setViewportSize({ width: 1360, height: 900 });

  // The audit log says it was a re-booking.
  await page.goto('/audit');
  const entry = page.locator('tr[data-action="booking_add"]', { hasText: email }).first();
  await expect(entry).toContainText('Booked a participant again');
  await screen(page, 'audit-rebook');
  await page.setViewportSize({ width: 375, height: 800 });
  await screen(page, 'audit-rebook-phone');
});
