/**
 * Issue #12, HTTP hardening as a browser and a forging client see it:
 * - `next` after sign-in never leaves the app (`/%5Cevil.example/x`, `/%09/evil.example/x`): signed out through
 *   the form, signed in through the server's 307;
 * - every response carries the security headers (a page, API routes, a 404, a static file, a token page), another
 *   origin cannot frame /attention, and no page logs a CSP violation (scripts run: the pages work);
 * - the Origin check ignores a forged X-Forwarded-Host (staff routes and better-auth);
 * - unknown delivery actions are 404; bodies too large are 413, too deep 400, a 1 MB address 400 naming it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Page, type Response } from '@playwright/test';
import { bookViaApi, createEventViaApi, expect, sameOrigin, screen, test, unique } from './support';

const base = () => String(test.info().project.use.baseURL);
const EVIL = ['/%5Cevil.example/x', '/%09/evil.example/x'] as const;

/** Collects CSP violations reported on `page` (console errors and securitypolicyviolation events). */
function watchCsp(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to (execute|load|apply|frame|connect)/i.test(m.text())) seen.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => {
    if (/Content Security Policy/i.test(e.message)) seen.push(`${page.url()}: ${e.message}`);
  });
  return seen;
}

test.describe('open redirect after sign-in', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  for (const next of EVIL) {
    test(`signed out, the form sends ${next} to the dashboard on this origin`, async ({ page, tenant }) => {
      const csp = watchCsp(page);
      await page.goto(`/sign-in?next=${next}`);
      await page.getByLabel('Email').fill(tenant.accounts.staff);
      await page.getByLabel('Password').fill(tenant.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByTestId('current-role')).toHaveText('staff');
      expect(new URL(page.url()).origin).toBe(new URL(base()).origin);
      expect(new URL(page.url()).pathname).toBe('/');

      // Signed in now: the server answers the same URL with a 307 to a path on this origin.
      const r = await page.request.get(`/sign-in?next=${next}`, { maxRedirects: 0 });
      expect(r.status()).toBe(307);
      const to = new URL(r.headers().location, base());
      expect(to.origin).toBe(new URL(base()).origin);
      expect(to.pathname).toBe('/');
      await page.goto(`/sign-in?next=${next}`);
      await expect(page.getByTestId('current-role')).toHaveText('staff');
      expect(new URL(page.url()).origin).toBe(new URL(base()).origin);
      expect(csp).toEqual([]);
    });
  }

  test('a local next is still followed', async ({ page, tenant }) => {
    await page.goto('/attention');
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fattention$/);
    await page.getByLabel('Email').fill(tenant.accounts.staff);
    await page.getByLabel('Password').fill(tenant.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${base()}/attention`);
  });
});

function expectSecurityHeaders(r: Response | import('@playwright/test').APIResponse, label: string, referrer = 'strict-origin-when-cross-origin') {
  const h = r.headers();
  expect(h['content-security-policy'], label).toContain("frame-ancestors 'none'");
  expect(h['x-content-type-options'], label).toBe('nosniff');
  expect(h['referrer-policy'], label).toBe(referrer);
  // Served over plain http here: no HSTS (it is set only when PUNCTUAL_PUBLIC_URL is https).
  expect(h['strict-transport-security'], label).toBeUndefined();
}

test('security headers on a page, API routes, a 404, a static file and a token page', async ({ page }) => {
  const doc = (await page.goto('/attention'))!;
  expectSecurityHeaders(doc, 'page');
  const csp = doc.headers()['content-security-policy'];
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  // Next put each response's own nonce on every script it rendered (the chunks those load are trusted through
  // 'strict-dynamic').
  const html = await page.request.get('/attention');
  const htmlNonce = /'nonce-([^']+)'/.exec(html.headers()['content-security-policy'])![1];
  expect(htmlNonce).not.toBe(/'nonce-([^']+)'/.exec(csp)![1]);
  const scripts = (await html.text()).match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((tag) => !tag.includes(`nonce="${htmlNonce}"`))).toEqual([]);

  expectSecurityHeaders(await page.request.get('/api/health'), 'public API route');
  const api = await page.request.get('/api/events/00000000-0000-4000-8000-000000000000/timeline');
  expect(api.status()).toBe(404);
  expectSecurityHeaders(api, 'staff API route (404)');
  const notFound = await page.request.get('/no-such-page-here');
  expect(notFound.status()).toBe(404);
  expectSecurityHeaders(notFound, '404 page');
  const unknownApi = await page.request.get('/api/no-such-route');
  expect(unknownApi.status()).toBe(404);
  expectSecurityHeaders(unknownApi, 'unknown API path');
  const asset = await page.evaluate(() => (document.querySelector('script[src^="/_next/static/"]') as HTMLScriptElement | null)?.getAttribute('src'));
  expect(asset).toBeTruthy();
  const staticFile = await page.request.get(asset!);
  expect(staticFile.status()).toBe(200);
  expectSecurityHeaders(staticFile, 'static file');
  const signedOut = await page.request.get('/attention', { maxRedirects: 0, headers: { cookie: '' } });
  expectSecurityHeaders(signedOut, 'redirect to sign-in');
  // A signed token in the URL is never sent on as a Referer.
  expectSecurityHeaders(await page.request.get('/preferences/not-a-token'), 'token page', 'no-referrer');
  expectSecurityHeaders(await page.request.get('/u/not-a-token'), 'unsubscribe page', 'no-referrer');
});

test('a page from another origin cannot frame /attention', async ({ page }) => {
  const target = `${base()}/attention`;
  // Another origin on this machine: a small server on another port. Its page frames /attention, next to a control
  // frame from a third origin (its own server under the name localhost) sent WITHOUT any headers, which must show.
  const other = http.createServer((req, res) => {
    if (req.url === '/control') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p id="ok">framed fine</p>');
    const port = (other.address() as AddressInfo).port;
    res.writeHead(200, { 'content-type': 'text/html' }).end(
      `<!doctype html><title>other</title><h1>Other site</h1><iframe name="control" src="http://localhost:${port}/control" width="300" height="80"></iframe><iframe name="target" src="${target}" width="800" height="500"></iframe>`,
    );
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  try {
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/frame-ancestors/.test(m.text())) refused.push(m.text());
    });
    const direct = await page.request.get(target, { maxRedirects: 0 });
    expect(direct.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(direct.headers()['x-frame-options']).toBe('DENY');
    await page.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
    await expect(page.getByRole('heading', { name: 'Other site' })).toBeVisible();
    await expect(page.frameLocator('iframe[name="control"]').locator('#ok')).toHaveText('framed fine');
    // The browser refused our page for its frame-ancestors: the frame holds Chrome's error page, nothing of the app.
    await expect.poll(() => refused.length, { message: 'Chrome reports the frame-ancestors refusal' }).toBeGreaterThan(0);
    expect(refused[0]).toContain("frame-ancestors 'none'");
    await expect.poll(() => page.frames().find((f) => f.name() === 'target')?.url()).toMatch(/^chrome-error:/);
    expect(await page.frameLocator('iframe[name="target"]').locator('[data-testid="current-role"], .signin, main').count()).toBe(0);
    await screen(page, 'framing-refused');
  } finally {
    other.close();
  }
});

test('no page logs a CSP violation (and their scripts run)', async ({ page }) => {
  const csp = watchCsp(page);
  const eventId = await createEventViaApi(page, unique('CSP check'));
  await bookViaApi(page, eventId, { name: 'Cee Esspee', email: `${unique('csp')}@example.test` });
  const paths = ['/', '/events', `/events/${eventId}`, `/events/${eventId}/edit`, '/events/new', '/attention', '/deliveries', '/notifications', '/mailbox', '/suppressions', '/rules', '/templates', '/audit', '/alerts', '/staff', '/no-such-page-here'];
  for (const p of paths) {
    await page.goto(p);
    await page.waitForLoadState('networkidle');
  }
  // A caught message (its HTML part in a sandboxed srcdoc frame).
  await page.goto('/mailbox');
  const first = page.locator('a[href^="/mailbox/"]').first();
  if (await first.count()) {
    await first.click();
    await page.waitForLoadState('networkidle');
  }
  // Client code ran: the event page's live timeline (TanStack Query) shows the participant.
  await page.goto(`/events/${eventId}`);
  await expect(page.getByText('Cee Esspee').first()).toBeVisible();
  expect(csp).toEqual([]);
});

test('the Origin check ignores a forged X-Forwarded-Host (staff routes and better-auth)', async ({ page }) => {
  const forged = { origin: 'http://evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };
  const data = { title: unique('Forged'), timeZone: 'UTC', allDay: false, start: '2030-01-01T10:00', end: '2030-01-01T11:00' };
  const refused = await page.request.post('/api/events', { headers: forged, data });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: string }).error).toContain('cross-site request refused');
  // The app's own origin is accepted, whatever X-Forwarded-Host claims.
  const accepted = await page.request.post('/api/events', { headers: { ...sameOrigin(), 'x-forwarded-host': 'evil.example' }, data });
  expect(accepted.status()).toBe(200);
  // better-auth's own Origin check (a harmless POST with the session cookie: update-session with nothing to update):
  // refused for the forged origin, handled — and refused for its empty body — for ours.
  const authForged = await page.request.post('/api/auth/update-session', { headers: forged, data: {} });
  expect(authForged.status()).toBe(403);
  const authOwn = await page.request.post('/api/auth/update-session', { headers: { ...sameOrigin(), 'x-forwarded-host': 'evil.example' }, data: {} });
  expect(authOwn.status()).toBe(400);
  expect(((await authOwn.json()) as { message: string }).message).toBe('No fields to update');
});

test('unknown delivery actions are 404 with a message', async ({ page }) => {
  for (const action of ['constructor', 'toString', '__proto__', 'valueOf', 'hasOwnProperty']) {
    const r = await page.request.post(`/api/deliveries/00000000-0000-4000-8000-000000000000/${action}`, { headers: sameOrigin(), data: {} });
    expect(r.status(), action).toBe(404);
    expect(((await r.json()) as { error: string }).error, action).toBe(`unknown action "${action}": one of replay, discard, mark-sent, send-again`);
  }
});

test('bodies: too large 413, too deep 400, a 1 MB address 400 naming it — never 500', async ({ page }) => {
  const post = (body: string) => page.request.post('/api/suppressions', { headers: { ...sameOrigin(), 'content-type': 'application/json' }, data: body });
  const deep = await post('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000));
  expect(deep.status()).toBe(400);
  expect(await deep.json()).toEqual({ error: 'body: nested deeper than 32 levels', field: 'body' });
  const megabyteAddress = await post(JSON.stringify({ address: `${'a'.repeat(1_000_000)}@example.test`, reason: 'manual' }));
  expect(megabyteAddress.status()).toBe(400);
  expect(((await megabyteAddress.json()) as { field: string }).field).toBe('address');
  const longAddress = await post(JSON.stringify({ address: `${'b'.repeat(400)}@example.test`, reason: 'manual' }));
  expect(longAddress.status()).toBe(400);
  expect(await longAddress.json()).toEqual({ error: 'address: at most 320 characters (an email address or a phone number)', field: 'address' });
  for (const mb of [2, 11]) {
    const big = await post(JSON.stringify({ address: 'x@example.test', reason: 'manual', note: 'n'.repeat(mb * 1_048_576) }));
    expect(big.status(), `${mb} MB`).toBe(413);
    expect(((await big.json()) as { error: string }).error).toBe('body: larger than 1048576 bytes (the limit of a request body)');
  }
});
