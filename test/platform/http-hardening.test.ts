/**
 * Issue #12 hardening at the route handlers themselves (called as Next calls them, with a real `Request`):
 * unknown delivery actions (names from Object.prototype included) are 404; every route that reads a body refuses
 * one that is too large (413) or too deep (400) before parsing it; the Origin check trusts only the configured
 * public origin, whatever Host / X-Forwarded-Host say; a suppression address is bounded before PostgreSQL sees it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSameOrigin } from '@/app/_http/session';
import { addSuppressionAction } from '@/server/scheduling/staff-actions';
import { createTenant } from '@/server/organisations/tenants';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';

const BASE = 'http://127.0.0.1:3000';
const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

/** Saves the named environment variables and restores them after the file. */
function keepEnv(...keys: string[]) {
  const saved = Object.fromEntries(keys.map((k) => [k, process.env[k]]));
  afterAll(() => {
    for (const k of keys) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });
}
keepEnv('PUNCTUAL_PUBLIC_URL', 'PORT', 'DATABASE_URL');

describe('POST /api/deliveries/:id/:action — unknown actions', () => {
  it.each(['constructor', 'toString', '__proto__', 'valueOf', 'hasOwnProperty'])('"%s" is 404 with a message (was 200 doing nothing, or 500)', async (action) => {
    const { POST } = await import('@/app/api/deliveries/[id]/[action]/route');
    const r = await POST(new Request(`${BASE}/api/deliveries/00000000-0000-4000-8000-000000000000/${action}`, { method: 'POST', body: '{}' }), {
      params: Promise.resolve({ id: '00000000-0000-4000-8000-000000000000', action }),
    });
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ error: `unknown action "${action}": one of replay, discard, mark-sent, send-again` });
  });

  it('a known action goes on to the usual checks (here: refused as cross-site, 403)', async () => {
    const { POST } = await import('@/app/api/deliveries/[id]/[action]/route');
    const r = await POST(new Request(`${BASE}/api/deliveries/x/replay`, { method: 'POST', headers: { origin: 'http://evil.example' }, body: '{}' }), {
      params: Promise.resolve({ id: 'x', action: 'replay' }),
    });
    expect(r.status).toBe(403);
  });
});

describe('the Origin check uses the configured public URL, not Host / X-Forwarded-Host', () => {
  const forged = (origin: string, extra: Record<string, string> = {}) => new Headers({ origin, host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http', ...extra });

  it('refuses Origin: http://evil.example with X-Forwarded-Host: evil.example (accepted before)', () => {
    delete process.env.PUNCTUAL_PUBLIC_URL;
    process.env.PORT = '3000';
    expect(isSameOrigin(forged('http://evil.example'))).toBe(false);
    process.env.PUNCTUAL_PUBLIC_URL = 'https://punctual.example.org';
    expect(isSameOrigin(forged('http://evil.example'))).toBe(false);
    expect(isSameOrigin(forged('https://evil.example', { 'x-forwarded-proto': 'https' }))).toBe(false);
  });

  it('accepts the configured origin whatever the forwarding headers say; unset, both local names on PORT', () => {
    process.env.PUNCTUAL_PUBLIC_URL = 'https://punctual.example.org/';
    expect(isSameOrigin(forged('https://punctual.example.org'))).toBe(true);
    expect(isSameOrigin(forged('http://punctual.example.org'))).toBe(false);
    delete process.env.PUNCTUAL_PUBLIC_URL;
    process.env.PORT = '3201';
    expect(isSameOrigin(forged('http://127.0.0.1:3201'))).toBe(true);
    expect(isSameOrigin(forged('http://localhost:3201'))).toBe(true);
    expect(isSameOrigin(forged('http://127.0.0.1:3000'))).toBe(false);
    // No Origin (or `null`, sent from a no-referrer page): only the browser's own Sec-Fetch-Site vouches.
    expect(isSameOrigin(new Headers({ origin: 'null', 'sec-fetch-site': 'same-origin' }))).toBe(true);
    expect(isSameOrigin(new Headers({ 'sec-fetch-site': 'cross-site', 'x-forwarded-host': 'evil.example' }))).toBe(false);
  });
});

describe('bounded bodies on the routes without a staff session', () => {
  beforeAll(() => {
    delete process.env.PUNCTUAL_PUBLIC_URL;
    process.env.PORT = '3000';
  });

  it('POST /api/preferences/:token: 400 for 10,000-deep JSON, 413 over 1 MiB (JSON and form)', async () => {
    const { POST } = await import('@/app/api/preferences/[token]/route');
    const ctx = { params: Promise.resolve({ token: 'any' }) };
    const req = (body: string, type = 'application/json') => new Request(`${BASE}/api/preferences/any`, { method: 'POST', headers: { origin: BASE, 'content-type': type }, body });
    const tooDeep = await POST(req(deep(10_000)), ctx);
    expect(tooDeep.status).toBe(400);
    expect(await tooDeep.json()).toEqual({ error: 'body: nested deeper than 32 levels', field: 'body' });
    const tooBig = await POST(req(JSON.stringify({ x: 'y'.repeat(1_100_000) })), ctx);
    expect(tooBig.status).toBe(413);
    const form = await POST(req(`reminders=${'y'.repeat(1_100_000)}`, 'application/x-www-form-urlencoded'), ctx);
    expect(form.status).toBe(303);
    const back = new URL(form.headers.get('location')!, BASE);
    expect([back.pathname, back.searchParams.get('error'), back.searchParams.get('field')]).toEqual(['/preferences/any', 'body: larger than 1048576 bytes (the limit of a request body)', 'body']);
  });

  it('POST /u/:token: a form over 16 KiB is 413, not read whole', async () => {
    const { POST } = await import('@/app/u/[token]/route');
    const r = await POST(
      new Request(`${BASE}/u/any`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `List-Unsubscribe=One-Click&pad=${'p'.repeat(20_000)}` }),
      { params: Promise.resolve({ token: 'any' }) },
    );
    expect(r.status).toBe(413);
    expect(await r.text()).toContain('larger than 16384 bytes');
  });

  it('POST /api/reports/email and /sms: over 256 KiB is 413 without Content-Length too', async () => {
    for (const path of ['email', 'sms'] as const) {
      const { POST } = path === 'email' ? await import('@/app/api/reports/email/route') : await import('@/app/api/reports/sms/route');
      const big = new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < 5; i++) c.enqueue(new Uint8Array(100_000).fill(0x61));
          c.close();
        },
      });
      const r = (await POST(new Request(`${BASE}/api/reports/${path}`, { method: 'POST', body: big, duplex: 'half' } as RequestInit))) as Response;
      expect(r.status, path).toBe(413);
    }
  });

  it('POST /api/auth/sign-in/email: 400 for deep JSON and 413 over 64 KiB, before better-auth parses it', async () => {
    const { POST } = await import('@/app/api/auth/[...all]/route');
    const req = (body: string) => new Request(`${BASE}/api/auth/sign-in/email`, { method: 'POST', headers: { 'content-type': 'application/json', origin: BASE }, body });
    const tooDeep = await POST(req(deep(10_000)));
    expect(tooDeep.status).toBe(400);
    expect(((await tooDeep.json()) as { error: string }).error).toBe('body: nested deeper than 32 levels');
    expect((await POST(req(JSON.stringify({ email: 'a@b.test', password: 'p'.repeat(70_000) })))).status).toBe(413);
  });
});

describe('field limits before the database (a 1 MB suppression address was a 500)', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t.close();
  });

  it('an address over 320 characters is a validation error naming `address`; nothing is stored', async () => {
    const tenant = await createTenant(t.db, { slug: 'limits', name: 'Limits', timeZone: 'Europe/Amsterdam' });
    const ctx = { tenantId: tenant.id, actor: 'ada@org.test', now: new Date() }; // no actorId: not a staff account (role re-check: recheck-under-lock.test.ts)
    for (const address of [`${'a'.repeat(1_000_000)}@example.test`, `${'b'.repeat(309)}@example.test`]) {
      await expect(addSuppressionAction(t.db, ctx, { address, reason: 'manual' })).rejects.toMatchObject({
        code: 'validation',
        field: 'address',
        message: 'address: at most 320 characters (an email address or a phone number)',
      });
    }
    const ok = `${'c'.repeat(64)}@example.test`;
    await expect(addSuppressionAction(t.db, ctx, { address: ok, reason: 'manual' })).resolves.toMatchObject({ id: expect.any(String) });
    expect(await t.sql`select address from suppressions`).toEqual([{ address: ok }]);
  });
});
