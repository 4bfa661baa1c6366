/**
 * A keyboard (issue #12 "A phone and a keyboard"): the skip link is the first thing Tab reaches, shows while
 * focused and moves focus into the page's main content; after a replay removes its dead letter from "Needs
 * attention", and after a suppression is removed from the list, focus lands on the same action in the next
 * row instead of falling to the top of the document; fields that must be filled say "required" before
 * anything is submitted (and carry `required`/`aria-required`); a nudge and a replay end in a polite notice
 * naming the recipient ("Sent to …", "Replayed: sending to …").
 * Screenshots: keyboard-skip-link, keyboard-required-staff, keyboard-nudge-notice, keyboard-replay-notice.
 */
import { type Locator, type Page } from '@playwright/test';
import { bookViaApi, createEventViaApi, expect, faultyCase, keepTimelinesOpen, sameOrigin, screen, test, unique } from './support';

// The event page folds each participant's timeline; these checks read the timelines.
test.beforeEach(async ({ page }) => keepTimelinesOpen(page));

const notice = (page: Page) => page.getByTestId('live-notice').locator('[aria-live="polite"]');

test('the skip link is the first stop and jumps to the main content', async ({ page }) => {
  await page.goto('/events');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  const box = (await skip.boundingBox())!;
  expect(box.width, 'visible while focused').toBeGreaterThan(100);
  expect(box.y).toBeGreaterThanOrEqual(0);
  await screen(page, 'keyboard-skip-link');
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main')).toBeFocused();
  // The next stop is inside the page, not the navigation.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);
  // Not focused: out of sight.
  await expect.poll(async () => (await skip.boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
});

/** The `data-delivery-id` of the dead-letter card after `card` in the same list (null when it is the last). */
const nextCardId = (card: Locator) =>
  card.evaluate((el) => {
    for (let n = el.nextElementSibling; n && n.tagName !== 'H2'; n = n.nextElementSibling) if (n.matches('.case-card')) return n.getAttribute('data-delivery-id');
    return null;
  });

test('a replay that removes its dead letter leaves focus on the next one’s Replay, and says who it goes to', async ({ page }) => {
  const a = await faultyCase(page, 'ada-again', 'deny-once');
  const b = await faultyCase(page, 'bo-again', 'deny-once');
  await page.goto('/attention');
  // The one of the two that comes first has at least one dead letter after it.
  const aFirst = await a.card.evaluate((el, other) => !!(el.compareDocumentPosition(document.querySelector(`[aria-label$="${other}"]`)!) & Node.DOCUMENT_POSITION_FOLLOWING), b.email);
  const first = aFirst ? a : b;
  const nextId = await nextCardId(first.card);
  expect(nextId, 'a dead letter after the one replayed').toBeTruthy();

  // By keyboard only: Replay, then the dialog's "Replay now".
  await first.card.getByRole('button', { name: 'Replay', exact: true }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Replay this dead letter?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Replay now' }).focus();
  await page.keyboard.press('Enter');

  await expect(first.card).toHaveCount(0);
  const next = page.locator(`section.case-card[data-delivery-id="${nextId}"]`);
  await expect(next.getByRole('button', { name: 'Replay', exact: true })).toBeFocused();
  await expect(notice(page)).toHaveText(`Replayed: sending to ${first.email} again now. Follow it →`);
  await expect(page.getByTestId('live-notice').getByRole('link', { name: 'Follow it →' })).toHaveAttribute('href', /^\/deliveries\//);
  await screen(page, 'keyboard-replay-notice');
});

test('removing a suppression leaves focus on the next row’s Remove', async ({ page }) => {
  const addresses = [`${unique('keep-a')}@example.test`, `${unique('keep-b')}@example.test`];
  for (const address of addresses) {
    const r = await page.request.post('/api/suppressions', { headers: sameOrigin(), data: { address, reason: 'manual', note: 'keyboard spec' } });
    expect(r.status(), await r.text()).toBe(200);
  }
  await page.goto('/suppressions');
  const rows = page.locator('table.suppressions-table tbody tr');
  const order = await rows.evaluateAll((trs) => trs.map((tr) => tr.textContent ?? ''));
  const [i, j] = addresses.map((x) => order.findIndex((t) => t.includes(x)));
  const first = i < j ? addresses[0] : addresses[1];
  const row = rows.filter({ hasText: first });
  const nextId = await rows.nth(Math.min(i, j) + 1).getAttribute('data-suppression-id');
  expect(nextId, 'a row after the one removed').toBeTruthy();
  await row.getByRole('button', { name: `Remove ${first} from the suppression list` }).press('Enter');
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Reason for removing').fill('asked by phone to get mail again');
  await dialog.getByRole('button', { name: 'Remove from list' }).press('Enter');
  await expect(row).toHaveCount(0);
  await expect(page.locator(`tr[data-suppression-id="${nextId}"]`).getByRole('button', { name: /^Remove / })).toBeFocused();
});

/** For every labelled field on the page: its label text, whether it shows the word "required", and whether its control says so. */
const requiredFields = (page: Page) =>
  page.locator('.field').evaluateAll((fields) =>
    fields
      .map((f) => {
        const label = f.querySelector(':scope > span:first-child, :scope > label:first-child');
        const control = f.querySelector(':scope > input, :scope > select, :scope > textarea');
        if (!label || !control) return null;
        const mark = getComputedStyle(label, '::after').content;
        return { label: (label.textContent ?? '').trim(), shown: mark.includes('required'), required: control.hasAttribute('required') || control.getAttribute('aria-required') === 'true' };
      })
      .filter((x) => x !== null),
  );

test('required fields say so before anything is submitted', async ({ page, browser, contextAs }) => {
  const checks: [string, string[]][] = [
    ['/events/new', ['Title', 'Time zone', 'Starts (local time)', 'Ends (local time)']],
    ['/suppressions', ['Address']],
  ];
  for (const [url, names] of checks) {
    await page.goto(url);
    const fields = await requiredFields(page);
    for (const name of names) expect(fields.find((f) => f.label === name), `${url}: ${name}`).toEqual({ label: name, shown: true, required: true });
    // Marked exactly when the control is required: no optional field says "required".
    for (const f of fields) expect(f.shown, `${url}: ${f.label}`).toBe(f.required);
  }
  // The word is for the eye: a field's accessible name stays its label.
  await page.goto('/events/new');
  await expect(page.getByRole('textbox', { name: 'Title', exact: true })).toBeVisible();
  await page.goto('/suppressions');
  expect((await requiredFields(page)).find((f) => f.label.startsWith('Note'))).toMatchObject({ shown: false, required: false });

  const admin = await contextAs('admin');
  try {
    const p = await admin.newPage();
    await p.goto('/staff');
    const fields = await requiredFields(p);
    for (const name of ['Name', 'Email']) expect(fields.find((f) => f.label === name), name).toMatchObject({ shown: true, required: true });
    await screen(p, 'keyboard-required-staff');
  } finally {
    await admin.close();
  }

  // A reason asked for in a confirmation dialog says so too.
  const eventId = await createEventViaApi(page, unique('Required check'));
  await bookViaApi(page, eventId, { name: 'Rae Quired', email: `${unique('rae')}@example.test` });
  await page.goto(`/events/${eventId}`);
  await page.getByRole('button', { name: 'Cancel booking — Rae Quired' }).click();
  const reason = (await requiredFields(page)).find((f) => f.label.startsWith('Reason'));
  expect(reason).toMatchObject({ shown: true, required: true });
});

test('a nudge ends in a notice naming the recipient: "Sent to …"', async ({ page }) => {
  const email = `${unique('nell-nudge')}@example.test`;
  const eventId = await createEventViaApi(page, unique('Nudge notice'));
  await bookViaApi(page, eventId, { name: 'Nell Nudge', email });
  await page.goto(`/events/${eventId}`);
  await page.getByRole('button', { name: 'Remind now — Nell Nudge' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remind Nell Nudge now' });
  await expect(dialog.locator('iframe')).toBeVisible();
  await dialog.getByRole('button', { name: 'Send reminder now' }).click();
  await expect(dialog).toHaveCount(0);
  // Queued first, then — once the mail server took it — sent.
  await expect(notice(page)).toHaveText(`Sent to ${email}.`, { timeout: 20_000 });
  await expect(page.getByTestId('live-notice')).toBeInViewport();
  await screen(page, 'keyboard-nudge-notice');
  // Dismissed, and gone after a navigation.
  await page.getByRole('button', { name: 'Dismiss notice' }).click();
  await expect(notice(page)).toHaveText('');
});
