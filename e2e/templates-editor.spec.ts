/**
 * The message text editor, in the spec's own organisation: an admin opens the German attendee reminder, types a body
 * with a misspelt `{eventTitel}` and is told so (the variable named, the known ones listed; nothing stored), fixes it
 * by clicking the `eventTitle` variable, sees the real participant's event in the preview, saves a draft, publishes
 * version 1, publishes a change, rolls back to version 1 and resets to Punctual's text; sends the draft to
 * themselves (only they get it). At 1360 px (editor and preview side by side) and 375 px (one column, no sideways
 * scrolling); axe on both; a viewer reads it without a form; a save after a colleague's is refused naming them, and
 * their text can be reloaded. Screenshots: templates-editor, templates-editor-375, templates-overview(-375),
 * templates-editor-viewer.
 */
import type { Page } from '@playwright/test';
import { bookViaApi, createEventViaApi, expect, expectAccessible, sameOrigin, screen, test, unique } from './support';

test.use({ role: 'admin' });

const path = '/templates/attendee-reminder/de';
const api = '/api/message-texts/attendee-reminder/de';

/** The stored state of the German attendee reminder, through the API. */
async function stored(page: Page): Promise<{ rowVersion: number; draft: unknown; published: { version: number } | null }> {
  const r = await page.request.get(api);
  expect(r.status()).toBe(200);
  return r.json();
}

/** No sideways scrolling of the page itself (the email frames scroll inside their own box). */
async function expectNoHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test('an admin writes the German attendee reminder: error, fix by variable, real preview, draft, publish, history, roll back, reset (1360 px)', async ({ page }) => {
  const title = unique('Glasurabend');
  const eventId = await createEventViaApi(page, title, { timeZone: 'Europe/Berlin', start: '2031-03-11T19:30', end: '2031-03-11T22:00' });
  await bookViaApi(page, eventId, { name: 'Jonas Berger', email: `${unique('jonas')}@example.test` });

  await page.goto('/templates');
  const kind = page.locator('section[data-kind="attendee-reminder"]');
  await expect(kind.locator('li[data-locale="de"]')).toContainText('Punctual’s text');
  await kind.getByRole('link', { name: 'German (de)' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Attendee reminder · German (de)');

  // The real participant is chosen for the preview.
  const preview = page.locator('section.text-preview');
  const who = preview.getByLabel('Preview for');
  const option = who.locator('option', { hasText: title });
  await who.selectOption(await option.getAttribute('value'));
  await expect(preview.getByTestId('preview-status')).toHaveText(`As Jonas Berger would get it for ${title}.`);

  // A misspelt variable: the error names it and lists the known ones; the save is refused, focus on the body.
  const body = page.getByLabel('Body', { exact: true });
  await body.fill('Bis bald!\n\nZur Erinnerung: {eventTitel} beginnt {when}.');
  await page.getByRole('button', { name: 'Save draft' }).click();
  const errors = page.locator('[data-field="body"] [data-testid="field-errors"]');
  await expect(errors).toContainText('Line 3, column 17: {eventTitel} is not a variable of this message — did you mean {eventTitle}?');
  await expect(errors).toContainText('Known variables: {eventTitle}, {when}, {allDay}, {eventNote}, {tenantName}.');
  await expect(body).toBeFocused();
  await expect(body).toHaveAttribute('aria-invalid', 'true');
  expect(await stored(page)).toMatchObject({ rowVersion: 0, draft: null, published: null });

  // Fixed by clicking the variable: inserted where the caret was.
  await body.fill('Bis bald!\n\nZur Erinnerung: ');
  await page.getByRole('button', { name: /^Insert \{eventTitle\}/ }).click();
  await expect(body).toBeFocused();
  await page.keyboard.type(' beginnt {when}.');
  await expect(body).toHaveValue('Bis bald!\n\nZur Erinnerung: {eventTitle} beginnt {when}.');
  await expect(errors).toHaveCount(0);
  // The preview shows the real event's title, in the email (both widths) and the SMS.
  await expect(page.frameLocator('iframe[title="Email preview, desktop (600 px)"]').locator('body')).toContainText(`${title} beginnt`);
  await expect(page.frameLocator('iframe[title="Email preview, phone (375 px)"]').locator('body')).toContainText('Jonas Berger');
  await expect(preview.getByTestId('preview-sms')).toContainText(title);
  await expect(preview.getByTestId('sms-segments')).toHaveText(/^\d+ segments? · (GSM-7|UCS-2) · \d+ characters/);

  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Draft saved.' })).toBeVisible();
  expect(await stored(page)).toMatchObject({ rowVersion: 1, draft: { body: 'Bis bald!\n\nZur Erinnerung: {eventTitle} beginnt {when}.' }, published: null });

  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByTestId('text-state')).toContainText('In use: your text, version 1.');
  const history = page.locator('section.text-history');
  await expect(history.locator('li[data-version="1"]')).toContainText('Version 1 · Published by');
  await expect(history.locator('li[data-version="1"] [data-testid="changed-fields"]')).toHaveText('Changed: Subject, Body, SMS text');

  // Send the draft to me: a worker sends it through the organisation's provider, to the admin only.
  await page.getByRole('button', { name: 'Send a test to me' }).click();
  await expect(page.getByTestId('text-test-result')).toHaveAttribute('data-status', 'sent', { timeout: 30_000 });

  await expectAccessible(page, 'templates editor (1360 px)');
  // Editor and preview side by side.
  const editorBox = await page.locator('.text-editor-main').boundingBox();
  const previewBox = await preview.boundingBox();
  expect(previewBox!.x).toBeGreaterThan(editorBox!.x + editorBox!.width - 1);
  await page.setViewportSize({ width: 1360, height: 2200 });
  await screen(page, 'templates-editor');
  await page.setViewportSize({ width: 1360, height: 900 });

  // A change published as version 2; then back to version 1 (published again as version 3).
  await page.getByLabel('Subject', { exact: true }).fill('Bald geht es los: {eventTitle}');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByTestId('text-state')).toContainText('In use: your text, version 2.');
  await expect(history.locator('li[data-version="2"] [data-testid="changed-fields"]')).toHaveText('Changed: Subject');
  await history.locator('li[data-version="1"]').getByRole('button', { name: 'Roll back to this version' }).click();
  await expect(page.getByTestId('text-state')).toContainText('In use: your text, version 3.');
  await expect(history.locator('li[data-version="3"]')).toContainText('Rolled back to version 1');

  // Reset to Punctual's text, confirmed in a dialog.
  await page.getByRole('button', { name: 'Reset to Punctual’s text' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset to Punctual’s text?' });
  await dialog.getByRole('button', { name: 'Reset to Punctual’s text' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('text-state')).toContainText('In use: Punctual’s text.');
  await expect(history.locator('li[data-version="4"]')).toContainText('Reset to Punctual’s text');
  expect(await stored(page)).toMatchObject({ published: null });

  await page.goto('/templates');
  await expect(page.locator('section[data-kind="attendee-reminder"] li[data-locale="de"]')).toContainText('Punctual’s text');
  await expectAccessible(page, 'templates overview');
  await screen(page, 'templates-overview');

  // The test message reached the admin's mailbox with the draft's words; nothing was sent to the participant.
  await page.goto('/mailbox');
  await expect(page.locator('main')).toContainText(`Erinnerung: ${title}`);
});

test('the editor at 375 px: one column, no sideways scrolling, an error beside its field, variables by keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Attendee reminder');
  await page.getByLabel('SMS text', { exact: true }).fill('{tenantName}: {eventTitle} {wann}');
  await expect(page.locator('[data-field="sms"] [data-testid="field-errors"]')).toContainText('{wann} is not a variable of this message');
  // By keyboard: a variable goes where the person last wrote, also after tabbing past another field.
  const body = page.getByLabel('Body', { exact: true });
  await body.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('SMS text', { exact: true })).toBeFocused();
  const insert = page.getByRole('button', { name: /^Insert \{tenantName\} into the Body/ });
  await insert.focus();
  await page.keyboard.press('Enter');
  await expect(body).toBeFocused();
  await expect(body).toHaveValue(/Wir freuen uns auf Sie\.\{tenantName\}$/);
  await expectNoHorizontalScroll(page);
  const fields = await page.locator('.text-editor-main').boundingBox();
  const preview = await page.locator('section.text-preview').boundingBox();
  expect(preview!.y).toBeGreaterThan(fields!.y);
  await expectAccessible(page, 'templates editor (375 px)');
  await screen(page, 'templates-editor-375');
  await page.goto('/templates');
  await expectNoHorizontalScroll(page);
  await screen(page, 'templates-overview-375');
});

test('a viewer reads the text without a form', async ({ contextAs }) => {
  const page = await (await contextAs('viewer')).newPage();
  await page.goto(path);
  await expect(page.getByText('Your role can read message texts; only an admin can change them.')).toBeVisible();
  await expect(page.getByLabel('Body', { exact: true })).toHaveAttribute('readonly', '');
  await expect(page.getByRole('button', { name: 'Save draft' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send a test to me' })).toHaveCount(0);
  await expectAccessible(page, 'templates editor (viewer)');
  // Chromium paints frames outside the viewport blank in a full-page capture: show the whole page at once.
  await page.setViewportSize({ width: 1360, height: 2100 });
  await screen(page, 'templates-editor-viewer');
});

test('a colleague saved in between: the save is refused, saying who, and the latest text can be reloaded', async ({ page }) => {
  await page.goto(path);
  await expect(page.getByTestId('preview-status')).not.toHaveText('');
  // Another tab of the same organisation saves a draft after this page was opened.
  const before = await stored(page);
  const theirs = { subject: 'Von nebenan: {eventTitle}', body: 'Text aus dem anderen Tab: {eventTitle}, {when}.', sms: '{eventTitle}, {when}.' };
  const r = await page.request.put(api, { headers: sameOrigin(), data: { ...theirs, rowVersion: before.rowVersion } });
  expect(r.status(), await r.text()).toBe(200);

  await page.getByLabel('Subject', { exact: true }).fill('Meine Fassung: {eventTitle}');
  await page.getByRole('button', { name: 'Save draft' }).click();
  const panel = page.getByTestId('conflict-panel');
  await expect(panel).toBeFocused();
  await expect(panel).toContainText(/This attendee-reminder text \(de\) was changed by Ada Admin at .+ since you opened it\./);
  expect(await stored(page)).toMatchObject({ rowVersion: before.rowVersion + 1, draft: { subject: theirs.subject } });
  await expectAccessible(page, 'templates editor (conflict)');
  await panel.getByRole('button', { name: 'Reload the latest text' }).click();
  await expect(page.getByLabel('Subject', { exact: true })).toHaveValue(theirs.subject);
  await expect(page.getByLabel('Body', { exact: true })).toHaveValue(theirs.body);
  await expect(panel).toHaveCount(0);
});
