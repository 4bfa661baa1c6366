/**
 * The words of an email follow the reader (issue 8 §5), end to end: staff book a participant with the
 * language "Deutsch" in the add-participant form, press Remind now, and the caught message reads the event's
 * time in German CLDR form — "Dienstag, 15. Juni 2027, 10:00–11:00 MESZ" for 08:00–09:00Z in Europe/Berlin.
 */
import { createEventViaApi, expect, expectAccessible, keepTimelinesOpen, mailboxCount, REMINDER_MAIL_ROWS, screen, test, unique } from './support';

// The event page folds each participant's timeline; these checks read the timelines.
test.beforeEach(async ({ page }) => keepTimelinesOpen(page));

test('a participant booked with language Deutsch gets German dates in their email', async ({ page }) => {
  const title = unique('Kurs');
  const eventId = await createEventViaApi(page, title, { timeZone: 'Europe/Berlin', start: '2027-06-15T10:00', end: '2027-06-15T11:00' });
  const email = `${unique('anna')}@example.test`;
  const form = page.locator('form.add-participant');
  // The language select's first choice is readable whole, at desktop width and at 375 px.
  for (const width of [1360, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/events/${eventId}`);
    const select = form.getByLabel('Language of their messages');
    await expect(select.locator('option').first()).toHaveText('As before (new: English, US)');
    const fit = await select.evaluate((el: HTMLSelectElement) => {
      const cs = getComputedStyle(el);
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      // the room left beside the padding and the drop-down arrow (about 20 px)
      return { need: ctx.measureText(el.options[el.selectedIndex].text).width, room: el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20 };
    });
    expect(fit.need, `first option fits the select at ${width} px`).toBeLessThanOrEqual(fit.room);
  }
  await form.getByLabel('Name', { exact: true }).fill('Anna Schmidt');
  await form.getByLabel('Email', { exact: true }).fill(email);
  await form.getByLabel('Language of their messages').selectOption('de');
  await expectAccessible(page, 'add-participant-language');
  await screen(page, 'participant-language-375');
  await form.getByRole('button', { name: 'Add participant' }).click();
  await expect(form.locator('p.notice')).toContainText('Anna Schmidt is booked');

  const card = page.locator('article.participant', { hasText: 'Anna Schmidt' }).first();
  await card.getByRole('button', { name: 'Remind now — Anna Schmidt' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remind Anna Schmidt now' });
  await dialog.getByRole('button', { name: 'Send reminder now' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => mailboxCount(page, email), { timeout: 30_000 }).toBe(1);

  await page.locator(REMINDER_MAIL_ROWS, { hasText: email }).locator('a.row-title').click();
  const text = page.locator('iframe[title="HTML part"]').contentFrame().locator('body');
  await expect(text).toContainText('Dienstag, 15. Juni 2027, 10:00–11:00 MESZ');
  const html = await page.locator('iframe[title="HTML part"]').contentFrame().locator('html').getAttribute('lang');
  expect(html).toBe('de');
});
