/**
 * Shared helpers for the browser specs: signed-in sessions per role (made once by auth.setup.ts), screenshots
 * to test-results/screens/<name>.png, axe accessibility checks, and reading the mail catcher's database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import axe from 'axe-core';
import { and, desc, eq, sql } from 'drizzle-orm';
import { createDb } from '@/db/client';
import { caughtMessages } from '@/db/schema';
import { resolveDatabaseUrl } from '@/scripts/lib';

export type DemoRole = 'admin' | 'staff' | 'viewer' | 'partner';

/** Demo accounts (server/accounts/staff.ts), all with the demo password. */
export const ACCOUNTS: Record<DemoRole, string> = {
  admin: 'admin@demo.punctual.local',
  staff: 'staff@demo.punctual.local',
  viewer: 'viewer@demo.punctual.local',
  partner: 'admin@partner.punctual.local',
};
export const DEMO_PASSWORD = 'punctual-demo';

const outDir = () => path.join(path.dirname(test.info().config.configFile ?? path.resolve('playwright.config.ts')), 'test-results');

/** The storage state file holding a signed-in session for `role`. */
export function authFile(role: DemoRole): string {
  return path.join(path.resolve('test-results'), 'auth', `${role}.json`);
}

/** Signs in through the real sign-in form. */
export async function signIn(page: Page, role: DemoRole): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(ACCOUNTS[role]);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('[data-testid="current-role"]')).toBeVisible();
}

/** A new browser context already signed in as `role`. */
export async function contextAs(browser: Browser, role: DemoRole): Promise<BrowserContext> {
  return browser.newContext({ storageState: authFile(role) });
}

/** Full-page screenshot as test-results/screens/<name>.png (outside Playwright's emptied outputDir). */
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
