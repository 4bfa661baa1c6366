/**
 * Sign-in and roles: the sign-in form (wrong password refused plainly), each role lands signed in with its
 * role shown; a viewer sees no operator controls and the server refuses the same requests forged by hand;
 * cross-site and signed-out requests are refused.
 */
import { expect, test } from '@playwright/test';
import { ACCOUNTS, authFile, bookViaApi, createEventViaApi, expectAccessible, sameOrigin, screen, unique } from './support';

test.describe('signed out', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('pages redirect to sign-in, APIs answer 401, a wrong password is refused, the right one signs in', async ({ page }) => {
    await page.goto('/events');
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fevents$/);
    expect((await page.request.get('/api/events/00000000-0000-0000-0000-000000000000/timeline')).status()).toBe(401);
    await expectAccessible(page, 'sign-in');
    await screen(page, 'sign-in');
    await page.getByLabel('Email').fill(ACCOUNTS.viewer);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('.form-error')).toHaveText('Email or password is wrong.');
    await page.getByLabel('Password').fill('punctual-demo');
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
});

test('sign-in attempts are limited per account, whatever X-Forwarded-For claims', async ({ playwright }) => {
  // No session: the test's default storageState would add a cookie, and then better-auth demands an Origin.
  const api = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL, storageState: { cookies: [], origins: [] } });
  const email = `${unique('nobody')}@demo.punctual.local`;
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) {
    const r = await api.post('/api/auth/sign-in/email', { headers: { 'x-forwarded-for': `10.9.${i}.1` }, data: { email, password: `wrong-${i}` } });
    statuses.push(r.status());
  }
  expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
  await api.dispose();
});

test('viewer: no nudge, cancel, replay or create controls, and the server refuses forged requests', async ({ browser, page }) => {
  // Staff prepares an event with one participant.
  const eventId = await createEventViaApi(page, unique('Viewer check'));
  const bookingId = await bookViaApi(page, eventId, { name: 'Val Viewercheck', email: `${unique('val')}@example.test` });

  const viewer = await browser.newContext({ storageState: authFile('viewer') });
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

test('staff: a cross-site request (foreign Origin) and a request without Origin are refused, with nothing stored', async ({ page }) => {
  const eventId = await createEventViaApi(page, unique('CSRF check'));
  const bookingId = await bookViaApi(page, eventId, { name: 'Cy Csrf', email: `${unique('cy')}@example.test` });
  const evil = await page.request.post(`/api/bookings/${bookingId}/cancel`, { headers: { origin: 'http://evil.example' }, data: { reason: 'cross-site forgery' } });
  expect(evil.status()).toBe(403);
  expect(((await evil.json()) as { error: string }).error).toContain('cross-site');
  expect((await page.request.post(`/api/bookings/${bookingId}/cancel`, { data: { reason: 'no origin at all' } })).status()).toBe(403);
  const signIn = await page.request.post('/api/auth/sign-in/email', { headers: { origin: 'http://evil.example' }, data: { email: ACCOUNTS.staff, password: 'punctual-demo' } });
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
