/**
 * Notification settings and preferences in the browser (issue #9 §2, §3, §5): an admin edits the policy matrix
 * and reads the sentence change; a second tab's stale save gets the conflict panel and writes nothing; the
 * webhook endpoint gets its secret, is switched off "by a 410" and switched on again; staff edit a participant's
 * preferences and the reminders follow; staff see that someone unsubscribed by one-click link and may tick that
 * category again only when the person asked them to; the person's own page through a link signed here with the server's key,
 * at 375 px, without signing in.
 *
 * Runs in its own organisation (e2e/support.ts), set up like the demo. Each test starts it from "nobody notified"
 * (the empty policy, no endpoint), so its own bookings notify no one; after the last test the settings row is put
 * back exactly as it was (or removed when there was none).
 * Screenshots: notifications-desktop, notifications-375, notifications-conflict, notifications-webhook-off(-375),
 * notifications-viewer, preferences-dialog(-375), preferences-public-375, preferences-public-stale-375,
 * preferences-link-invalid, preferences-dialog-unsubscribed(-375).
 */
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { type APIRequestContext, type Page } from '@playwright/test';
import { createDb, type DbHandle } from '@/db/client';
import { disableWebhook } from '@/db/queries/scheduling/domain-events';
import { auditLog, notificationSettings, type NotificationSettings } from '@/db/schema';
import { emptyPolicy, type NotificationPolicy } from '@/domain/notifications/notification-policy';
import { authSecret, resolveDatabaseUrl, root } from '@/scripts/lib';
import { preferencesSecret, signPreferenceToken } from '@/server/sending/preference-link';
import { signUnsubscribeToken, unsubscribeExpiry, unsubscribeSecrets } from '@/server/sending/unsubscribe-link';
import { bookViaApi, createEventViaApi, expect, expectAccessible, keepTimelinesOpen, reEscape, sameOrigin, screen, test, unique, noWiderThan } from './support';

// The event page folds each participant's timeline; these checks read the timelines.
test.beforeEach(async ({ page }) => keepTimelinesOpen(page));

interface Settings {
  tenantId: string;
  policy: NotificationPolicy;
  smsSender: string | null;
  webhookUrl: string | null;
  webhookEnabled: boolean;
  webhookSecret?: string | null;
  version: number;
}

async function settings(request: APIRequestContext): Promise<Settings> {
  const res = await request.get('/api/notification-settings');
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Settings;
}

/** Puts the spec's organisation back to "nobody notified", no endpoint, default sender (through the API, as an admin). */
async function resetSettings(request: APIRequestContext): Promise<Settings> {
  const s = await settings(request);
  const res = await request.put('/api/notification-settings', {
    headers: sameOrigin(),
    data: { policy: emptyPolicy, smsSender: '', webhookUrl: '', webhookEnabled: false, version: s.version },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { settings: Settings }).settings;
}

let handle: DbHandle;
let demoTenantId: string;
let original: NotificationSettings | undefined;

test.beforeAll(async ({ tenants }, testInfo) => {
  const dbUrl = resolveDatabaseUrl();
  expect(dbUrl, 'the e2e server’s database').not.toBeNull();
  handle = createDb(dbUrl!, { max: 1 });
  const admin = await tenants.contextAs(await tenants.of(testInfo), 'admin');
  demoTenantId = (await settings((await admin.newPage()).request)).tenantId;
  await admin.close();
  [original] = await handle.db.select().from(notificationSettings).where(eq(notificationSettings.tenantId, demoTenantId));
});

test.afterAll(async () => {
  if (!original) {
    await handle.db.delete(notificationSettings).where(eq(notificationSettings.tenantId, demoTenantId));
  } else {
    const { tenantId: _t, version: _v, updatedBy: _b, ...columns } = original;
    await handle.db.update(notificationSettings).set(columns).where(eq(notificationSettings.tenantId, demoTenantId));
  }
  await handle.close();
});

const sentence = (page: Page, text: string | RegExp) => page.getByTestId('policy-sentences').getByText(text);

test('an admin edits the policy matrix and reads the sentences change; staff read it without controls', async ({ browser, contextAs }) => {
  const ctx = await contextAs('admin');
  try {
    const page = await ctx.newPage();
    await keepTimelinesOpen(page);
    await resetSettings(page.request);
    await page.goto('/');
    // The navigation's link (exact: the dashboard's "due" tiles, links too, mention notifications in their captions).
    await page.getByRole('link', { name: 'Notifications', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    await expect(sentence(page, 'When a booking is confirmed: nobody is notified.')).toBeVisible();

    // Tick: attendee and external guest for confirmations, hosts for cancelled events; the sentences follow as you click.
    await page.getByRole('checkbox', { name: 'A booking is confirmed: notify the attendee' }).check();
    await expect(sentence(page, 'When a booking is confirmed, the attendee gets “Booking confirmed”.')).toBeVisible();
    await page.getByRole('checkbox', { name: 'A booking is confirmed: notify the external guest' }).check();
    await expect(sentence(page, 'When a booking is confirmed, the attendee and the external guest get “Booking confirmed”.')).toBeVisible();
    await page.getByRole('checkbox', { name: 'An event is cancelled: notify the host' }).check();
    await expect(sentence(page, /^When an event is cancelled \(essential: sent even to people who opted out of booking updates\), hosts get “Event cancelled”\.$/)).toBeVisible();
    await expect(sentence(page, /^Quiet hours delay non-essential notifications/)).toBeVisible();
    await page.getByLabel('SMS sender').fill('Punctual');
    await page.getByRole('button', { name: 'Save notification settings' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    await expectAccessible(page, 'notifications page');
    await screen(page, 'notifications-desktop');

    // Stored: a reload reads the same sentences back, and the API has the policy.
    await page.reload();
    await expect(sentence(page, 'When a booking is confirmed, the attendee and the external guest get “Booking confirmed”.')).toBeVisible();
    await expect(page.getByLabel('SMS sender')).toHaveValue('Punctual');
    const s = await settings(page.request);
    expect(s.policy.booking_confirmed).toEqual({ attendee: true, external: true, host: false, template: 'booking-confirmed' });
    expect(s.policy.event_cancelled.host).toBe(true);
    expect(s.smsSender).toBe('Punctual');

    // A bad sender is refused naming the field, and nothing is written.
    await page.getByLabel('SMS sender').fill('Punctual Studio');
    await page.getByRole('button', { name: 'Save notification settings' }).click();
    await expect(page.locator('.form-error')).toHaveText(/^SMS sender: a sender name may only contain letters A–Z and digits \(it contains a space\)/);
    expect((await settings(page.request)).version).toBe(s.version);

    await page.setViewportSize({ width: 375, height: 812 });
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'A booking is confirmed: notify the attendee' })).toBeChecked();
    await noWiderThan(page, 375);
    await screen(page, 'notifications-375');

    // Staff read the same settings: sentences, no checkboxes, no secret, no save button.
    const staff = await contextAs('staff');
    try {
      const sp = await staff.newPage();
      await keepTimelinesOpen(sp);
      await sp.goto('/notifications');
      await expect(sp.getByText('only an admin can change them')).toBeVisible();
      await expect(sentence(sp, 'When a booking is confirmed, the attendee and the external guest get “Booking confirmed”.')).toBeVisible();
      await expect(sp.getByRole('checkbox')).toHaveCount(0);
      await expect(sp.getByRole('button', { name: 'Save notification settings' })).toHaveCount(0);
      const put = await sp.request.put('/api/notification-settings', { headers: sameOrigin(), data: { policy: emptyPolicy, webhookEnabled: false, version: s.version } });
      expect(put.status()).toBe(403);
      expect(Object.keys(await settings(sp.request))).not.toContain('webhookSecret');
      await screen(sp, 'notifications-viewer');
    } finally {
      await staff.close();
    }
  } finally {
    await resetSettings((await ctx.newPage()).request);
    await ctx.close();
  }
});

test('a second tab’s stale save gets the conflict panel, writes nothing, and can apply its change on top', async ({ browser, contextAs }) => {
  const a = await contextAs('admin');
  const b = await contextAs('admin');
  try {
    const pageA = await a.newPage();
    await keepTimelinesOpen(pageA);
    const pageB = await b.newPage();
    await keepTimelinesOpen(pageB);
    const start = await resetSettings(pageA.request);
    await pageA.goto('/notifications');
    await pageB.goto('/notifications');

    // Tab B: hosts hear about reschedules. Saved.
    await pageB.getByRole('checkbox', { name: 'An event is rescheduled: notify the host' }).check();
    await pageB.getByRole('button', { name: 'Save notification settings' }).click();
    await expect(pageB.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    const afterB = await settings(pageA.request);
    expect(afterB.version).toBe(start.version + 1);

    // Tab A, opened before: attendees hear about cancelled bookings. Stale.
    await pageA.getByRole('checkbox', { name: 'A booking is cancelled: notify the attendee' }).check();
    await pageA.getByRole('button', { name: 'Save notification settings' }).click();
    const panel = pageA.getByTestId('conflict-panel');
    await expect(panel).toBeVisible();
    await expect(panel).toContainText(/The notification setup was changed by Ada Admin at .+ since you opened it\./);
    await expect(panel.locator('.conflict-changes li')).toHaveText(['An event is rescheduled — host: not notified → notified']);
    expect(await settings(pageA.request)).toEqual(afterB);
    await expect(pageA.getByRole('checkbox', { name: 'A booking is cancelled: notify the attendee' })).toBeChecked();
    await screen(pageA, 'notifications-conflict');

    await panel.getByRole('button', { name: 'Apply my changes to the latest version' }).click();
    await expect(pageA.getByRole('checkbox', { name: 'An event is rescheduled: notify the host' })).toBeChecked();
    await pageA.getByRole('button', { name: 'Save notification settings' }).click();
    await expect(pageA.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    const both = await settings(pageA.request);
    expect(both.policy.event_rescheduled.host).toBe(true);
    expect(both.policy.booking_cancelled.attendee).toBe(true);
  } finally {
    await resetSettings((await a.newPage()).request);
    await a.close();
    await b.close();
  }
});

test('the webhook endpoint: secret made once and rotated; switched off by a 410, shown prominently, switched on again', async ({ browser, contextAs }) => {
  const ctx = await contextAs('admin');
  try {
    const page = await ctx.newPage();
    await keepTimelinesOpen(page);
    const start = await resetSettings(page.request);
    await page.goto('/notifications');
    // Nobody is notified (empty policy), so switching the endpoint on posts nothing during the test.
    await page.getByLabel('Endpoint URL').fill('https://hooks.example.test/punctual');
    await page.getByRole('switch', { name: 'Post notifications to this endpoint' }).check();
    await page.getByRole('button', { name: 'Save notification settings' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'A signing secret was made' })).toBeVisible();
    const secret = (await page.getByTestId('webhook-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog', { name: 'Make a new signing secret?' }).getByRole('button', { name: 'Rotate secret' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'A new signing secret was made' })).toBeVisible();
    const rotated = (await page.getByTestId('webhook-secret').textContent())!.trim();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);

    // The receiver answers 410 Gone: the worker switches the endpoint off (the same query it uses).
    const at = new Date();
    expect(await disableWebhook(handle.db, start.tenantId, `the receiver answered 410 on ${at.toISOString()}`, at, 'https://hooks.example.test/punctual')).toBe(true);
    await page.reload();
    const off = page.getByTestId('webhook-off');
    await expect(off).toContainText(/Switched off on \w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2} CES?T: the receiver answered 410 on /);
    await expect(page.getByRole('switch', { name: 'Post notifications to this endpoint' })).not.toBeChecked();
    await expectAccessible(page, 'webhook switched off');
    await screen(page, 'notifications-webhook-off');
    await page.setViewportSize({ width: 375, height: 812 });
    await noWiderThan(page, 375);
    await screen(page, 'notifications-webhook-off-375');
    await page.setViewportSize({ width: 1360, height: 900 });

    await off.getByRole('button', { name: 'Switch it on again' }).click();
    await expect(page.getByTestId('webhook-off')).toHaveCount(0);
    await expect(page.getByRole('switch', { name: 'Post notifications to this endpoint' })).toBeChecked();
    const s = await settings(page.request);
    expect(s).toMatchObject({ webhookEnabled: true, webhookUrl: 'https://hooks.example.test/punctual', webhookSecret: rotated });
  } finally {
    await resetSettings((await ctx.newPage()).request);
    await ctx.close();
  }
});

interface TimelineBooking {
  id: string;
  contact: { id: string; name: string; email: string } | null;
  reminders: { kind: string; channel: string; status: string; statusReason: string | null }[];
}
async function bookingOf(page: Page, eventId: string, bookingId: string): Promise<TimelineBooking> {
  const res = await page.request.get(`/api/events/${eventId}/timeline`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { bookings: TimelineBooking[] }).bookings.find((b) => b.id === bookingId)!;
}

test('staff edit a participant’s preferences on the event page; the reminders follow', async ({ browser, contextAs }) => {
  const ctx = await contextAs('staff');
  try {
    const page = await ctx.newPage();
    await keepTimelinesOpen(page);
    const eventId = await createEventViaApi(page, unique('Glazing class'));
    const name = 'Noor Preferences';
    const bookingId = await bookViaApi(page, eventId, { name, email: `${unique('noor')}@example.test` });
    const before = await bookingOf(page, eventId, bookingId);
    const emailRules = before.reminders.filter((r) => r.kind === 'rule' && r.status === 'scheduled');
    expect(emailRules.length).toBeGreaterThan(0);
    expect(emailRules.every((r) => r.channel === 'email')).toBe(true);

    await page.goto(`/events/${eventId}`);
    await page.getByRole('button', { name: `Preferences — ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Preferences of ${name}` });
    await expect(dialog.getByTestId('preference-sentences')).toContainText('Reminders by email.');
    await expect(dialog.getByTestId('quiet-zone')).toHaveText(
      "Times in Europe/Amsterdam, the organisation's time zone (the participant's own is not known). Leave both empty for none.",
    );
    await dialog.getByLabel('Mobile number').fill('+31 6 12345678');
    await dialog.getByRole('checkbox', { name: 'Reminders by SMS' }).check();
    await dialog.getByRole('checkbox', { name: 'Reminders by Email' }).uncheck();
    await dialog.getByLabel('From').fill('21:00');
    await dialog.getByLabel('To').fill('08:00');
    await expect(dialog.getByTestId('preference-sentences').locator('li')).toHaveText([
      'Reminders by SMS.',
      'Booking updates by email.',
      'Announcements by email.',
      'Quiet hours 21:00–08:00 (Europe/Amsterdam) — reminders, booking updates and announcements due then wait until they end, if they can (event cancellations do not wait).',
    ]);
    await dialog.getByRole('button', { name: 'Save preferences' }).click();
    await expect(dialog.getByRole('status')).toHaveText(
      /^Saved\. \d+ reminders? newly planned\. Messages on a channel they no longer take stop when they fall due\.$/,
    );
    await expect(dialog.getByLabel('Mobile number')).toHaveValue('+31612345678');
    await expectAccessible(page, 'preferences dialog');
    await screen(page, 'preferences-dialog');
    await page.setViewportSize({ width: 375, height: 812 });
    await noWiderThan(page, 375);
    await screen(page, 'preferences-dialog-375');
    await page.setViewportSize({ width: 1360, height: 900 });

    const after = await bookingOf(page, eventId, bookingId);
    const email = after.reminders.filter((r) => r.kind === 'rule' && r.channel === 'email');
    const sms = after.reminders.filter((r) => r.kind === 'rule' && r.channel === 'sms');
    // Nothing is ended by the save: the email reminders stop when due (ticking email again before then keeps them).
    expect(email.map((r) => r.status)).toEqual(emailRules.map(() => 'scheduled'));
    expect(sms.length).toBe(emailRules.length);
    expect(sms.every((r) => r.status === 'scheduled')).toBe(true);

    // A bad number is refused naming the field; nothing is written.
    await dialog.getByLabel('Mobile number').fill('call me');
    await dialog.getByRole('button', { name: 'Save preferences' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(/^Mobile number: "call me" contains letters/);
    await dialog.getByRole('button', { name: 'Close' }).click();
  } finally {
    await ctx.close();
  }
});

test('after a one-click unsubscribe staff see who unsubscribed and when, and cannot re-subscribe them silently: only with “They asked us to send these again”, which the audit records', async ({ browser, contextAs, tenant }) => {
  const ctx = await contextAs('staff');
  try {
    const page = await ctx.newPage();
    await keepTimelinesOpen(page);
    const eventId = await createEventViaApi(page, unique('Raku firing'));
    const name = 'Una Unsubscribed';
    const bookingId = await bookViaApi(page, eventId, { name, email: `${unique('una')}@example.test` });
    const contactId = (await bookingOf(page, eventId, bookingId)).contact!.id;

    // She clicks "Unsubscribe from booking updates" in a message (a mail provider's one-click POST).
    const key = unsubscribeSecrets({ BETTER_AUTH_SECRET: authSecret(path.resolve(root, process.env.PUNCTUAL_DATA_DIR ?? '.data')) })[0];
    const token = await signUnsubscribeToken({ tenantId: demoTenantId, contactId, category: 'booking_updates', expiresAt: unsubscribeExpiry(new Date()) }, key);
    const oneClick = await page.request.post(`/u/${token}`, { form: { 'List-Unsubscribe': 'One-Click' }, maxRedirects: 0 });
    expect(oneClick.status(), await oneClick.text()).toBe(200);

    // The staff API says so.
    const UNSUB_SENTENCE = /^Unsubscribed from booking updates by the recipient on \w{3} \d{1,2} \w{3} \d{4} \(one-click link\)\.$/;
    const view = (await (await page.request.get(`/api/contacts/${contactId}/preferences`)).json()) as { unsubscribed: Record<string, string>; sentences: string[]; version: number };
    expect(Object.keys(view.unsubscribed)).toEqual(['booking_updates']);
    expect(view.sentences.filter((x) => UNSUB_SENTENCE.test(x))).toHaveLength(1);
    // A staff PUT that ticks booking updates again is refused, naming the category; nothing is written.
    const put = await page.request.put(`/api/contacts/${contactId}/preferences`, {
      headers: sameOrigin(),
      data: { preferences: { reminders: ['email'], booking_updates: ['email', 'sms'] }, quietHours: null, version: view.version },
    });
    expect(put.status()).toBe(409);
    const refusal = (await put.json()) as { error: string; field: string };
    expect(refusal.field).toBe('preferences.booking_updates');
    expect(refusal.error).toContain(`${name} unsubscribed from booking updates on `);
    expect(refusal.error).toContain('Only they can subscribe again (with the preferences link in their messages)');
    expect(((await (await page.request.get(`/api/contacts/${contactId}/preferences`)).json()) as { version: number }).version).toBe(view.version);

    // The dialog reads it back, and ticking booking updates again asks whether she asked for it.
    await page.goto(`/events/${eventId}`);
    await page.getByRole('button', { name: `Preferences — ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Preferences of ${name}` });
    const sentences = dialog.getByTestId('preference-sentences').locator('li');
    await expect(sentences.nth(1)).toHaveText('No booking updates (except essential ones such as event cancellations).');
    await expect(sentences.nth(2)).toHaveText(UNSUB_SENTENCE);
    await expect(dialog.getByTestId('resubscribe-consent')).toHaveCount(0);
    await dialog.getByRole('checkbox', { name: 'Booking updates by Email' }).check();
    const consent = dialog.getByTestId('resubscribe-consent');
    await expect(consent).toContainText(`${name} unsubscribed from booking updates on `);
    await expect(consent).toContainText('Only they can subscribe again, with the preferences link in their messages — unless they asked you to.');
    await expect(dialog.getByText(UNSUB_SENTENCE)).toHaveCount(0);
    // Saved without the box: the server's refusal beside the form; nothing written.
    await dialog.getByRole('button', { name: 'Save preferences' }).click();
    await expect(dialog.getByRole('alert')).toContainText(`Booking updates: ${name} unsubscribed from booking updates on `);
    await expect(dialog.getByRole('alert')).toContainText('Only they can subscribe again');
    await expectAccessible(page, 'preferences dialog, re-subscribe refused');
    await screen(page, 'preferences-dialog-unsubscribed');
    await page.setViewportSize({ width: 375, height: 812 });
    await noWiderThan(page, 375);
    await consent.scrollIntoViewIfNeeded();
    await screen(page, 'preferences-dialog-unsubscribed-375');
    await page.setViewportSize({ width: 1360, height: 900 });
    expect(((await (await page.request.get(`/api/contacts/${contactId}/preferences`)).json()) as { version: number }).version).toBe(view.version);

    // She asked us to: with the box ticked the save goes through, the marker is gone and the audit says why.
    await consent.getByRole('checkbox', { name: 'They asked us to send these again' }).check();
    await dialog.getByRole('button', { name: 'Save preferences' }).click();
    await expect(dialog.getByRole('status')).toHaveText(/^Saved\./);
    await expect(dialog.getByTestId('resubscribe-consent')).toHaveCount(0);
    await expect(sentences.nth(1)).toHaveText('Booking updates by email.');
    const after = (await (await page.request.get(`/api/contacts/${contactId}/preferences`)).json()) as { unsubscribed: Record<string, string>; preferences: unknown };
    expect(after).toMatchObject({ unsubscribed: {}, preferences: { booking_updates: ['email'] } });
    const [entry] = await handle.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, demoTenantId), eq(auditLog.action, 'preferences_update'), sql`${auditLog.details}->>'contactId' = ${contactId}`));
    expect(entry.reason).toMatch(new RegExp(`^Re-subscribed to booking updates at the recipient’s request, confirmed by ${reEscape(tenant.accounts.staff)} \\(they had unsubscribed with the one-click link on \\d{4}-`));
    expect(entry.details).toMatchObject({ recipientConsent: { confirmedBy: tenant.accounts.staff, overrides: { booking_updates: view.unsubscribed.booking_updates } } });
    await dialog.getByRole('button', { name: 'Close' }).click();
  } finally {
    await ctx.close();
  }
});

test('the person’s own page speaks their language: a Dutch participant (nl-BE) reads and saves in Dutch, at 375 px', async ({ browser, contextAs }) => {
  const staffCtx = await contextAs('staff');
  const person = await browser.newContext({ viewport: { width: 375, height: 812 } });
  try {
    const staff = await staffCtx.newPage();
    const eventId = await createEventViaApi(staff, unique('Boetseren'));
    const bookingId = await bookViaApi(staff, eventId, { name: 'Daan de Vries', email: `${unique('daan')}@example.test`, locale: 'nl-BE' } as never);
    const contactId = (await bookingOf(staff, eventId, bookingId)).contact!.id;
    const key = preferencesSecret({ BETTER_AUTH_SECRET: authSecret(path.resolve(root, process.env.PUNCTUAL_DATA_DIR ?? '.data')) });
    const token = await signPreferenceToken({ tenantId: demoTenantId, contactId }, key);

    const page = await person.newPage();
    await page.goto(`/preferences/${token}`);
    await expect(page).toHaveTitle(/Jouw berichtvoorkeuren/);
    await expect(page.getByRole('heading', { name: 'Jouw berichtvoorkeuren' })).toBeVisible();
    await expect(page.locator('main')).toHaveAttribute('lang', 'nl-BE');
    await expect(page.getByText(/^Daan de Vries, kies hoe .+ je bereikt over je boekingen\./)).toBeVisible();
    await expect(page.getByTestId('phone-on-file')).toContainText('We hebben geen mobiel nummer van je');
    const reminders = page.getByRole('group', { name: 'Herinneringen vóór je activiteiten' });
    await reminders.getByLabel('Sms').check();
    await expect(page.getByTestId('preference-sentences').locator('li')).toHaveText([
      'Herinneringen per e-mail en sms.',
      'Updates over je boekingen per e-mail.',
      'Mededelingen per e-mail.',
      'Geen rustige uren.',
      'Er staat geen mobiel nummer van je genoteerd, dus er gaat niets per sms.',
    ]);
    // Only one of two quiet-hour times: refused on the page, in Dutch, naming what to check.
    await page.getByLabel('Van').fill('22:00');
    await page.getByRole('button', { name: 'Voorkeuren opslaan' }).click();
    await expect(page.locator('.form-error')).toHaveText('Dat is niet opgeslagen: controleer het einde van je rustige uren (UU:MM) en probeer het opnieuw.');
    await page.getByLabel('Tot').fill('07:00');
    await page.getByRole('button', { name: 'Voorkeuren opslaan' }).click();
    await expect(page.getByRole('status')).toHaveText('Opgeslagen. Je voorkeuren gelden vanaf nu.');
    await noWiderThan(page, 375);
    // No English sentence left on the page.
    await expect(page.locator('main')).not.toContainText(/Save my preferences|Your message preferences|Quiet hours|In short|reaches you/);
    await screen(page, 'preferences-public-nl-375');
    const saved = (await (await staff.request.get(`/api/contacts/${contactId}/preferences`)).json()) as { preferences: unknown; quietHours: unknown };
    expect(saved).toMatchObject({ preferences: { reminders: ['email', 'sms'] }, quietHours: { start: '22:00', end: '07:00' } });
  } finally {
    await person.close();
  }
});

test('the person’s own page through a signed link, at 375 px and without signing in; a stale save says so', async ({ browser, contextAs, tenant }) => {
  const staffCtx = await contextAs('staff');
  const person = await browser.newContext({ viewport: { width: 375, height: 812 } });
  try {
    const staff = await staffCtx.newPage();
    await keepTimelinesOpen(staff);
    const eventId = await createEventViaApi(staff, unique('Life drawing'));
    const bookingId = await bookViaApi(staff, eventId, { name: 'Ines Link', email: `${unique('ines')}@example.test`, phone: '+31 6 12345678' } as never);
    const contactId = (await bookingOf(staff, eventId, bookingId)).contact!.id;
    const tenantId = demoTenantId;

    // Signed here with the key the server derives from its session secret (scripts/lib.ts authSecret).
    const key = preferencesSecret({ BETTER_AUTH_SECRET: authSecret(path.resolve(root, process.env.PUNCTUAL_DATA_DIR ?? '.data')) });
    const token = await signPreferenceToken({ tenantId, contactId }, key);
    expect(token).toContain('.');

    const page = await person.newPage();

    await keepTimelinesOpen(page);
    await page.goto(`/preferences/${token}`);
    await expect(page.getByRole('heading', { name: 'Your message preferences' })).toBeVisible();
    await expect(page.getByText(`Ines Link, choose how ${tenant.name} reaches you`)).toBeVisible();
    await expect(page.getByTestId('phone-on-file')).toHaveText('Text messages go to the number we have for you: +31••••••678.');
    await expect(page.getByText('+31612345678')).toHaveCount(0);
    const reminders = page.getByRole('group', { name: 'Reminders before your events' });
    const updates = page.getByRole('group', { name: 'Updates about your bookings' });
    await reminders.getByLabel('Text message (SMS)').check();
    await updates.getByLabel('Email').uncheck();
    await page.getByLabel('From').fill('22:00');
    await page.getByLabel('To').fill('07:30');
    await expect(page.getByTestId('preference-sentences').locator('li')).toHaveText([
      'Reminders by SMS and email.',
      'No booking updates (except essential ones such as event cancellations).',
      'Announcements by email.',
      'Quiet hours 22:00–07:30 (Europe/Amsterdam) — reminders, booking updates and announcements due then wait until they end, if they can (event cancellations do not wait).',
    ]);
    await page.getByRole('button', { name: 'Save my preferences' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved. Your preferences apply from now on.');
    await noWiderThan(page, 375);
    // Every box's legend is a title inside the box, below its top border: a legend drawn on the border runs
    // over that line when it wraps (as "Reminders before your events" did at 375 px).
    for (const legend of await page.locator('fieldset.prefs-category > legend').all()) {
      const at = await legend.evaluate((el) => {
        const box = el.parentElement!;
        return { legend: el.getBoundingClientRect().top, border: box.getBoundingClientRect().top + parseFloat(getComputedStyle(box).borderTopWidth) };
      });
      expect(at.legend, `legend “${await legend.textContent()}” below the box's top border`).toBeGreaterThanOrEqual(at.border);
    }
    await expectAccessible(page, 'preferences page');
    await screen(page, 'preferences-public-375');

    // Staff see what the person chose, and the audit names the participant.
    const saved = await staff.request.get(`/api/contacts/${contactId}/preferences`);
    const view = (await saved.json()) as { preferences: unknown; quietHours: unknown; version: number };
    expect(view).toMatchObject({ preferences: { reminders: ['email', 'sms'], booking_updates: [] }, quietHours: { start: '22:00', end: '07:30' } });

    // Staff change the preferences meanwhile; the person's open page is now stale.
    const put = await staff.request.put(`/api/contacts/${contactId}/preferences`, {
      headers: sameOrigin(),
      data: { preferences: { reminders: ['email'], booking_updates: ['email'] }, quietHours: null, version: view.version },
    });
    expect(put.status(), await put.text()).toBe(200);
    await reminders.getByLabel('Email').uncheck();
    await page.getByRole('button', { name: 'Save my preferences' }).click();
    await expect(page.getByTestId('stale-message')).toHaveText('These preferences were changed since you opened this page — here is what they are now.');
    await expect(reminders.getByLabel('Email')).toBeChecked();
    await expect(reminders.getByLabel('Text message (SMS)')).not.toBeChecked();
    await expect(page.getByLabel('From')).toHaveValue('');
    const still = (await (await staff.request.get(`/api/contacts/${contactId}/preferences`)).json()) as { preferences: unknown };
    expect(still.preferences).toEqual({ reminders: ['email'], booking_updates: ['email'], announcements: ['email'] });
    await screen(page, 'preferences-public-stale-375');

    // Without script the same form posts plainly and comes back to the page.
    const plain = await page.request.post(`/api/preferences/${token}`, {
      headers: sameOrigin(),
      form: { reminders: 'email', booking_updates: 'email', quietStart: '', quietEnd: '', version: String((await (await staff.request.get(`/api/contacts/${contactId}/preferences`)).json()).version) },
      maxRedirects: 0,
    });
    expect(plain.status()).toBe(303);
    expect(plain.headers().location).toBe(`/preferences/${token}?saved=1`);
    // A cross-site post is refused.
    const cross = await page.request.post(`/api/preferences/${token}`, { headers: { origin: 'https://evil.example' }, data: { preferences: {}, quietHours: null, version: 1 } });
    expect(cross.status()).toBe(403);

    // A link that is not one of ours: a plain "not found", no sign-in page, no staff links.
    const bad = await page.goto(`/preferences/${token.slice(0, -4)}AAAA`);
    expect(bad?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'This link does not work' })).toBeVisible();
    await expect(page.getByRole('link')).toHaveCount(0);
    await screen(page, 'preferences-link-invalid');
  } finally {
    await person.close();
    await staffCtx.close();
  }
});
