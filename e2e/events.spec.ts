/**
 * Events through the UI as staff: create an event in its own zone, add three participants (attendee, external
 * guest, host) and see their timelines; reschedule (the confirmation says how many reminders are re-planned)
 * and see the superseded version greyed; cancel a booking (reason required); cancel the event.
 */
import { expect, expectAccessible, keepTimelinesOpen, screen, test, unique } from './support';

// The event page folds each participant's timeline; these checks read the timelines.
test.beforeEach(async ({ page }) => keepTimelinesOpen(page));

test('create → three participants → timelines → reschedule → cancel a booking → cancel the event', async ({ page }) => {
  const title = unique('Ceramics evening');
  await page.goto('/events/new');
  await expect(page.getByRole('heading', { level: 1, name: 'New event' })).toBeVisible();
  await expect(page.getByLabel('Time zone')).toHaveValue('Europe/Amsterdam');
  await expectAccessible(page, 'event-new');
  await screen(page, 'event-new');

  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Time zone').fill('America/New_York');
  await page.getByLabel('Starts (local time)').fill('2030-03-20T18:00');
  await page.getByLabel('Ends (local time)').fill('2030-03-20T17:00');
  await page.getByRole('button', { name: 'Create event' }).click();
  await expect(page.locator('.form-error')).toContainText('Ends: must not be before the start');
  await page.getByLabel('Ends (local time)').fill('2030-03-20T20:00');
  await page.getByLabel('Location').fill('Studio 2');
  await page.getByLabel('Online room URL').fill('https://meet.example/ceramics');
  await page.getByRole('button', { name: 'Create event' }).click();

  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.locator('p.notice')).toContainText('Event created');
  // 18:00 in New York on 20 March 2030 is EDT (UTC−4).
  await expect(page.locator('.event-header')).toContainText('18:00 EDT');
  await expect(page.locator('.version-chip')).toHaveText('Schedule version 1');
  await expect(page.getByTestId('coverage')).toContainText('0 reminders planned');

  const add = page.locator('form.add-participant');
  const people = [
    { name: 'Ana Attendee', email: `${unique('ana')}@example.test`, role: 'attendee' },
    { name: 'Gus Guest', email: `${unique('gus')}@example.test`, role: 'external' },
    { name: 'Hal Host', email: `${unique('hal')}@example.test`, role: 'host' },
  ];
  for (const p of people) {
    await add.getByLabel('Name').fill(p.name);
    await add.getByLabel('Email').fill(p.email);
    await add.getByLabel('Role').selectOption(p.role);
    if (p.role === 'external') await add.getByLabel('Guest organisation').selectOption('partner');
    await add.getByRole('button', { name: 'Add participant' }).click();
    await expect(add.getByRole('status')).toContainText(`${p.name} is booked`);
  }
  for (const [role, name] of [['attendee', 'Ana Attendee'], ['external', 'Gus Guest'], ['host', 'Hal Host']]) {
    const card = page.locator(`[data-role-group="${role}"] [data-booking-id]`, { hasText: name });
    await expect(card).toBeVisible();
    await expect(card.locator('.timeline-row').first()).toBeVisible();
  }
  // Demo rules: 3 for attendees and external guests, 1 for hosts → 3 + 3 + 1 planned. (Rule reminders only:
  // the demo tenant's booking notifications show in the timelines too.)
  await expect(page.getByTestId('coverage')).toContainText('7 reminders planned');
  const attendeeRows = page.locator('[data-role-group="attendee"] .timeline-row[data-kind="rule"]');
  await expect(attendeeRows).toHaveCount(3);
  await expect(attendeeRows.first().locator('time').first()).toHaveText(/E[DS]T$/);
  await expectAccessible(page, 'event');
  await screen(page, 'event-with-participants');

  // Reschedule one day later: the dialog says how many reminders are re-planned.
  await page.getByRole('link', { name: 'Edit or reschedule' }).click();
  await expect(page.getByLabel('Starts (local time)')).toHaveValue('2030-03-20T18:00');
  await expectAccessible(page, 'event-edit');
  await page.getByLabel('Starts (local time)').fill('2030-03-21T18:00');
  // The end follows the start: the event keeps its two hours.
  await expect(page.getByLabel('Ends (local time)')).toHaveValue('2030-03-21T20:00');
  await page.getByRole('button', { name: 'Save changes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reschedule this event?' });
  await expect(dialog).toContainText('7 reminders will be re-planned for the new time.');
  await screen(page, 'event-reschedule-confirm');
  await dialog.getByRole('button', { name: 'Reschedule' }).click();
  await expect(page.locator('.version-chip')).toHaveText('Schedule version 2');
  await expect(page.locator('p.notice')).toContainText('Rescheduled to schedule version 2');
  const stale = page.locator('[data-role-group="attendee"] .timeline-row.is-stale[data-kind="rule"]');
  await expect(stale).toHaveCount(3);
  await expect(stale.first()).toContainText('superseded by version 2');
  await expect(stale.first()).toHaveAttribute('data-reminder-status', 'superseded');
  await expect(page.locator('[data-role-group="attendee"] .timeline-row:not(.is-stale)[data-kind="rule"]')).toHaveCount(3);
  await expect(page.getByTestId('coverage')).toContainText('7 reminders planned');
  await expect(page.getByTestId('coverage')).toContainText('Reminders of schedule v2:');
  await screen(page, 'event-rescheduled');

  // Cancel the attendee's booking: a reason is required; its 3 waiting reminders are cancelled.
  await page.getByRole('button', { name: 'Cancel booking — Ana Attendee' }).click();
  const cancel = page.getByRole('dialog', { name: /Cancel Ana Attendee/ });
  await expect(cancel).toContainText('3 planned reminders for Ana Attendee will be cancelled.');
  await cancel.getByRole('button', { name: 'Cancel booking' }).click();
  await expect(cancel.getByRole('alert')).toContainText('reason');
  await cancel.getByLabel(/Reason/).fill('asked to be removed');
  await cancel.getByRole('button', { name: 'Cancel booking' }).click();
  const ana = page.locator('[data-role-group="attendee"] [data-booking-id]', { hasText: 'Ana Attendee' });
  await expect(ana.locator('[data-kind="booking"]')).toHaveAttribute('data-status', 'cancelled');
  await expect(ana.locator('.timeline-row:not(.is-stale)[data-kind="rule"][data-reminder-status="cancelled"]')).toHaveCount(3);
  await expect(page.getByTestId('coverage')).toContainText('4 reminders planned');

  // Cancel the event.
  await page.getByRole('button', { name: 'Cancel event' }).click();
  const ce = page.getByRole('dialog', { name: /Cancel “/ });
  await expect(ce).toContainText('4 planned reminders will be cancelled.');
  await ce.getByLabel(/Reason/).fill('studio flooded');
  await ce.getByRole('button', { name: 'Cancel event' }).click();
  await expect(page.locator('.event-title-row [data-kind="event"]')).toHaveAttribute('data-status', 'cancelled');
  await expect(page.getByRole('button', { name: 'Cancel event' })).toHaveCount(0);
  await expect(page.getByTestId('coverage')).toContainText('0 reminders planned');
  // Gus and Hal still hold their bookings, but of an event that will not happen: a muted "event cancelled",
  // never a green "confirmed". Ana's own cancellation still reads "cancelled".
  for (const name of ['Gus Guest', 'Hal Host']) {
    const badge = page.locator('[data-booking-id]', { hasText: name }).locator('[data-kind="booking"]');
    await expect(badge).toHaveText('event cancelled');
    await expect(badge).toHaveAttribute('data-event-cancelled', 'true');
    await expect(badge).toHaveClass(/badge-muted/);
  }
  await expect(ana.locator('[data-kind="booking"]')).toHaveText('cancelled');
  await expect(page.locator('[data-kind="booking"].badge-ok')).toHaveCount(0);
  await screen(page, 'event-cancelled');
});
