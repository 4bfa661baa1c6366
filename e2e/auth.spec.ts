/**
 * Sign-in and roles: the sign-in form (wrong password refused plainly), each role lands signed in with its
 * role shown; a viewer sees no operator controls and the server refuses the same requests forged by hand;
 * cross-site and signed-out requests are refused; sign-in limits (issue #12): wrong passwords from one address end
 * in a readable 429, spoofed X-Forwarded-For entries do not spread them, and the owner elsewhere still signs in.
 */
import { bookViaApi, createEventViaApi, expect, expectAccessible, sameOrigin, screen, test, unique } from './support';

test.describe('signed out', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('pages redirect to sign-in, APIs answer 401, a wrong password is refused, the right one signs in', async ({ page, tenant }) => {
    await page.goto('/events');
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fevents$/);
    expect((await page.request.get('/api/events/00000000-0000-0000-0000-000000000000/timeline')).status()).toBe(401);
    await expectAccessible(page, 'sign-in');
    await screen(page, 'sign-in');
    await page.getByLabel('Email').fill(tenant.accounts.viewer);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('.form-error')).toHaveText('Email or password is wrong.');
    await page.getByLabel('Password').fill(tenant.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/events$/);
    await expect(page.getByTestId('current-role')).toHaveText('viewer');
    // The session cookie is httpOnly: page scripts cannot read it.
    expect(await page.evaluate(() => document.cookie)).not.toContain('session_token');
    const cookie = (await page.context().cookies()).find((c) => c.name.endsWith('session_token'));
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto('/events');
    await expect(page).toHaveURL(/\/sign-in/);
  });

  test("before the page's script runs, the password forms cannot be sent natively (no password in an address)", async ({ browser }) => {
    const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: { cookies: [], origins: [] } });
    try {
      const page = await noScript.newPage();
      for (const [path, button] of [['/sign-in', 'Sign in'], ['/forgot-password', 'Email me a link']] as const) {
        await page.goto(path);
        await expect(page.getByRole('button', { name: button })).toBeDisabled();
        await expect(page.locator('form')).toHaveAttribute('method', 'post');
      }
      await page.goto('/sign-in');
      await page.getByLabel('Email').fill('someone@example.test');
      await page.getByLabel('Password').fill('a-secret-password');
      await page.getByLabel('Password').press('Enter');
      expect(page.url()).not.toContain('a-secret-password');
    } finally {
      await noScript.close();
    }
  });
});

test.describe('sign-in limits', () => {
  // The test runner plays the reverse proxy: playwright.config.ts starts the app with PUNCTUAL_TRUSTED_PROXIES=127.0.0.1,
  // so each request names its client in X-Forwarded-For, and only the rightmost entry (the one "our proxy" appended) counts.
  test.use({ storageState: { cookies: [], origins: [] } });

  test('wrong passwords from one address stop at a readable 429 whatever the spoofed entries say; the owner elsewhere still signs in', async ({ page, playwright, browser, tenant }) => {
    const baseURL = test.info().project.use.baseURL;
    const api = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await api.post('/api/auth/sign-in/email', { headers: { 'x-forwarded-for': `10.9.${i}.1, 203.0.113.21` }, data: { email: tenant.accounts.viewer, password: `wrong-${i}-password` } });
      statuses.push(r.status());
    }
    expect(statuses).toEqual(Array(10).fill(401));
    await api.dispose();

    // The 11th guess, in the sign-in form, from the same address: refused before any password is compared, in words.
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.21' });
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(tenant.accounts.viewer);
    await page.getByLabel('Password').fill(tenant.password);
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/auth/sign-in/email'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    const refused = await answer;
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(120);
    await expect(page.locator('.form-error')).toHaveText('Too many wrong passwords for this account from your network. Try again in 3 minutes.');
    await screen(page, 'sign-in-429');
    await page.setViewportSize({ width: 375, height: 812 });
    await expect(page.locator('.form-error')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screen(page, 'sign-in-429-375');

    // The owner, from their own address: not locked out by someone else's guesses.
    const owner = await browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.22' } });
    const o = await owner.newPage();
    await o.goto('/sign-in');
    await o.getByLabel('Email').fill(tenant.accounts.viewer);
    await o.getByLabel('Password').fill(tenant.password);
    await o.getByRole('button', { name: 'Sign in' }).click();
    await expect(o).not.toHaveURL(/sign-in/);
    await expect(o.getByTestId('current-role')).toHaveText('viewer');
    await owner.close();
  });
});

test('viewer: no nudge, cancel, replay or create controls, and the server refuses forged requests', async ({ browser, page, contextAs }) => {
  // Staff prepares an event with one participant.
  const eventId = await createEventViaApi(page, unique('Viewer check'));
  const bookingId = await bookViaApi(page, eventId, { name: 'Val Viewercheck', email: `${unique('val')}@example.test` });

  const viewer = await contextAs('viewer');
  const v = await viewer.newPage();
  await v.goto(`/events/${eventId}`);
  await expect(v.getByTestId('current-role')).toHaveText('viewer');
  await expect(v.locator(`[data-booking-id="${bookingId}"]`)).toBeVisible();
  await expect(v.getByRole('button', { name: /Remind now/ })).toHaveCount(0);
  await expect(v.getByRole('button', { name: /Cancel booking/ })).toHaveCount(0);
  await expect(v.getByRole('button', { name: 'Cancel event' })).toHaveCount(0);
  await expect(v.getByRole('heading', { name: 'Add a participant' })).toHaveCount(0);
  await screen(v, 'event-as-viewer');
  await v.goto('/attention');
  await expect(v.getByRole('button', { name: /Replay/ })).toHaveCount(0);

  const origin = sameOrigin();
  const nudge = await v.request.post(`/api/bookings/${bookingId}/nudge`, { headers: origin, data: { template: 'attendee-reminder', idempotencyKey: unique('forged') } });
  expect(nudge.status()).toBe(403);
  expect(((await nudge.json()) as { error: string }).error).toContain('read-only');
  expect((await v.request.post('/api/deliveries/00000000-0000-0000-0000-000000000000/replay', { headers: origin, data: {} })).status()).toBe(403);
  expect((await v.request.post('/api/deliveries/replay', { headers: origin, data: { ids: ['00000000-0000-0000-0000-000000000000'] } })).status()).toBe(403);
  expect((await v.request.post(`/api/bookings/${bookingId}/cancel`, { headers: origin, data: { reason: 'forged by a viewer' } })).status()).toBe(403);
  expect((await v.request.post('/api/events', { headers: origin, data: { title: 'x', timeZone: 'UTC', start: '2030-01-01T10:00', end: '2030-01-01T11:00' } })).status()).toBe(403);
  // Nothing changed: the participant is still booked, with no nudge.
  const timeline = (await (await page.request.get(`/api/events/${eventId}/timeline`)).json()) as { bookings: { id: string; status: string; reminders: { kind: string }[] }[] };
  const b = timeline.bookings.find((x) => x.id === bookingId)!;
  expect(b.status).toBe('confirmed');
  expect(b.reminders.filter((r) => r.kind === 'nudge')).toHaveLength(0);
  await viewer.close();
});

test('staff: a cross-site request (foreign Origin) and a request without Origin are refused, with nothing stored', async ({ page, tenant }) => {
  const eventId = await createEventViaApi(page, unique('CSRF check'));
  const bookingId = await bookViaApi(page, eventId, { name: 'Cy Csrf', email: `${unique('cy')}@example.test` });
  const evil = await page.request.post(`/api/bookings/${bookingId}/cancel`, { headers: { origin: 'http://evil.example' }, data: { reason: 'cross-site forgery' } });
  expect(evil.status()).toBe(403);
  expect(((await evil.json()) as { error: string }).error).toContain('cross-site');
  expect((await page.request.post(`/api/bookings/${bookingId}/cancel`, { data: { reason: 'no origin at all' } })).status()).toBe(403);
  const signIn = await page.request.post('/api/auth/sign-in/email', { headers: { origin: 'http://evil.example' }, data: { email: tenant.accounts.staff, password: tenant.password } });
  expect(signIn.status()).toBe(403);
  const timeline = (await (await page.request.get(`/api/events/${eventId}/timeline`)).json()) as { bookings: { id: string; status: string }[] };
  expect(timeline.bookings.find((x) => x.id === bookingId)?.status).toBe('confirmed');
});

test('bad input answers 400 naming the field and stores nothing', async ({ page }) => {
  const title = unique('Bad input');
  const r1 = await page.request.post('/api/events', { headers: sameOrigin(), data: { title, timeZone: 'Mars/Olympus', start: '2030-01-01T10:00', end: '2030-01-01T11:00' } });
  expect(r1.status()).toBe(400);
  expect(await r1.json()).toMatchObject({ field: 'timeZone' });
  const r2 = await page.request.post('/api/events', { headers: sameOrigin(), data: { title, timeZone: 'UTC', start: '2030-01-01T10:00', end: '2029-01-01T11:00' } });
  expect(await r2.json()).toMatchObject({ field: 'end' });
  const r3 = await page.request.post('/api/events', { headers: { ...sameOrigin(), 'content-type': 'application/json' }, data: Buffer.from('{not json') });
  expect(r3.status()).toBe(400);
  expect(await r3.json()).toMatchObject({ field: 'body' });
  await page.goto(`/events?q=${encodeURIComponent(title)}`);
  await expect(page.locator('body')).not.toContainText(title);
});
