/**
 * A change of an event's place, online room or description reaches the booked people's calendars, as staff choose:
 * the event form lists what changed (old → new) and asks whether to tell them — ticked by default for a new place or
 * link, not for a description fixed on its own — and a told change sends each person a "details changed" message with
 * the updated calendar entry (read in the development mailbox). Desktop (1360 px) and phone (375 px).
 * Screens: event-details-notify-1360, event-details-typo-375, event-details-mail-1360.
 */
import { bookViaApi, expect, expectAccessible, noWiderThan, sameOrigin, screen, test, unique } from './support';

test('the edit form asks whether to tell booked people about a new place; the message and calendar entry go out', async ({ page }) => {
  const title = unique('Summer picnic');
  const res = await page.request.post('/api/events', {
    headers: sameOrigin(),
    data: { title, timeZone: 'Europe/Amsterdam', allDay: false, start: '2030-07-01T10:00', end: '2030-07-01T12:00', location: 'Room A', description: 'Brign a hat.' },
  });
  expect(res.status(), await res.text()).toBe(200);
  const eventId = ((await res.json()) as { id: string }).id;
  const email = `${unique('ana')}@example.test`;
  await bookViaApi(page, eventId, { name: 'Ana Attendee', email });

  await page.goto(`/events/${eventId}/edit`);
  const choice = page.getByTestId('notify-choice');
  await expect(page.getByLabel('Location')).toHaveValue('Room A');
  await expect(choice).toHaveCount(0); // nothing changed yet: nothing to ask

  // A new place: the form lists it and ticks "tell them" by default.
  await page.getByLabel('Location').fill('Garden B');
  await expect(choice).toBeVisible();
  await expect(choice.getByRole('group', { name: 'Tell booked people about this change?' }).or(choice)).toBeVisible();
  await expect(choice.locator('li[data-field="location"]')).toHaveText('Location: “Room A” → “Garden B”');
  const tell = choice.getByRole('checkbox', { name: /Send the 1 booked person a message about this change/ });
  await expect(tell).toBeChecked();
  await expectAccessible(page, 'event-details-notify');
  await screen(page, 'event-details-notify-1360');

  // Only a typo fixed in the description: listed, not ticked.
  await page.getByLabel('Location').fill('Room A');
  await page.getByLabel('Description').fill('Bring a hat.');
  await expect(choice.locator('li')).toHaveCount(1);
  await expect(choice.locator('li[data-field="description"]')).toHaveText('Description: “Brign a hat.” → “Bring a hat.”');
  await expect(tell).not.toBeChecked();
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(choice).toBeVisible();
  await noWiderThan(page, 375);
  await screen(page, 'event-details-typo-375');
  await page.setViewportSize({ width: 1360, height: 900 });

  // Both: the new place ticks it again (no choice made yet), and the save tells Ana.
  await page.getByLabel('Location').fill('Garden B');
  await expect(tell).toBeChecked();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.locator('p.notice')).toContainText('Changes saved.');
  await expect(page.locator('p.notice')).toContainText('The booked people are told about the new details, with an updated calendar entry.');

  // The message with the updated calendar entry, in the development mailbox.
  const subject = `New details for ${title}`;
  await expect
    .poll(
      async () => {
        await page.goto(`/mailbox?q=${encodeURIComponent(email)}`);
        return page.locator('table tbody tr', { hasText: subject }).count();
      },
      { timeout: 30_000, message: `"${subject}" in the mailbox` },
    )
    .toBe(1);
  await page.locator('table tbody tr', { hasText: subject }).getByRole('link').first().click();
  await expect(page.getByText('Room A → Garden B').first()).toBeVisible();
  await expect(page.getByText('SEQUENCE:1').first()).toBeVisible();
  await expect(page.getByText('LOCATION:Garden B').first()).toBeVisible();
  await screen(page, 'event-details-mail-1360');

  // The choice is in the audit log.
  await page.goto('/audit');
  await expect(page.locator('body')).toContainText(title);
});

test('a staff choice not to tell is kept: no message goes out', async ({ page }) => {
  const title = unique('Quiet change');
  const res = await page.request.post('/api/events', {
    headers: sameOrigin(),
    data: { title, timeZone: 'Europe/Amsterdam', allDay: false, start: '2030-07-02T10:00', end: '2030-07-02T12:00', location: 'Room A' },
  });
  const eventId = ((await res.json()) as { id: string }).id;
  await bookViaApi(page, eventId, { name: 'Bo Booked', email: `${unique('bo')}@example.test` });
  await page.goto(`/events/${eventId}/edit`);
  await page.getByLabel('Location').fill('Room B');
  const tell = page.getByTestId('notify-choice').getByRole('checkbox');
  await expect(tell).toBeChecked();
  await tell.uncheck();
  // The request carries the choice: false.
  const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().includes(`/api/events/${eventId}`));
  await page.getByRole('button', { name: 'Save changes' }).click();
  expect((await put).postDataJSON()).toMatchObject({ location: 'Room B', notify: false });
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.locator('p.notice')).toContainText('Changes saved.');
  await expect(page.locator('p.notice')).not.toContainText('told');
});
