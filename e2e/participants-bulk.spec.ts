/**
 * Issue #13, bulk actions on an event's participants and the participants CSV, as staff use them in a browser,
 * on participants of an event made for this spec:
 *  - tick two participants (checkboxes; "Select all"), "Nudge selected": per-participant results; a second nudge
 *    within a minute is refused for that participant only, saying when to try again;
 *  - "Cancel selected": both cancelled in one request; a stale selection (one cancelled from elsewhere) → the
 *    dialog names who changed and nothing is cancelled;
 *  - the participants CSV downloads and starts with the UTF-8 BOM; accents intact;
 *  - at 375 px the cards' checkboxes and the bar are reachable by keyboard and nothing is wider than the window;
 *  - /deliveries and /audit link an export carrying exactly their filters; it answers text/csv, UTF-8, with a BOM.
 * Screenshots: bulk-selected-desktop, bulk-nudge-results, bulk-cancel-stale, bulk-cancelled, bulk-selected-375,
 * bulk-nudge-dialog-375.
 */
import fs from 'node:fs';
import { type Page } from '@playwright/test';
import { bookViaApi, createEventViaApi, expect, expectAccessible, keepTimelinesOpen, reEscape, sameOrigin, screen, test, unique } from './support';

// The event page folds each participant's timeline; these checks read the timelines.
test.beforeEach(async ({ page }) => keepTimelinesOpen(page));

async function setup(page: Page) {
  const eventId = await createEventViaApi(page, unique('Bulk Łódź'));
  const people = {
    zoe: { name: 'Zoë Bulk', email: `${unique('zoe')}@example.test` },
    lukasz: { name: 'Łukasz z Łodzi', email: `${unique('lukasz')}@example.test` },
    third: { name: 'Theo Third', email: `${unique('theo')}@example.test` },
  };
  const ids = {
    zoe: await bookViaApi(page, eventId, people.zoe),
    lukasz: await bookViaApi(page, eventId, people.lukasz),
    third: await bookViaApi(page, eventId, people.third),
  };
  return { eventId, people, ids };
}

const card = (page: Page, bookingId: string) => page.locator(`article.participant[data-booking-id="${bookingId}"]`);

test('select two, nudge them (per-participant results, one-a-minute per participant), cancel selected, stale selection refused', async ({ page }) => {
  const { eventId, people, ids } = await setup(page);
  await page.goto(`/events/${eventId}`);
  await page.getByRole('checkbox', { name: `Select ${people.zoe.name}` }).check();
  await page.getByRole('checkbox', { name: `Select ${people.lukasz.name}` }).check();
  const bar = page.getByRole('region', { name: 'Selected participants' });
  await expect(bar).toContainText('2 selected:');
  await expect(page.getByTestId('select-all')).toHaveJSProperty('indeterminate', true);
  await screen(page, 'bulk-selected-desktop');
  await expectAccessible(page, 'event page with a selection');

  // Nudge selected: a confirm dialog saying how many, then each participant's result.
  await bar.getByRole('button', { name: 'Nudge selected' }).click();
  const nudgeDialog = page.getByRole('dialog', { name: 'Remind 2 participants now?' });
  await expect(nudgeDialog).toContainText(people.zoe.name);
  // A double click on the confirm button sends once (one idempotency key per dialog opening).
  await nudgeDialog.getByRole('button', { name: 'Send 2 reminders' }).dblclick();
  const results = page.getByTestId('bulk-results');
  await expect(results).toContainText('Reminders: 2 sent');
  await expect(results.locator(`li[data-booking-id="${ids.zoe}"]`)).toHaveAttribute('data-outcome', 'sent');
  await expect(results.locator(`li[data-booking-id="${ids.lukasz}"]`)).toHaveAttribute('data-outcome', 'sent');
  await expect(bar).toBeHidden(); // the selection is cleared
  // One nudge each in their timelines (the double click did not send twice).
  await expect(card(page, ids.zoe).locator('li.timeline-row[data-kind="nudge"]')).toHaveCount(1);
  await expect(card(page, ids.lukasz).locator('li.timeline-row[data-kind="nudge"]')).toHaveCount(1);
  await screen(page, 'bulk-nudge-results');

  // Within the minute: Zoë again, with Theo — Theo is reminded, Zoë refused with when to try again.
  await page.getByRole('checkbox', { name: `Select ${people.zoe.name}` }).check();
  await page.getByRole('checkbox', { name: `Select ${people.third.name}` }).check();
  await bar.getByRole('button', { name: 'Nudge selected' }).click();
  await page.getByRole('dialog', { name: 'Remind 2 participants now?' }).getByRole('button', { name: 'Send 2 reminders' }).click();
  await expect(results).toContainText('Reminders: 1 sent, 1 not sent');
  await expect(results.locator(`li[data-booking-id="${ids.third}"]`)).toHaveAttribute('data-outcome', 'sent');
  const refused = results.locator(`li[data-booking-id="${ids.zoe}"]`);
  await expect(refused).toHaveAttribute('data-outcome', 'refused');
  await expect(refused).toContainText(/nudged less than a minute ago — try again at \d\d:\d\d/);

  // Cancel selected, stale: Theo is cancelled from elsewhere after the page showed him → nothing cancelled, names him.
  await page.getByRole('checkbox', { name: `Select ${people.lukasz.name}` }).check();
  await page.getByRole('checkbox', { name: `Select ${people.third.name}` }).check();
  await bar.getByRole('button', { name: 'Cancel selected' }).click();
  const cancelDialog = page.getByRole('dialog', { name: 'Cancel 2 bookings?' });
  await expect(cancelDialog).toBeVisible();
  const elsewhere = await page.request.post(`/api/bookings/${ids.third}/cancel`, { headers: sameOrigin(), data: { reason: 'cancelled on the phone', version: 1 } });
  expect(elsewhere.status(), await elsewhere.text()).toBe(200);
  await cancelDialog.getByLabel(/^Reason/).fill('venue closed');
  await cancelDialog.getByRole('button', { name: 'Cancel 2 bookings' }).click();
  await expect(cancelDialog.getByRole('alert')).toContainText(`nothing was cancelled: ${people.third.name} (cancelled by`);
  await screen(page, 'bulk-cancel-stale');
  await cancelDialog.getByRole('button', { name: 'Keep as is' }).click();
  await expect(card(page, ids.lukasz)).not.toHaveClass(/is-cancelled/);

  // Again, with what the page shows now: Theo is no longer selectable; Zoë and Łukasz are cancelled together.
  await expect(page.getByRole('checkbox', { name: `Select ${people.third.name}` })).toHaveCount(0);
  await page.getByRole('checkbox', { name: `Select ${people.zoe.name}` }).check();
  await expect(bar).toContainText('2 selected:');
  await bar.getByRole('button', { name: 'Cancel selected' }).click();
  const again = page.getByRole('dialog', { name: 'Cancel 2 bookings?' });
  await again.getByLabel(/^Reason/).fill('venue closed');
  await again.getByRole('button', { name: 'Cancel 2 bookings' }).click();
  await expect(again).toBeHidden();
  await expect(card(page, ids.zoe)).toHaveClass(/is-cancelled/);
  await expect(card(page, ids.lukasz)).toHaveClass(/is-cancelled/);
  await expect(page.getByTestId('select-all')).toHaveCount(0); // nobody left to select
  await screen(page, 'bulk-cancelled');
});

test('the participants CSV downloads with a UTF-8 BOM and the accents intact', async ({ page, tenant }) => {
  const { eventId, people } = await setup(page);
  await page.goto(`/events/${eventId}`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-participants').click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^${reEscape(tenant.slug)}-participants-bulk-lodz-.*-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const bytes = fs.readFileSync(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  expect(text.split('\r\n')[0]).toMatch(/^Name,Email,Phone,Role,Booking status/);
  expect(text).toContain(`${people.zoe.name},${people.zoe.email}`);
  expect(text).toContain(people.lukasz.name);
});

test('at 375 px the checkboxes and the bar are reachable by keyboard; nothing is wider than the window', async ({ page }) => {
  const { eventId, people } = await setup(page);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`/events/${eventId}`);
  const box = page.getByRole('checkbox', { name: `Select ${people.zoe.name}` });
  await box.focus();
  await page.keyboard.press('Space');
  await expect(box).toBeChecked();
  const other = page.getByRole('checkbox', { name: `Select ${people.lukasz.name}` });
  await other.focus();
  await page.keyboard.press('Space');
  const bar = page.getByRole('region', { name: 'Selected participants' });
  await expect(bar).toContainText('2 selected:');
  await expect(bar).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.screenshot({ path: test.info().outputPath('bulk-selected-375.png') });
  await screen(page, 'bulk-selected-375');
  // Keyboard: the bar's button opens the dialog; Escape closes it, nothing sent.
  await bar.getByRole('button', { name: 'Nudge selected' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Remind 2 participants now?' });
  await expect(dialog).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.screenshot({ path: test.info().outputPath('bulk-nudge-dialog-375.png') });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('bulk-results')).toHaveCount(0);
  // Select all ticks all three.
  await page.getByTestId('select-all').check();
  await expect(bar).toContainText('3 selected:');
});

test('the deliveries and audit pages link an export carrying exactly their filters; the download is UTF-8 CSV with a BOM', async ({ page, tenant }) => {
  await page.goto('/deliveries?status=accepted&channel=email&page=1');
  const link = page.getByTestId('export-deliveries');
  await expect(link).toHaveAttribute('href', '/api/exports/deliveries?channel=email&status=accepted');
  const res = await page.request.get((await link.getAttribute('href'))!);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('text/csv; charset=utf-8');
  expect(res.headers()['content-disposition']).toMatch(new RegExp(`^attachment; filename="${reEscape(tenant.slug)}-deliveries-\\d{4}-\\d{2}-\\d{2}\\.csv"`));
  const body = await res.body();
  expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body).split('\r\n');
  expect(lines[0]).toMatch(/^Created at \(UTC\),Created at \(Europe\/Amsterdam\),Channel,To/);
  // Every row is an accepted email (the filters went with the link).
  for (const l of lines.slice(1).filter((x) => /^\d{4}-/.test(x))) expect(l).toMatch(/,email,.*,accepted,/);
  await page.goto('/audit?action=nudge&from=2026-01-01');
  await expect(page.getByTestId('export-audit')).toHaveAttribute('href', '/api/exports/audit?action=nudge&from=2026-01-01');
});
