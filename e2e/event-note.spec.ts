/**
 * The event's note for participants through the UI, on a phone (375 px) and a desktop (1360 px): staff write a note
 * for all languages and a Dutch one in the event form, the event page shows both, a Dutch participant's booking
 * confirmation goes out, and the deliveries list and the delivery's page say which text it used (Punctual's built-in
 * text, in Dutch, the person's language). Screens: event-note-form-375, event-note-event-375, event-note-delivery-375,
 * event-note-deliveries-1360, event-note-form-1360.
 */
import { bookViaApi, createEventViaApi, expect, expectAccessible, keepTimelinesOpen, firstHref, screen, test, unique } from './support';

// The event page folds each person's timeline; these checks read it open.
test.beforeEach(async ({ page }) => keepTimelinesOpen(page));

test.use({ viewport: { width: 375, height: 812 } });

test('write a note per language, see it on the event, and see which text a delivery used', async ({ page }) => {
  const title = unique('Glaze night');
  const eventId = await createEventViaApi(page, title, { start: '2030-06-15T19:30', end: '2030-06-15T22:00' });

  await page.goto(`/events/${eventId}/edit`);
  const note = page.getByRole('group', { name: 'Note for participants (optional)' });
  await expect(note).toBeVisible();
  await note.getByRole('textbox').first().fill('Bring an apron.');
  await note.getByRole('button', { name: 'Add a language' }).click();
  const second = note.locator('.event-note-row').nth(1);
  await second.getByLabel('Language').selectOption('nl');
  await second.getByRole('textbox').fill('Neem een schort mee.');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectAccessible(page, 'event-note-form');
  await screen(page, 'event-note-form-375');
  await page.getByRole('button', { name: 'Save changes' }).click();

  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const shown = page.getByTestId('event-note');
  await expect(shown.locator('[data-note-lang=""]')).toHaveText('All languages: Bring an apron.');
  await expect(shown.locator('[data-note-lang="nl"]')).toHaveText('Nederlands: Neem een schort mee.');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await screen(page, 'event-note-event-375');

  // The form opens again with both notes; a note can be removed.
  await page.goto(`/events/${eventId}/edit`);
  await expect(note.getByRole('textbox')).toHaveCount(2);
  await expect(note.getByRole('textbox').nth(1)).toHaveValue('Neem een schort mee.');

  // A Dutch participant's booking confirmation: which text and language it used.
  const email = `${unique('jonas')}@example.test`;
  await bookViaApi(page, eventId, { name: 'Jonas Berger', email, locale: 'nl' } as never);
  const href = await firstHref(page, `/deliveries?q=${encodeURIComponent(email)}`, 'table.deliveries-table a[href^="/deliveries/"]');
  await expect(page.getByTestId('message-text').first()).toHaveText('Built-in text · nl, their language');
  await page.goto(href);
  await expect(page.getByTestId('message-text')).toHaveText('Punctual’s built-in text');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectAccessible(page, 'event-note-delivery');
  await screen(page, 'event-note-delivery-375');

  await page.setViewportSize({ width: 1360, height: 900 });
  await page.goto(`/deliveries?q=${encodeURIComponent(email)}`);
  await expect(page.getByTestId('message-text').first()).toBeVisible();
  await screen(page, 'event-note-deliveries-1360');
  await page.goto(`/events/${eventId}/edit`);
  await screen(page, 'event-note-form-1360');
});
