/**
 * "Message participants": from the event page, staff write to the event's people — a live count per channel, a
 * preview of what one real participant gets, a confirmation that says how many by which channel — and the message
 * arrives in the mailbox once, even after a double click; a scheduled one can be cancelled. At 1360 and 375 px,
 * axe-clean.
 */
import { bookViaApi, createEventViaApi, expect, expectAccessible, keepTimelinesOpen, mailboxCount, screen, test, unique, noWiderThan } from './support';

// The event page folds each person's timeline; these checks read it open.
test.beforeEach(async ({ page }) => keepTimelinesOpen(page));


test.setTimeout(120_000);

test('write to the people of an event: count, preview, confirm, one email in the mailbox; schedule and cancel', async ({ page }) => {
  const title = unique('Glaze night');
  const eventId = await createEventViaApi(page, title);
  const ann = `${unique('ann')}@example.test`;
  const bo = `${unique('bo')}@example.test`;
  await bookViaApi(page, eventId, { name: 'Ann Apron', email: ann });
  await bookViaApi(page, eventId, { name: 'Bo Brush', email: bo });

  await page.goto(`/events/${eventId}`);
  await page.getByRole('link', { name: 'Message participants' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Message participants' })).toBeVisible();
  const count = page.getByTestId('announce-count');
  await expect(count.getByTestId('count-people')).toContainText('2');
  await expect(count.getByTestId('count-email')).toContainText('2');

  const subject = unique('Bring an apron');
  await page.getByRole('textbox', { name: 'Subject', exact: true }).fill(`${subject} to {eventTitle}`);
  await page.getByRole('textbox', { name: 'Text', exact: true }).fill('Hello all,\n\nPlease **bring an apron**: the glaze stains.\n\n- aprons\n- old shoes');
  await expect(page.getByTestId('preview-subject')).toHaveText(`${subject} to ${title}`);
  await expect(page.frameLocator('iframe.announce-frame').locator('body')).toContainText('bring an apron');
  await expectAccessible(page, 'announcements-1360');
  await screen(page, 'announcements-1360');

  await page.getByRole('button', { name: 'Send now…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send this announcement now?' });
  await expect(dialog.getByTestId('count-email')).toContainText('2');
  await screen(page, 'announcements-confirm');
  // A double click on the confirmation sends once (the idempotency key made when the form opened).
  await dialog.getByRole('button', { name: 'Send now' }).dblclick();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Sent: the messages are on their way' })).toBeVisible();
  const item = page.getByTestId('announcement').filter({ hasText: subject });
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('sent: 2', { timeout: 30_000 });
  // Each participant's timeline on the event page shows it, by its kind and with its subject.
  await page.goto(`/events/${eventId}`);
  const row = page.locator('.timeline-row[data-kind="announcement"]', { hasText: 'Announcement' });
  await expect(row).toHaveCount(2);
  await page.goto(`/events/${eventId}/announcements`);

  // Scheduled for the day after tomorrow, then cancelled before it is due.
  await page.getByRole('textbox', { name: 'Subject', exact: true }).fill(`${subject} (later)`);
  await page.getByRole('textbox', { name: 'Text', exact: true }).fill('See you soon.');
  await page.getByLabel('Send at…').check();
  const later = new Date(Date.now() + 2 * 86400_000).toISOString().slice(0, 10);
  await page.getByLabel(/Date and time/).fill(`${later}T10:00`);
  await page.getByRole('button', { name: 'Schedule…' }).click();
  await page.getByRole('dialog', { name: 'Schedule this announcement?' }).getByRole('button', { name: 'Schedule' }).click();
  const scheduled = page.getByTestId('announcement').filter({ hasText: `${subject} (later)` });
  await expect(scheduled).toContainText('Scheduled');
  await scheduled.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('dialog', { name: 'Cancel this announcement?' }).getByRole('button', { name: 'Cancel announcement' }).click();
  await expect(scheduled).toContainText('Cancelled');

  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(count.getByTestId('count-people')).toContainText('2');
  await noWiderThan(page, 375);
  await expectAccessible(page, 'announcements-375');
  await screen(page, 'announcements-375');
  await page.setViewportSize({ width: 1360, height: 900 });

  await expect.poll(() => mailboxCount(page, ann), { timeout: 20_000 }).toBe(1);
  expect(await mailboxCount(page, bo)).toBe(1);
  await expect(page.locator('table tbody tr', { hasText: ann }).first()).toContainText(subject);
});
