/**
 * Issue #13, importing participants from a CSV file as staff do it in a browser, at 1360 px and at 375 px, on an
 * event made for this spec (cancelled at the end): the event page's "Import from CSV"
 * opens the import; a semicolon file with one bad row shows that row (by its spreadsheet row number) and its problem,
 * and offers only "import the good rows, skip the one with problems"; nothing is booked by the preview; the fixed file imports all four, and the event page lists them (accents intact). The template
 * downloads with its header row. Screenshots: participant-import-problem-desktop/-375, participant-import-done-375,
 * participant-import-event.
 */
import { type Page } from '@playwright/test';
import { createEventViaApi, expect, expectAccessible, sameOrigin, screen, test, unique } from './support';

function csv(tag: string, bad: boolean): string {
  return [
    'Name;E-mail;Phone;Role;Time zone;Language',
    `Zoë Łódź;zoe.${tag}@example.test;;attendee;Europe/Warsaw;pl`,
    `"Kowalski, Jan";jan.${tag}@example.test;+48 601 234 567;host;Europe/Warsaw;`,
    `Cara Bad;${bad ? `cara.${tag}.example.test` : `cara.${tag}@example.test`};;attendee;Europe/Lisbon;pt`,
    `Dev Four;dev.${tag}@example.test;;;;`,
  ].join('\r\n');
}

async function choose(page: Page, name: string, text: string) {
  await page.getByLabel('CSV file', { exact: true }).setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${text}`, 'utf8') });
}

async function fitsPhone(page: Page, name: string) {
  await page.setViewportSize({ width: 375, height: 812 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await screen(page, name);
}

test('import participants from CSV: a bad row is shown by its spreadsheet row with its problem, nothing is booked by the preview; fixed, all are booked', async ({ page }) => {
  const tag = unique('csv');
  const eventId = await createEventViaApi(page, unique('CSV import'));
  try {
    await page.goto(`/events/${eventId}`);
    await page.getByRole('link', { name: 'Import from CSV' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Import participants into');

    // The template: header row and one example.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download a template CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('participants-template.csv');
    const template = await download.createReadStream().then(async (s) => {
      const chunks: Buffer[] = [];
      for await (const c of s) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    });
    expect(template.split('\r\n')[0]).toBe('name,email,phone,role,time zone,locale');

    // One bad row (spreadsheet row 4 — the header is row 1 — the address has no @).
    await choose(page, 'people.csv', csv(tag, true));
    const counts = page.locator('.import-counts');
    await expect(counts).toHaveText('4 participants in the file: 3 ready, 1 with problems.');
    const rows = page.getByRole('list', { name: 'Rows with problems' }).locator(':scope > li');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Row 4');
    await expect(rows.first()).toContainText(`email "cara.${tag}.example.test": must be an email address`);
    await expect(page.getByRole('button', { name: /^Import \d+ participants?$/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Import the 3 good rows, skip the 1 row with problems' })).toBeEnabled();
    await expect(page.getByText('Columns used: Name → name, E-mail → email, Phone → phone, Role → role, Time zone → time zone, Language → locale.', { exact: false })).toBeVisible();
    await expectAccessible(page, 'import preview with a problem');
    await screen(page, 'participant-import-problem-desktop');
    await fitsPhone(page, 'participant-import-problem-375');

    // Nothing was booked by the preview.
    const before = await page.request.get(`/api/events/${eventId}/timeline`);
    expect(((await before.json()) as { bookings: unknown[] }).bookings).toHaveLength(0);

    // Fixed, at phone width: import.
    await choose(page, 'people-fixed.csv', csv(tag, false));
    await expect(counts).toHaveText('4 participants in the file: 4 ready.');
    await page.getByRole('button', { name: 'Import 4 participants' }).click();
    await expect(page.locator('.notice[role="status"]')).toContainText('Imported 4 participants into');
    await fitsPhone(page, 'participant-import-done-375');
    await page.setViewportSize({ width: 1360, height: 900 });

    await page.getByRole('link', { name: 'See the participants on the event page' }).click();
    await expect(page).toHaveURL(new RegExp(`/events/${eventId}$`));
    // One line per person (accents intact).
    for (const name of ['Zoë Łódź', 'Kowalski, Jan', 'Cara Bad', 'Dev Four']) await expect(page.locator(`[data-booking-id]`, { hasText: name })).toHaveCount(1);
    await screen(page, 'participant-import-event');

    const tl = (await (await page.request.get(`/api/events/${eventId}/timeline`)).json()) as { bookings: { role: string }[] };
    expect(tl.bookings.map((b) => b.role).sort()).toEqual(['attendee', 'attendee', 'attendee', 'host']);

    // One audit entry for the import, with its count and file name.
    await page.goto('/audit?action=participants_import');
    const entry = page.locator('table tbody tr').first();
    await expect(entry).toContainText('Imported participants from a CSV file');
    await expect(entry).toContainText('file: people-fixed.csv');
    await expect(entry).toContainText('count: 4');
  } finally {
    const tl = (await (await page.request.get(`/api/events/${eventId}/timeline`)).json()) as { event: { version: number } };
    const res = await page.request.post(`/api/events/${eventId}/cancel`, { headers: sameOrigin(), data: { reason: 'e2e: participant import spec done', version: tl.event.version } });
    expect(res.status(), await res.text()).toBe(200);
  }
});

test('import the good rows and skip the one with problems: three booked, the skipped row named in the answer and the audit log', async ({ page }) => {
  const tag = unique('csvskip');
  const eventId = await createEventViaApi(page, unique('CSV skip'));
  try {
    await page.goto(`/events/${eventId}/import`);
    await choose(page, 'people-partly.csv', csv(tag, true));
    await expect(page.locator('.import-counts')).toHaveText('4 participants in the file: 3 ready, 1 with problems.');
    await page.getByRole('button', { name: 'Import the 3 good rows, skip the 1 row with problems' }).click();
    await expect(page.locator('.notice[role="status"]')).toContainText('Imported 3 participants into');
    await expect(page.locator('.notice[role="status"]')).toContainText('Skipped 1 row with problems: 4.');
    const tl = (await (await page.request.get(`/api/events/${eventId}/timeline`)).json()) as { bookings: { contact: { email: string } | null }[] };
    expect(tl.bookings.map((b) => b.contact?.email).sort()).toEqual([`dev.${tag}@example.test`, `jan.${tag}@example.test`, `zoe.${tag}@example.test`]);
    await page.goto('/audit?action=participants_import');
    await expect(page.locator('table tbody tr').first()).toContainText('file: people-partly.csv');
  } finally {
    const tl = (await (await page.request.get(`/api/events/${eventId}/timeline`)).json()) as { event: { version: number } };
    await page.request.post(`/api/events/${eventId}/cancel`, { headers: sameOrigin(), data: { reason: 'e2e: participant import spec done', version: tl.event.version } });
  }
});
