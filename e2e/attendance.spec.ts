/**
 * Acting from a message and attendance, in the browser, on this spec's own tenant: the signed action pages
 * `/a/<token>` with JavaScript DISABLED and no session ("I can't come" with a typed reason, "I'll be there"; a GET
 * changes nothing; a second POST says "already"), at 375 px and 1360 px; then staff see each person's attendance on the
 * event page (who and when) and the counts on Today, with the alert line for unconfirmed people above the organisation's
 * threshold. Tokens are signed here with the key the server derives from its
 * session secret (scripts/lib.ts authSecret), as e2e/unsubscribe.spec.ts does.
 * Screenshots: action-decline-375, action-decline-1360, action-declined-375, action-confirm-375, action-confirmed-375,
 * event-attendance-1360, event-attendance-375, today-attendance-1360, today-attendance-375.
 */
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { createDb, type DbHandle } from '@/db/client';
import { bookings, events, tenants } from '@/db/schema';
import { actionLinkExpiry } from '@/domain/scheduling/attendance';
import { authSecret, resolveDatabaseUrl, root } from '@/scripts/lib';
import { actionLinkSecrets, signActionToken } from '@/server/sending/action-link';
import { bookViaApi, createEventViaApi, expect, noWiderThan, screen, test, unique } from './support';

let handle: DbHandle;
test.beforeAll(() => {
  const dbUrl = resolveDatabaseUrl();
  expect(dbUrl, 'the e2e server’s database').not.toBeNull();
  handle = createDb(dbUrl!, { max: 1 });
});
test.afterAll(async () => {
  await handle?.close();
});

const key = () => actionLinkSecrets({ BETTER_AUTH_SECRET: authSecret(path.resolve(root, process.env.PUNCTUAL_DATA_DIR ?? '.data')) })[0];

/** Local wall time `fromNowMs` from now in Europe/Amsterdam, as the event form's `YYYY-MM-DDTHH:mm`. */
function amsterdamLocal(fromNowMs: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(Date.now() + fromNowMs))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

async function tokenFor(bookingId: string, answer: 'confirmed' | 'declined') {
  const [b] = await handle.db.select().from(bookings).where(eq(bookings.id, bookingId));
  const [e] = await handle.db.select().from(events).where(eq(events.id, b.eventId));
  return signActionToken({ tenantId: b.tenantId, bookingId, answer, expiresAt: actionLinkExpiry(e.endsAt) }, key());
}

test('action pages without script, then attendance on the event page and Today', async ({ page, browser }) => {
  // Staff set up an event later today with two participants.
  const title = unique('Wheel class');
  const eventId = await createEventViaApi(page, title, { start: amsterdamLocal(20 * 60_000), end: amsterdamLocal(80 * 60_000) });
  const ana = await bookViaApi(page, eventId, { name: 'Ana Lima', email: `${unique('ana')}@example.test` });
  const ben = await bookViaApi(page, eventId, { name: 'Ben Okafor', email: `${unique('ben')}@example.test` });
  await bookViaApi(page, eventId, { name: 'Una Unsure', email: `${unique('una')}@example.test` });

  // The person's browser: no script, no staff session, a phone.
  const person = await browser.newContext({ javaScriptEnabled: false, storageState: { cookies: [], origins: [] }, viewport: { width: 375, height: 812 } });
  try {
    const p = await person.newPage();
    const decline = await tokenFor(ana, 'declined');
    for (let i = 0; i < 2; i++) await p.goto(`/a/${decline}`); // what a link scanner does: nothing changes
    expect((await handle.db.select().from(bookings).where(eq(bookings.id, ana)))[0]).toMatchObject({ status: 'confirmed', attendance: 'unconfirmed' });
    await expect(p.getByRole('heading', { level: 1 })).toContainText(`that you cannot come to ${title}`);
    await expect(p.getByRole('link', { name: 'Confirm that you will come' })).toBeVisible();
    await noWiderThan(p, 375);
    await screen(p, 'action-decline-375');
    await p.setViewportSize({ width: 1360, height: 900 });
    await screen(p, 'action-decline-1360');
    await p.setViewportSize({ width: 375, height: 812 });
    await p.getByLabel(/Reason/).fill('My train is cancelled');
    const [post] = await Promise.all([p.waitForResponse((r) => r.request().method() === 'POST'), p.getByRole('button', { name: 'I can’t come — cancel my place' }).click()]);
    expect(post.status()).toBe(200);
    await expect(p.getByRole('heading', { level: 1 })).toHaveText('Your place is cancelled');
    await noWiderThan(p, 375);
    await screen(p, 'action-declined-375');
    // The same POST again (a second click): "already", nothing more happens.
    const again = await p.request.post(`/a/${decline}`, { form: { reason: 'twice' } });
    expect(await again.text()).toContain('Your place was already cancelled');
    expect((await handle.db.select().from(bookings).where(eq(bookings.id, ana)))[0]).toMatchObject({ status: 'cancelled', statusReason: 'My train is cancelled', attendance: 'declined', attendanceSource: 'link' });

    const confirm = await tokenFor(ben, 'confirmed');
    await p.goto(`/a/${confirm}`);
    await expect(p.getByRole('heading', { level: 1 })).toContainText(`will you be at ${title}`);
    await screen(p, 'action-confirm-375');
    await p.getByRole('button', { name: 'Yes, I’ll be there' }).click();
    await expect(p.getByRole('heading', { level: 1 })).toHaveText('Thank you — see you there');
    await noWiderThan(p, 375);
    await screen(p, 'action-confirmed-375');
  } finally {
    await person.close();
  }

  // Staff: the event page shows each person's attendance, with who and when.
  await page.setViewportSize({ width: 1360, height: 900 });
  await page.goto(`/events/${eventId}`);
  const row = (name: string) => page.locator('.participant').filter({ hasText: name }).first();
  await expect(row('Ben Okafor').getByTestId('attendance')).toHaveText('confirmed');
  await expect(row('Una Unsure').getByTestId('attendance')).toHaveText('unconfirmed');
  await expect(page.locator('[data-attendance="declined"]').first()).toBeVisible();
  await row('Ben Okafor').locator('summary.participant-summary').click();
  await expect(row('Ben Okafor').getByTestId('attendance-detail')).toContainText('confirmed by the participant (link in a message)');
  await screen(page, 'event-attendance-1360');
  await page.setViewportSize({ width: 375, height: 812 });
  await noWiderThan(page, 375);
  await screen(page, 'event-attendance-375');

  // Today: counts per event, who/when per person, and — with the organisation's threshold at 0 — the alert line for an
  // event within 24 h that still has someone unconfirmed (Una).
  const [ev] = await handle.db.select().from(events).where(eq(events.id, eventId));
  await handle.db.update(tenants).set({ unconfirmedAlertThreshold: 0 }).where(eq(tenants.id, ev.tenantId));
  await page.setViewportSize({ width: 1360, height: 900 });
  await page.goto('/today');
  await expect(page.getByTestId('today-unconfirmed').locator('li', { hasText: title })).toContainText('1 not confirmed');
  const item = page.getByTestId('today-events').locator('li.today-event').filter({ has: page.getByRole('link', { name: title, exact: true }) }).first();
  await expect(item.getByTestId('today-attendance')).toContainText('1 confirmed · 1 unconfirmed · 1 declined');
  await item.getByTestId('today-expand').click();
  await expect(item.locator('li.today-participant').filter({ hasText: 'Ben Okafor' }).getByTestId('attendance-detail')).toContainText('confirmed by the participant');
  await screen(page, 'today-attendance-1360');
  await page.setViewportSize({ width: 375, height: 812 });
  await noWiderThan(page, 375);
  await screen(page, 'today-attendance-375');
});
