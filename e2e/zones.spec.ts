/**
 * Zone names as a person types them (issue 8 §5): the event form offers the current tz database names
 * (Europe/Kyiv, which Node 20's ICU list lacks), a typed city suggests its zone, and an event saved in
 * Europe/Kyiv shows its times in that zone. Screenshots of the form at phone and desktop width.
 */
import { expect, expectAccessible, screen, test, unique } from './support';

test('typing "Kyiv" suggests Europe/Kyiv; the event saved in it shows Kyiv times', async ({ page }) => {
  const title = unique('Kyiv meetup');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/events/new');
  await expect(page.getByRole('heading', { level: 1, name: 'New event' })).toBeVisible();
  // The picker lists the current name, not only the old alias.
  await expect(page.locator('datalist#iana-zones option[value="Europe/Kyiv"]')).toHaveCount(1);
  await expect(page.locator('datalist#iana-zones option[value="Asia/Kolkata"]')).toHaveCount(1);
  await expect(page.locator('datalist#iana-zones option[value="America/Nuuk"]')).toHaveCount(1);
  await expect(page.locator('datalist#iana-zones option[value="Europe/Kiev"]')).toHaveCount(0);

  await page.getByLabel('Title').fill(title);
  const zone = page.getByRole('combobox', { name: /^Time zone/ });
  await zone.fill('Kyiv');
  const suggestion = page.locator('.zone-suggestion');
  await expect(suggestion).toContainText('Did you mean Europe/Kyiv?');
  await expectAccessible(page, 'event-new-zone-suggestion');
  await screen(page, 'zones-event-form-375');

  await page.setViewportSize({ width: 1360, height: 900 });
  await screen(page, 'zones-event-form-desktop');

  await suggestion.getByRole('button', { name: 'Use Europe/Kyiv' }).click();
  await expect(zone).toHaveValue('Europe/Kyiv');
  await expect(suggestion).toHaveCount(0);

  // The old alias keeps working and suggests the current name; other cities resolve too.
  await zone.fill('calcutta');
  await expect(suggestion).toContainText('Did you mean Asia/Kolkata?');
  await zone.fill('Nuuk');
  await expect(suggestion).toContainText('Did you mean America/Nuuk?');
  await zone.fill('Kyiv');
  await suggestion.getByRole('button', { name: 'Use Europe/Kyiv' }).click();

  await page.getByLabel('Starts (local time)').fill('2030-06-15T10:00');
  await page.getByLabel('Ends (local time)').fill('2030-06-15T11:30');
  await page.getByRole('button', { name: 'Create event' }).click();

  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.locator('p.notice')).toContainText('Event created');
  // 10:00 in Kyiv on 15 June 2030 is EEST (UTC+3): the stored instant is 07:00Z and shows as local time.
  await expect(page.locator('.event-header')).toContainText('10:00 EEST');
  await expect(page.locator('.event-header')).toContainText('Europe/Kyiv');
});
