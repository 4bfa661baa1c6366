/**
 * The front desk's today view at `/today` (issue #13) on the demo tenant, whose seed has events today
 * (dev/seed.ts: "Clay & Coffee (online)" starts minutes after the demo starts, with a host, two attendees and
 * a guest of the partner tenant). At 1360 px (two columns) and at 375 px (one column, nothing wider than the
 * window, 44 px tap targets): the heading names the day and the tenant's zone, the four sections show, an event
 * expands to its participants (host first; email and phone links; the person's own zone when it differs) with the
 * event page's "Remind now" dialog, the reminders window can be changed, and a viewer reads the page without
 * controls; axe finds nothing serious. Screenshots: today.png, today-mobile.png, today-mobile-expanded.png. Adds one event
 * three hours ahead with one booking (so the reminders window has a row whenever the spec runs) and changes nothing
 * else in the demo (the nudge dialog is opened and cancelled).
 */
import { type Page } from '@playwright/test';
import { bookViaApi, createEventViaApi, expect, expectAccessible, screen, test, unique } from './support';

/** Local wall time `fromNowMs` from now in Europe/Amsterdam, as the event form's `YYYY-MM-DDTHH:mm`. */
function amsterdamLocal(fromNowMs: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(Date.now() + fromNowMs))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

// About the demo data `npm start` seeds (dev/seed.ts): the demo tenant, which no other spec changes.
test.use({ tenantKind: 'demo' });

const HEADING = /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d{1,2} [A-Z][a-z]+ · Europe\/Amsterdam$/;
const EVENT = 'Clay & Coffee (online)';

/** The first of today's events titled `title`. */
const eventItem = (page: Page, title: string) => page.getByTestId('today-events').locator('li.today-event').filter({ has: page.getByRole('link', { name: title, exact: true }) }).first();

async function sectionsShow(page: Page) {
  await page.goto('/today');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(HEADING);
  for (const id of ['today-now', 'today-events', 'today-reminders', 'today-attention']) await expect(page.getByTestId(id)).toBeVisible();
  await expect(page.getByTestId('today-refreshed')).toContainText(/Refreshes every 30 s · last refreshed \d{2}:\d{2}:\d{2} CES?T/);
  await expect(page.getByRole('heading', { name: /Today's events/ })).toBeVisible();
  await expect(eventItem(page, EVENT)).toBeVisible();
  // No raw ISO instant anywhere in the page's text.
  expect(await page.locator('main').innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
}

/** Expands the demo event and checks its participants: host first, email and phone as links, the guest. */
async function expandEvent(page: Page) {
  const item = eventItem(page, EVENT);
  const toggle = item.getByTestId('today-expand');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const people = item.locator('li.today-participant');
  await expect(people.first()).toBeVisible();
  await expect(people).toHaveCount(4);
  await expect(people.first()).toHaveAttribute('data-role', 'host');
  await expect(people.first()).toContainText('Hana Okafor');
  const ada = people.filter({ hasText: 'Ada Lovelace' });
  await expect(ada.getByRole('link', { name: /ada@demo\.punctual\.local/ })).toHaveAttribute('href', 'mailto:ada@demo.punctual.local');
  // Ada lives in London, the event is planned in Amsterdam: her own zone is shown; Hana's (same zone) is not.
  await expect(ada.locator('.participant-zone')).toContainText('Europe/London');
  await expect(people.first().locator('.participant-zone')).toHaveCount(0);
  await expect(people.filter({ hasText: 'Grace Partner' })).toContainText('guest of another tenant');
  return { item, people, toggle };
}

test.describe('desktop, 1360 px', () => {
  test.use({ role: 'staff', viewport: { width: 1360, height: 900 } });

  test('sections, an expanded event with its participants, the reminders window, two columns', async ({ page }) => {
    // The demo's own reminders are all due within minutes of its start; this spec may run much later (specs run
    // in parallel, in any order), so it books one person onto an event three hours from now: its "Starting soon"
    // reminder is due inside the 12-hour window whenever this runs.
    const later = await createEventViaApi(page, unique('Later today'), { start: amsterdamLocal(3 * 3600_000), end: amsterdamLocal(4 * 3600_000) });
    await bookViaApi(page, later, { name: 'Later Person', email: `${unique('later')}@example.test` });
    await sectionsShow(page);
    // "Today" sits right after "Dashboard" in the navigation.
    const nav = (await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).map((t) => t.trim());
    expect(nav.slice(0, 3)).toEqual(['Dashboard', 'Today', 'Events']);
    await expect(page.getByRole('link', { name: 'Today', exact: true })).toHaveAttribute('aria-current', 'page');

    // Two columns: the reminders sit to the right of the events.
    const events = (await page.getByTestId('today-events').boundingBox())!;
    const reminders = (await page.getByTestId('today-reminders').boundingBox())!;
    expect(reminders.x).toBeGreaterThan(events.x + events.width - 1);

    const { people } = await expandEvent(page);
    await expectAccessible(page, 'today, an event expanded');
    // The event page's nudge dialog, opened from here and cancelled (nothing is sent).
    await people.filter({ hasText: 'Ada Lovelace' }).getByRole('button', { name: 'Remind now — Ada Lovelace' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remind Ada Lovelace now' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Subject:')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    // The reminders window: 12 hours, pressed, kept in the address; its count line says the window.
    await page.getByTestId('today-reminders').getByRole('button', { name: '12 h' }).click();
    await expect(page.getByTestId('today-reminders').getByRole('button', { name: '12 h' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('today-reminders-count')).toContainText('and 12 hours from now');
    await expect(page).toHaveURL(/[?&]hours=12\b/);
    await expect(page.getByTestId('today-reminders').locator('li.today-row').first()).toBeVisible();

    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1360);
    await screen(page, 'today');
  });

  test('a viewer reads the same page without "Remind now"', async ({ browser, contextAs }) => {
    const ctx = await contextAs('viewer');
    const page = await ctx.newPage();
    await sectionsShow(page);
    const { item } = await expandEvent(page);
    await expect(item.getByRole('button', { name: /Remind now/ })).toHaveCount(0);
    await ctx.close();
  });
});

test.describe('phone, 375 px', () => {
  test.use({ role: 'staff', viewport: { width: 375, height: 812 } });

  test('one column of cards, expandable, 44 px tap targets, nothing wider than the window', async ({ page }) => {
    await sectionsShow(page);
    const events = (await page.getByTestId('today-events').boundingBox())!;
    const reminders = (await page.getByTestId('today-reminders').boundingBox())!;
    expect(reminders.y, 'reminders below the events on a phone').toBeGreaterThan(events.y);
    await screen(page, 'today-mobile');

    const { people, toggle } = await expandEvent(page);
    expect((await toggle.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    for (const link of await people.locator('a[href^="mailto:"], a[href^="tel:"]').all()) {
      expect((await link.boundingBox())!.height, `${await link.textContent()} big enough to tap`).toBeGreaterThanOrEqual(44);
    }
    for (const b of await page.getByTestId('today-reminders').getByRole('button').all()) expect((await b.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screen(page, 'today-mobile-expanded');
  });
});
