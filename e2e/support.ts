/**
 * Shared helpers for the browser specs: the `test` every spec imports — with its own organisation per spec file
 * ({@link test}, e2e/tenants.ts) and signed-in sessions per role —, screenshots to test-results/screens/<name>.png,
 * axe accessibility checks, and reading the mail catcher's database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import axe from 'axe-core';
import { and, desc, eq, sql } from 'drizzle-orm';
import { createDb, type DbHandle } from '@/db/client';
import { caughtMessages } from '@/db/schema';
import { resolveDatabaseUrl } from '@/scripts/lib';
import { demoTenant, ensureTestTenant, type TenantRole, type TestTenant } from './tenants';

export type { TestTenant, TenantRole } from './tenants';
export { expect };

/** A role a spec signs in as: one of its organisation's accounts, or the demo's partner organisation's admin. */
export type Role = TenantRole | 'partner';

type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

/** Per-test fixtures and options of {@link test}. */
export interface TenantFixtures {
  /**
   * Option: which organisation the spec file works in. `own` (default): its own, made for this file and run
   * (e2e/tenants.ts), so nothing another spec does is seen here. `demo`: the demo tenant `npm start` seeds — only for
   * specs ABOUT the demo data (its history, its events), which must not change it. `fresh`: its own, as
   * `npm run tenant -- create` leaves a new organisation — only its admin (use `role: 'admin'`), no rules, no settings.
   */
  tenantKind: 'own' | 'demo' | 'fresh';
  /** Option: the role `page` is signed in as (default staff); an explicit `storageState` option wins over it. */
  role: Role;
  /** The spec file's organisation (see `tenantKind`). */
  tenant: TestTenant;
  /** A new browser context signed in as `role` of this file's organisation (extra context options allowed). */
  contextAs: (role: Role, options?: BrowserContextOptions) => Promise<BrowserContext>;
}

/** The worker-scoped way to the same organisations and sessions, for `beforeAll`/`afterAll` hooks (which get no per-test fixtures). */
export interface Tenants {
  /** The organisation of the spec file `testInfo` belongs to (`kind` as the option `tenantKind`; default `own`). */
  of(testInfo: { file: string }, kind?: TenantFixtures['tenantKind']): Promise<TestTenant>;
  /** A new browser context signed in as `role` of `tenant`. */
  contextAs(tenant: TestTenant, role: Role, options?: BrowserContextOptions): Promise<BrowserContext>;
  /** The signed-in session of `role` of `tenant` (made once per worker by signing in through the form). */
  session(tenant: TestTenant, role: Role): Promise<StorageState>;
}

interface WorkerFixtures {
  /** The test worker's connection to the app's database. */
  appDb: DbHandle;
  tenants: Tenants;
}

/** This run's id: set once in playwright.config.ts (E2E_RUN), so every worker names a file's organisation alike. */
function runId(): string {
  return (process.env.E2E_RUN ?? 'local').toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 10) || 'local';
}

/** The organisation slug of spec file `file` in this run, e.g. `e2e-lx2k9a-notifications` (at most 63 characters). */
export function tenantSlugFor(file: string): string {
  const name = path.basename(file).replace(/\.spec\.ts$/, '').toLowerCase().replace(/[^a-z0-9-]/g, '-');
  return `e2e-${runId()}-${name}`.slice(0, 63).replace(/-+$/, '');
}

/**
 * Signs in through the real sign-in form and waits until the signed-in shell shows (up to `timeout` ms: the
 * sessions the fixtures make wait longer than an assertion, as the first page after signing in can take a while on a
 * busy machine).
 */
export async function signIn(page: Page, email: string, password: string, timeout = 10_000): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('[data-testid="current-role"]')).toBeVisible({ timeout });
}

/** Password of the account `role` signs in with: the partner organisation's is the demo's. */
const passwordOf = (tenant: TestTenant, role: Role) => (role === 'partner' ? 'punctual-demo' : tenant.password);

/**
 * The `test` every spec imports: Playwright's, with the spec file's own organisation (`tenant`, option
 * `tenantKind`), `page` signed in as option `role` of it (staff unless the file says otherwise), and `contextAs`
 * for more signed-in browsers. Sessions are made by signing in through the real form, once per worker and account.
 */
export const test = base.extend<TenantFixtures, WorkerFixtures>({
  appDb: [
    async ({}, use) => {
      const handle = createDb(resolveDatabaseUrl()!, { max: 2 });
      await use(handle);
      await handle.close();
    },
    { scope: 'worker' },
  ],
  tenants: [
    async ({ appDb, browser }, use, workerInfo) => {
      const baseURL = workerInfo.project.use.baseURL;
      const byFile = new Map<string, Promise<TestTenant>>();
      const sessions = new Map<string, Promise<StorageState>>();
      const remember = <T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> => {
        let p = map.get(key);
        if (!p) {
          p = make();
          // A failed attempt is not remembered: the next test tries again.
          p.catch(() => map.delete(key));
          map.set(key, p);
        }
        return p;
      };
      const tenants: Tenants = {
        of: (testInfo, kind = 'own') =>
          kind === 'demo'
            ? remember(byFile, 'demo', () => demoTenant(appDb.db))
            : remember(byFile, `${testInfo.file}#${kind}`, () => {
                const slug = tenantSlugFor(testInfo.file);
                return ensureTestTenant(appDb.db, slug, `E2E ${slug.replace(/^e2e-[a-z0-9]+-/, '')}`, { fresh: kind === 'fresh' });
              }),
        session: (tenant, role) =>
          remember(sessions, tenant.accounts[role], async () => {
            // Explicit: contexts made here inherit the spec file's `use` options (a spec that turns JavaScript off
            // for its pages would otherwise get a sign-in page whose form cannot be sent).
            const ctx = await browser.newContext({ baseURL, javaScriptEnabled: true, storageState: { cookies: [], origins: [] } });
            try {
              await signIn(await ctx.newPage(), tenant.accounts[role], passwordOf(tenant, role), 60_000);
              return await ctx.storageState();
            } finally {
              await ctx.close();
            }
          }),
        contextAs: async (tenant, role, options = {}) => browser.newContext({ baseURL, javaScriptEnabled: true, ...options, storageState: await tenants.session(tenant, role) }),
      };
      await use(tenants);
    },
    { scope: 'worker' },
  ],
  tenantKind: ['own', { option: true }],
  role: ['staff', { option: true }],
  tenant: async ({ tenantKind, tenants }, use, testInfo) => {
    await use(await tenants.of(testInfo, tenantKind));
  },
  storageState: async ({ storageState, role, tenant, tenants }, use) => {
    await use(storageState ?? (await tenants.session(tenant, role)));
  },
  contextAs: async ({ tenant, tenants }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (role, options) => {
      const ctx = await tenants.contextAs(tenant, role, options);
      contexts.push(ctx);
      return ctx;
    });
    // Closing twice is harmless: specs close their own; this closes what a failed test left open.
    await Promise.all(contexts.map((c) => c.close().catch(() => {})));
  },
});

const outDir = () => path.join(path.dirname(test.info().config.configFile ?? path.resolve('playwright.config.ts')), 'test-results');

/** Full-page screenshot as test-results/screens/<name>.png (outside Playwright's emptied outputDir). */
/** Fails when the page scrolls sideways: its document is wider than `px` (a phone's 375 px viewport, say). */
export async function noWiderThan(page: Page, px: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(px);
}

export async function screen(page: Page, name: string): Promise<void> {
  const file = path.join(outDir(), 'screens', `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
}

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA rules) on the page and fails on any `serious` or `critical` violation,
 * listing rule, impact and the first offending elements.
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  // Evaluated through the DevTools protocol, which the pages' Content-Security-Policy does not govern: an inline
  // <script> tag would be refused (only scripts carrying the request's nonce run, proxy.ts).
  await page.evaluate(axe.source);
  const result = (await page.evaluate(async () => {
    const w = window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } };
    return w.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
  })) as { violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] };
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, `axe violations on ${label}`).toEqual([]);
}

/** `text` as a literal inside a regular expression (tenant names and addresses in patterns). */
export function reEscape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The href of the first link matching `selector` on the page at `path`, loading the page again until there is one
 * (a spec's own organisation starts empty: its deliveries and caught mail appear as the worker sends). Up to 30 s.
 */
export async function firstHref(page: Page, path: string, selector: string): Promise<string> {
  const link = page.locator(selector).first();
  await expect
    .poll(
      async () => {
        await page.goto(path);
        return link.count();
      },
      { timeout: 30_000, message: `a link ${selector} on ${path}` },
    )
    .toBeGreaterThan(0);
  const href = await link.getAttribute('href');
  expect(href, `a link ${selector} on ${path}`).toBeTruthy();
  return href!;
}

/** A fresh per-test suffix so specs never collide on emails or titles. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Same-origin header for mutations sent with `page.request` (the server refuses cross-site requests). */
export function sameOrigin(): Record<string, string> {
  return { origin: String(test.info().project.use.baseURL ?? '') };
}

/** Creates an event through the JSON API (for specs whose subject is not the event form). @returns its id. */
export async function createEventViaApi(page: Page, title: string, opts: { start?: string; end?: string; timeZone?: string } = {}): Promise<string> {
  const res = await page.request.post('/api/events', {
    headers: sameOrigin(),
    data: { title, timeZone: opts.timeZone ?? 'Europe/Amsterdam', allDay: false, start: opts.start ?? '2030-06-15T10:00', end: opts.end ?? '2030-06-15T11:00' },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

/** Books a participant through the JSON API. @returns the booking id. */
export async function bookViaApi(page: Page, eventId: string, p: { name: string; email: string; role?: 'attendee' | 'external' | 'host'; guestTenant?: string }): Promise<string> {
  const res = await page.request.post(`/api/events/${eventId}/bookings`, { headers: sameOrigin(), data: { role: 'attendee', ...p } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

/**
 * Selector of the /mailbox rows that are reminders or nudges: booking notifications (the demo tenant has a
 * notification policy, so every new booking gets a confirmation) are rows with `data-message-kind="notification"`.
 */
export const REMINDER_MAIL_ROWS = 'table tbody tr:not([data-message-kind="notification"])';

/** Reminder and nudge rows of /mailbox (this tenant's caught mail) addressed to `address`, after a reload; booking notifications are not counted. */
export async function mailboxCount(page: Page, address: string): Promise<number> {
  await page.goto('/mailbox');
  return page.locator(REMINDER_MAIL_ROWS, { hasText: address }).count();
}

/**
 * Books `name` on a new event under an address with the catcher fault `fault` (`deny-once`: a 550 5.7.1 →
 * dead letter; `drop-once`: stored, then the connection drops → unknown outcome; either hits the first reminder
 * or nudge, never the booking confirmation: dev/mail-catcher.ts), nudges them, and waits
 * until the case shows on /attention. @returns the address and the case card's locator.
 */
export async function faultyCase(page: Page, name: string, fault: 'deny-once' | 'drop-once') {
  const eventId = await createEventViaApi(page, unique(fault === 'deny-once' ? 'Permission error' : 'Dropped connection'));
  const email = `${unique(name)}+${fault}@example.test`;
  const bookingId = await bookViaApi(page, eventId, { name, email });
  const r = await page.request.post(`/api/bookings/${bookingId}/nudge`, { headers: sameOrigin(), data: { template: 'attendee-reminder', idempotencyKey: unique(fault) } });
  expect(r.status()).toBe(200);
  const card = page.locator('section.case-card', { hasText: email });
  await expect
    .poll(async () => {
      await page.goto('/attention');
      return card.count();
    }, { timeout: 30_000 })
    .toBe(1);
  return { email, card };
}

/**
 * The link of the newest invitation mail caught for `email` (`/accept-invitation?token=…`), read from the catcher's
 * table: the mailbox shows it only to the person invited, who has no account yet. Waits up to 30 s for the worker.
 */
export async function invitationLink(email: string): Promise<string> {
  const handle = createDb(resolveDatabaseUrl()!, { max: 1 });
  try {
    let link: string | undefined;
    await expect
      .poll(
        async () => {
          const [row] = await handle.db
            .select({ text: caughtMessages.text })
            .from(caughtMessages)
            .where(and(eq(caughtMessages.accountMail, true), sql`${email} = any(${caughtMessages.envelopeTo})`))
            .orderBy(desc(caughtMessages.receivedAt))
            .limit(1);
          link = /https?:\/\/\S+\/accept-invitation\?token=[\w-]+/.exec(row?.text ?? '')?.[0];
          return link ?? null;
        },
        { timeout: 30_000, message: `the invitation mail to ${email} is caught` },
      )
      .not.toBeNull();
    return link!;
  } finally {
    await handle.close();
  }
}

/** Invites `p` as the signed-in admin of `page` and accepts the invitation with `p.password` (the public API). */
export async function inviteAndAccept(page: Page, p: { name: string; email: string; role: 'admin' | 'staff' | 'viewer'; password: string }): Promise<void> {
  const invited = await page.request.post('/api/staff', { headers: sameOrigin(), data: { name: p.name, email: p.email, role: p.role } });
  expect(invited.status(), await invited.text()).toBe(200);
  const token = new URL(await invitationLink(p.email)).searchParams.get('token')!;
  const accepted = await page.request.post('/api/invitations/accept', { headers: sameOrigin(), data: { token, password: p.password } });
  expect(accepted.status(), await accepted.text()).toBe(200);
}

/**
 * Keeps every participant line, "earlier schedule" fold and the add form of the event page open — on every page
 * this `page` loads from now on, as they appear (the page refreshes every 2 s) — for specs whose subject is what a
 * timeline shows, not the folding (that is e2e/event-page-scale.spec.ts). Call it before the first navigation.
 */
export async function keepTimelinesOpen(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const open = () =>
      document
        .querySelectorAll<HTMLDetailsElement>('details.participant-more:not([open]), details.timeline-earlier:not([open]), details.add-participant-toggle:not([open])')
        .forEach((d) => {
          d.open = true;
        });
    new MutationObserver(open).observe(document, { childList: true, subtree: true });
  });
}
