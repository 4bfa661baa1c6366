/**
 * A phone (issue #12 "A phone and a keyboard"): every page at 375 × 812, signed in as an admin (who sees every
 * page and control), is no wider than the window (`document.documentElement.scrollWidth <= 375`: wide tables
 * scroll inside their own box or become cards), and no button, link or field is cut off at the right edge;
 * a screenshot per page goes to test-results/screens/mobile-<name>.png. The navigation folds behind a "Menu"
 * button with aria-expanded that opens and closes by keyboard and closes on navigation; a desktop still shows
 * the sidebar without the button.
 *
 * Detail pages use ids found through the UI and API: the first event, delivery, rule and caught message of the
 * seeded demo, and the preference and one-click unsubscribe links of a caught booking email. A dead letter and
 * an unknown outcome are made first so that "Needs attention" shows its cards. One browser context, no fixed
 * waits; it takes about 30–40 s because it loads and photographs some 25 pages (about 1 s each).
 */
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { type Page } from '@playwright/test';
import { createDb } from '@/db/client';
import { caughtMessages } from '@/db/schema';
import { resolveDatabaseUrl } from '@/scripts/lib';
import { bookViaApi, createEventViaApi, expect, firstHref, keepTimelinesOpen, sameOrigin, screen, test, unique } from './support';

// The event page folds each participant's timeline; these checks read the timelines.
test.beforeEach(async ({ page }) => keepTimelinesOpen(page));

test.use({ role: 'admin', viewport: { width: 375, height: 812 } });

/**
 * Every page, by screenshot name. `:event`, `:delivery`, `:rule`, `:message`, `:preferences` and `:unsubscribe`
 * are filled in from the demo data; `public` pages are visited signed out. To cover a new page, add a line.
 */
const PAGES: { name: string; path: string; public?: boolean }[] = [
  { name: 'dashboard', path: '/' },
  { name: 'today', path: '/today' },
  { name: 'events', path: '/events' },
  { name: 'event', path: '/events/:event' },
  { name: 'event-edit', path: '/events/:event/edit' },
  { name: 'event-import', path: '/events/:event/import' },
  { name: 'event-new', path: '/events/new' },
  { name: 'deliveries', path: '/deliveries' },
  { name: 'delivery', path: '/deliveries/:delivery' },
  { name: 'attention', path: '/attention' },
  { name: 'reminders', path: '/reminders?status=upcoming&window=all' },
  { name: 'suppressions', path: '/suppressions' },
  { name: 'audit', path: '/audit' },
  { name: 'rules', path: '/rules' },
  { name: 'rule', path: '/rules/:rule' },
  { name: 'rule-new', path: '/rules/new' },
  { name: 'notifications', path: '/notifications' },
  { name: 'alerts', path: '/alerts' },
  { name: 'settings', path: '/settings' },
  { name: 'staff', path: '/staff' },
  { name: 'account', path: '/account' },
  { name: 'templates', path: '/templates' },
  { name: 'template-editor', path: '/templates/attendee-reminder/de' },
  { name: 'mailbox', path: '/mailbox' },
  { name: 'mailbox-sms', path: '/mailbox?channel=sms' },
  { name: 'mailbox-webhooks', path: '/mailbox?channel=webhook' },
  { name: 'message', path: '/mailbox/:message' },
  { name: 'sign-in', path: '/sign-in', public: true },
  // Issue #13: asking for a reset link, and a set-password link that cannot be used (its plain refusal).
  { name: 'forgot-password', path: '/forgot-password', public: true },
  { name: 'set-password', path: '/set-password?token=not-a-link', public: true },
  { name: 'preferences', path: '/preferences/:preferences', public: true },
  { name: 'unsubscribe', path: '/u/:unsubscribe', public: true },
];

const WIDTH = 375;

/**
 * What does not fit the window: the page's own horizontal extent, and every visible control whose box leaves
 * [0, window width] — unless a box between it and the page scrolls sideways on purpose (a wide table's own
 * scroll box, the template previews). A control cut off by a card's `overflow: hidden` counts.
 */
async function misfits(page: Page): Promise<string[]> {
  return page.evaluate((width) => {
    const out: string[] = [];
    const sw = document.documentElement.scrollWidth;
    if (sw > width) out.push(`page scrollWidth ${sw}`);
    const scrollsSideways = (el: Element) => {
      for (let a = el.parentElement; a; a = a.parentElement) {
        const s = getComputedStyle(a);
        if ((s.overflowX === 'auto' || s.overflowX === 'scroll') && a.scrollWidth > a.clientWidth) return true;
      }
      return false;
    };
    for (const el of document.querySelectorAll('a[href], button, input:not([type="hidden"]), select, textarea')) {
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1 || (el as HTMLElement).offsetParent === null) continue; // hidden or visually hidden
      if (el.closest('dialog:not([open])')) continue;
      if (r.right <= width + 0.5 && r.left >= -0.5) continue;
      if (scrollsSideways(el)) continue;
      const name = (el.getAttribute('aria-label') ?? el.textContent ?? (el as HTMLInputElement).name ?? '').trim().slice(0, 40);
      out.push(`${el.tagName.toLowerCase()} "${name}" spans ${Math.round(r.left)}–${Math.round(r.right)} px`);
    }
    return out;
  }, WIDTH);
}

/** A screenshot of the window only (a dialog floats over the page: a full-page picture would not show it where it is). */
const windowShot = (page: Page, name: string) => page.screenshot({ path: path.resolve('test-results', 'screens', `${name}.png`) });

/** The href of the first link matching `selector` on `path`, as a path. */
async function firstLink(page: Page, path: string, selector: string): Promise<string> {
  return firstHref(page, path, selector);
}

/** Books two guests whose first message fails (the catcher's deny-once and drop-once faults, dev/mail-catcher.ts). */
async function makeAttentionCases(page: Page): Promise<string[]> {
  const eventId = await createEventViaApi(page, unique('Phone check'));
  const emails = [`${unique('mobile-dead')}+deny-once@example.test`, `${unique('mobile-unknown')}+drop-once@example.test`];
  for (const email of emails) {
    const bookingId = await bookViaApi(page, eventId, { name: 'Pat Phone', email });
    const r = await page.request.post(`/api/bookings/${bookingId}/nudge`, { headers: sameOrigin(), data: { template: 'attendee-reminder', idempotencyKey: unique('mobile') } });
    expect(r.status(), await r.text()).toBe(200);
  }
  return emails;
}

test('every page fits a 375 px phone, with a folding menu', async ({ page }) => {
  // Visits and photographs every page at 375 px: 180 s ran out on a 2-core machine with a second test worker beside
  // it and other builds running (load average 26).
  test.setTimeout(360_000);
  const cases = await makeAttentionCases(page);

  await test.step('the menu: folded, opens and closes by keyboard, closes on navigation', async () => {
    await page.goto('/');
    const menu = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
    // Keyboard: skip link, brand, then the menu button.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(menu).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(nav).toBeVisible();
    for (const link of await nav.getByRole('link').all()) {
      const box = (await link.boundingBox())!;
      expect(box.x + box.width, `${await link.textContent()} inside the window`).toBeLessThanOrEqual(WIDTH);
      expect(box.height, 'a link big enough to tap').toBeGreaterThanOrEqual(44);
    }
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await windowShot(page, 'mobile-nav-open');
    await page.keyboard.press('Tab');
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
    await expect(menu).toBeFocused();
    await page.keyboard.press('Space');
    await expect(nav).toBeVisible();
    await nav.getByRole('link', { name: 'Events' }).press('Enter');
    await expect(page).toHaveURL(/\/events$/);
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
    // Focus was on a link that is now hidden: it goes to the new page's content.
    await expect(page.locator('main#main')).toBeFocused();
    // A desktop keeps the sidebar and has no menu button.
    await page.setViewportSize({ width: 1360, height: 900 });
    await expect(nav).toBeVisible();
    await expect(menu).toBeHidden();
    await page.setViewportSize({ width: WIDTH, height: 812 });
  });

  const ids: Record<string, string> = {};
  await test.step('ids of detail pages from the organisation’s data', async () => {
    ids.event = (await firstLink(page, '/events', 'table.events-table tbody tr a.row-title')).split('/').pop()!;
    ids.delivery = (await firstLink(page, '/deliveries', 'main a[href^="/deliveries/"]')).split('/').pop()!;
    ids.rule = (await firstLink(page, '/rules', 'main a[href^="/rules/"]')).split('/').pop()!;
    // A booking email carries the person's preference link and, in its List-Unsubscribe header, the one-click link.
    const booked = page.locator('main a[href^="/mailbox/"]', { hasText: /You.re booked/ });
    await expect.poll(async () => (await page.goto('/mailbox'), booked.count()), { timeout: 30_000 }).toBeGreaterThan(0);
    ids.message = (await booked.first().getAttribute('href'))!.split('/').pop()!;
    // Staff see these links masked in the mailbox (only the person may use them): the test reads the message as
    // the catcher stored it, straight from the database.
    const handle = createDb(resolveDatabaseUrl()!, { max: 1 });
    const [{ raw }] = await handle.db.select({ raw: caughtMessages.raw }).from(caughtMessages).where(eq(caughtMessages.id, ids.message));
    await handle.close();
    expect(await (await page.request.get(`/api/mailbox/${ids.message}/raw`)).text()).not.toContain(/\/u\/([\w.-]+)/.exec(raw.replace(/\r?\n[ \t]+/g, ' '))![1]);
    const source = raw.replace(/=\r?\n/g, '').replace(/\r?\n[ \t]+/g, ' ').replace(/=3D/g, '=');
    ids.preferences = /\/preferences\/([\w.-]+)/.exec(source)?.[1] ?? '';
    ids.unsubscribe = /\/u\/([\w.-]+)/.exec(source)?.[1] ?? '';
    expect(ids.preferences, 'a preference link in the booking email').not.toBe('');
    expect(ids.unsubscribe, 'a one-click unsubscribe link in the booking email').not.toBe('');
    // Both failing sends have reached "Needs attention".
    await expect
      .poll(async () => {
        const html = await (await page.request.get('/attention')).text();
        return cases.filter((c) => html.includes(c)).length;
      }, { timeout: 30_000 })
      .toBe(2);
  });

  const bad: string[] = [];
  const visit = async (p: (typeof PAGES)[number]) => {
    const url = p.path.replace(/:(\w+)/g, (_, k: string) => ids[k] ?? `:${k}`);
    const res = await page.goto(url);
    expect(res?.status(), `${p.name} ${url}`).toBe(200);
    await expect(page.locator('h1').first()).toBeVisible();
    if (!p.public) await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
    for (const f of page.frames()) await f.waitForLoadState();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    for (const m of await misfits(page)) bad.push(`${p.name} (${url}): ${m}`);
    await screen(page, `mobile-${p.name}`);
  };
  for (const p of PAGES.filter((p) => !p.public)) await visit(p);

  await test.step('the event page’s dialogs fit too', async () => {
    await page.goto(`/events/${ids.event}`);
    const card = page.locator('article.participant').filter({ has: page.getByRole('button', { name: /^Remind now/ }) }).first();
    await card.getByRole('button', { name: /^Remind now/ }).click();
    const nudge = page.locator('dialog[open]');
    await expect(nudge.locator('iframe')).toBeVisible();
    for (const m of await misfits(page)) bad.push(`nudge dialog: ${m}`);
    const fits = await nudge.evaluate((d) => d.scrollWidth <= d.clientWidth && d.getBoundingClientRect().right <= window.innerWidth);
    expect(fits, 'the nudge dialog fits the window').toBe(true);
    await windowShot(page, 'mobile-event-nudge');
    await nudge.getByRole('button', { name: 'Cancel' }).click();
    await expect(nudge).toHaveCount(0);
    await card.getByRole('button', { name: /^Preferences/ }).click();
    const prefs = page.locator('dialog[open]');
    await expect(prefs).toBeVisible();
    for (const m of await misfits(page)) bad.push(`preferences dialog: ${m}`);
    await windowShot(page, 'mobile-event-preferences');
  });

  await page.context().clearCookies();
  for (const p of PAGES.filter((p) => p.public)) await visit(p);
  expect(bad, 'what does not fit 375 px').toEqual([]);
});
