/**
 * Issue #12, the event page's people and times, as staff use them in a browser:
 *  - the nudge dialog offers only templates that can render for the event (no room-opening without a room);
 *  - the reschedule confirmation shows the old and the new time in the event's zone (viewer's zone on hover);
 *  - a participant's own time zone is on their card;
 *  - a participant can be edited — their waiting reminder moves for their quiet hours in the new zone — and two
 *    staff editing one participant: the second gets the conflict panel and loses nothing.
 * Screenshots: nudge-templates, reschedule-confirm-desktop/-375, participant-edit-desktop/-375,
 * participant-edited, participant-card-375, participant-edit-conflict.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Locator, type Page } from '@playwright/test';
import { createEventViaApi, expect, expectAccessible, keepTimelinesOpen, sameOrigin, screen, test, unique } from './support';

// The event page folds each participant's timeline; these checks read the timelines.
test.beforeEach(async ({ page }) => keepTimelinesOpen(page));

async function book(page: Page, eventId: string, p: { name: string; email: string; timeZone?: string }): Promise<string> {
  const res = await page.request.post(`/api/events/${eventId}/bookings`, { headers: sameOrigin(), data: { role: 'attendee', ...p } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

interface Participant {
  contactId: string;
  name: string;
  email: string;
  timeZone: string | null;
  locale: string;
  version: number;
}

async function participant(page: Page, bookingId: string): Promise<Participant> {
  const res = await page.request.get(`/api/bookings/${bookingId}/participant`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Participant;
}

/** test-results/screens/<name>.png (beside the full-page ones `screen` writes). */
function screenFile(name: string): string {
  const file = path.join(path.dirname(test.info().config.configFile ?? path.resolve('playwright.config.ts')), 'test-results', 'screens', `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

/**
 * At 375 × 812: no sideways page scroll, and a screenshot of what the phone shows — the viewport (an open
 * dialog), or `part` alone (a card).
 */
async function narrow(page: Page, name: string, part?: Locator): Promise<void> {
  await page.setViewportSize({ width: 375, height: 812 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  if (part) await part.screenshot({ path: screenFile(name) });
  else await page.screenshot({ path: screenFile(name) });
  await page.setViewportSize({ width: 1360, height: 900 });
}

test('the nudge dialog offers only templates that can render for the event; the API refuses the others naming template', async ({ page }) => {
  const roomless = await createEventViaApi(page, unique('No room'));
  const bookingId = await book(page, roomless, { name: 'Nia Nudge', email: `${unique('nia')}@example.test` });
  await page.goto(`/events/${roomless}`);
  await page.getByRole('button', { name: 'Remind now — Nia Nudge' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remind Nia Nudge now' });
  await expect(dialog.getByLabel('Template').locator('option')).toHaveText(['Attendee reminder', 'Confirmation request (asks “Will you be there?”)']);
  await expect(dialog.getByTestId('templates-not-offered')).toHaveText(
    'Not offered here: Room opening (attendees and external guests) — this event has no online room; Host reminder — it is written for hosts.',
  );
  await expect(dialog.frameLocator('iframe').locator('body')).toContainText('No room');
  await screen(page, 'nudge-templates');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  const refused = await page.request.post(`/api/bookings/${bookingId}/nudge`, { headers: sameOrigin(), data: { template: 'room-opening', idempotencyKey: unique('room') } });
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toMatchObject({ field: 'template', error: 'template: room-opening cannot be used here — this event has no online room (roomUrl)' });

  // With an online room the room-opening template is offered, and previews.
  const created = await page.request.post('/api/events', {
    headers: sameOrigin(),
    data: { title: unique('Online'), timeZone: 'Europe/Amsterdam', allDay: false, start: '2030-06-15T10:00', end: '2030-06-15T11:00', roomUrl: 'https://meet.example/room' },
  });
  const online = ((await created.json()) as { id: string }).id;
  await book(page, online, { name: 'Ola Online', email: `${unique('ola')}@example.test` });
  await page.goto(`/events/${online}`);
  await page.getByRole('button', { name: 'Remind now — Ola Online' }).click();
  const d2 = page.getByRole('dialog', { name: 'Remind Ola Online now' });
  await expect(d2.getByLabel('Template').locator('option')).toHaveText(['Attendee reminder', 'Room opening (attendees and external guests)', 'Confirmation request (asks “Will you be there?”)']);
  await d2.getByLabel('Template').selectOption('room-opening');
  await expect(d2).toContainText(/Subject:.*opens at/);
});

test('the reschedule confirmation shows the old and the new time in the event’s zone, the viewer’s zone on hover', async ({ browser, contextAs }) => {
  // A viewer in Tokyo: the page shows the event's zone, the hover the viewer's.
  const ctx = await contextAs('staff', { timezoneId: 'Asia/Tokyo' });
  try {
    const page = await ctx.newPage();
    await keepTimelinesOpen(page);
    const id = await createEventViaApi(page, unique('Moving day'));
    await page.goto(`/events/${id}/edit`);
    await page.getByLabel('Starts (local time)').fill('2030-06-16T14:00');
    await page.getByLabel('Ends (local time)').fill('2030-06-16T15:30');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reschedule this event?' });
    const change = dialog.getByTestId('reschedule-change');
    await expect(change.locator('[data-when="old"]')).toHaveText(/^Was\s*Sat 15 Jun 2030, 10:00 CEST – 11:00 CEST$/);
    await expect(change.locator('[data-when="new"]')).toHaveText(/^Now\s*Sun 16 Jun 2030, 14:00 CEST – 15:30 CEST$/);
    await expect(change.locator('[data-when="old"] time').first()).toHaveAttribute('title', 'Sat 15 Jun 2030, 17:00 JST your time (Asia/Tokyo) · 2030-06-15 08:00:00 UTC');
    await expect(change.locator('[data-when="new"] time').first()).toHaveAttribute('title', 'Sun 16 Jun 2030, 21:00 JST your time (Asia/Tokyo) · 2030-06-16 12:00:00 UTC');
    await expectAccessible(page, 'reschedule confirmation');
    await screen(page, 'reschedule-confirm-desktop');
    await narrow(page, 'reschedule-confirm-375');

    // A new zone too: each time names its zone.
    await dialog.getByRole('button', { name: 'Keep as is' }).click();
    await expect(dialog).toBeHidden();
    await page.getByLabel('Time zone').fill('Europe/London');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(change.locator('[data-when="old"]')).toHaveText(/^Was\s*Sat 15 Jun 2030, 10:00 CEST – 11:00 CEST \(Europe\/Amsterdam\)$/);
    await expect(change.locator('[data-when="new"]')).toHaveText(/^Now\s*Sun 16 Jun 2030, 14:00 BST – 15:30 BST \(Europe\/London\)$/);
    await dialog.getByRole('button', { name: 'Reschedule' }).click();
    await expect(page).toHaveURL(/saved=rescheduled/);
  } finally {
    await ctx.close();
  }
});

test('a participant’s zone is on their card; editing them moves their waiting reminder for their quiet hours in the new zone', async ({ page }) => {
  // Sat 15 Jun 2030, 12:30 CEST (10:30Z): the day-before reminder is due Fri 14 Jun 12:30 CEST = 06:30 in New York.
  const id = await createEventViaApi(page, unique('Glazing'), { start: '2030-06-15T12:30', end: '2030-06-15T13:30' });
  const pat = await book(page, id, { name: 'Pat Zone', email: `${unique('pat')}@example.test`, timeZone: 'Europe/Amsterdam' });
  const kim = await book(page, id, { name: 'Kim Nozone', email: `${unique('kim')}@example.test` });
  // Pat's quiet hours: 22:00–08:00 (in their zone).
  const p0 = await participant(page, pat);
  const prefs = (await (await page.request.get(`/api/contacts/${p0.contactId}/preferences`)).json()) as { version: number };
  const saved = await page.request.put(`/api/contacts/${p0.contactId}/preferences`, {
    headers: sameOrigin(),
    data: { preferences: { reminders: ['email'], booking_updates: ['email'] }, quietHours: { start: '22:00', end: '08:00' }, version: prefs.version },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  await page.goto(`/events/${id}`);
  const card = page.locator(`[data-booking-id="${pat}"]`);
  await expect(card.locator('.participant-zone')).toHaveText('Their time zone: Europe/Amsterdam (same clock as the event)');
  await expect(page.locator(`[data-booking-id="${kim}"] .participant-zone`)).toHaveText('Their time zone: not on file — their messages show the event’s zone only');
  const dayBefore = card.locator('.timeline-row[data-kind="rule"]', { hasText: 'Day before' });
  await expect(dayBefore.locator('.timeline-when time').first()).toHaveText('Fri 14 Jun 2030, 12:30 CEST');

  await card.getByRole('button', { name: 'Edit participant — Pat Zone' }).click();
  // The title follows the name: after the save it reads "Edit Pat Q. Zone".
  const dialog = page.getByRole('dialog', { name: /^Edit Pat / });
  await expect(dialog.getByLabel('Name')).toHaveValue('Pat Zone');
  await expect(dialog.getByLabel('Their time zone (optional)')).toHaveValue('Europe/Amsterdam');
  await expect(dialog.getByLabel('Language of their messages')).toHaveValue('en');
  await expect(dialog.getByTestId('participant-shared')).toHaveText('These are the person’s own details; they are booked on this event only.');
  await expectAccessible(page, 'participant edit dialog');
  await screen(page, 'participant-edit-desktop');
  await narrow(page, 'participant-edit-375');

  // A zone this server does not know: refused naming the field, nothing changed.
  await dialog.getByLabel('Their time zone (optional)').fill('Mars/Olympus_Mons');
  await dialog.getByRole('button', { name: 'Save participant' }).click();
  await expect(dialog.locator('.form-error')).toHaveText(/^Time zone: must be an IANA time zone such as Europe\/Amsterdam/);
  await expect(dialog.getByLabel('Their time zone (optional)')).toHaveAttribute('aria-invalid', 'true');
  expect(await participant(page, pat)).toMatchObject({ timeZone: 'Europe/Amsterdam', version: p0.version + 1 });

  await dialog.getByLabel('Name').fill('Pat Q. Zone');
  await dialog.getByLabel('Their time zone (optional)').fill('America/New_York');
  await dialog.getByLabel('Language of their messages').selectOption('de');
  await dialog.getByRole('button', { name: 'Save participant' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Saved. 1 waiting reminder moved for their quiet hours in the new zone.');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // 06:30 in New York is quiet: the reminder waits until 08:00 EDT = 14:00 CEST. The card says whose clock that is.
  await expect(card.locator('.participant-name')).toHaveText('Pat Q. Zone');
  await expect(card.locator('.participant-zone')).toHaveText('Their time zone: America/New_York · starts Sat 15 Jun 2030, 06:30 EDT their time');
  await expect(dayBefore.locator('.timeline-when time').first()).toHaveText('Fri 14 Jun 2030, 14:00 CEST');
  await expect(dayBefore.locator('.quiet-note')).toContainText('held for quiet hours');
  await expect(dayBefore.locator('.status-reason')).toHaveText('re-planned for their time zone: Europe/Amsterdam → America/New_York (quiet hours are read in it)');
  expect(await participant(page, pat)).toMatchObject({ name: 'Pat Q. Zone', timeZone: 'America/New_York', locale: 'de' });
  await screen(page, 'participant-edited');
  await narrow(page, 'participant-card-375', card.locator('.participant-header'));

  await page.goto('/audit?action=participant_update');
  await expect(page.locator('main')).toContainText('Edited a participant');
});

test('two staff edit one participant: the second gets the conflict panel, keeps their edit, and applies it on top', async ({ browser, contextAs }) => {
  const a = await contextAs('staff'); // Sam Staff
  const b = await contextAs('admin'); // Ada Admin
  try {
    const pageA = await a.newPage();
    await keepTimelinesOpen(pageA);
    const pageB = await b.newPage();
    await keepTimelinesOpen(pageB);
    const id = await createEventViaApi(pageA, unique('Shared'));
    const bookingId = await book(pageA, id, { name: 'Ren Racer', email: `${unique('ren')}@example.test`, timeZone: 'Europe/Amsterdam' });
    const openEdit = async (page: Page) => {
      await page.goto(`/events/${id}`);
      await page.getByRole('button', { name: 'Edit participant — Ren Racer' }).click();
      const d = page.getByRole('dialog', { name: 'Edit Ren Racer' });
      await expect(d.getByLabel('Name')).toHaveValue('Ren Racer');
      return d;
    };
    const dA = await openEdit(pageA);
    const dB = await openEdit(pageB);

    // B renames; then A, who opened before, changes the zone.
    await dB.getByLabel('Name').fill('Ren Racer-Smith');
    await dB.getByRole('button', { name: 'Save participant' }).click();
    await expect(dB.getByRole('status')).toHaveText('Saved.');
    await dA.getByLabel('Their time zone (optional)').fill('Asia/Tokyo');
    await dA.getByRole('button', { name: 'Save participant' }).click();
    const panel = dA.getByTestId('conflict-panel');
    await expect(panel).toContainText(/This participant \(Ren Racer-Smith\) was changed by Ada Admin at \w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2} \S+ since you opened it\./);
    await expect(panel.locator('.conflict-changes li')).toHaveText(['Name: Ren Racer → Ren Racer-Smith']);
    await expect(dA.getByLabel('Their time zone (optional)')).toHaveValue('Asia/Tokyo');
    expect(await participant(pageA, bookingId)).toMatchObject({ name: 'Ren Racer-Smith', timeZone: 'Europe/Amsterdam' });
    await screen(pageA, 'participant-edit-conflict');

    await panel.getByRole('button', { name: 'Apply my changes to the latest version' }).click();
    await expect(dA.getByLabel('Name')).toHaveValue('Ren Racer-Smith');
    await expect(dA.getByLabel('Their time zone (optional)')).toHaveValue('Asia/Tokyo');
    await dA.getByRole('button', { name: 'Save participant' }).click();
    await expect(dA.getByRole('status')).toHaveText('Saved.');
    expect(await participant(pageA, bookingId)).toMatchObject({ name: 'Ren Racer-Smith', timeZone: 'Asia/Tokyo' });
  } finally {
    await a.close();
    await b.close();
  }
});
