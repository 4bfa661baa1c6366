/**
 * proxy.ts sets the security headers on every answer it makes or lets through (issue #12), reading
 * PUNCTUAL_PUBLIC_URL when the request comes (HSTS only over https), with a fresh CSP nonce per request that Next
 * receives in the request's own CSP header.
 */
import { NextRequest } from 'next/server';
import { afterEach, describe, expect, it } from 'vitest';
import { proxy } from '@/proxy';

const saved = process.env.PUNCTUAL_PUBLIC_URL;
afterEach(() => {
  if (saved === undefined) delete process.env.PUNCTUAL_PUBLIC_URL;
  else process.env.PUNCTUAL_PUBLIC_URL = saved;
});

const req = (path: string, headers: Record<string, string> = {}) => new NextRequest(new URL(path, 'http://127.0.0.1:3000'), { headers });
const signedIn = { cookie: 'punctual.session_token=abc.def' };

describe('proxy', () => {
  it('headers on a redirect to sign-in, a 401 and a 400 the proxy makes itself', () => {
    delete process.env.PUNCTUAL_PUBLIC_URL;
    for (const [path, status] of [
      ['/attention', 307],
      ['/api/events', 401],
      ['/events/%', 400],
    ] as const) {
      const r = proxy(req(path));
      expect(r.status, path).toBe(status);
      expect(r.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(r.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      expect(r.headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('a page it lets through: a fresh nonce per request, handed on to Next in the request CSP', () => {
    const a = proxy(req('/attention', signedIn));
    const b = proxy(req('/attention', signedIn));
    const nonce = (r: Response) => /'nonce-([^']+)'/.exec(r.headers.get('content-security-policy') ?? '')?.[1];
    expect(nonce(a)).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(nonce(a)).not.toBe(nonce(b));
    // NextResponse.next({ request: { headers } }) passes overridden request headers as x-middleware-request-*.
    expect(a.headers.get('x-middleware-request-content-security-policy')).toBe(a.headers.get('content-security-policy'));
  });

  it('static files get the headers too, with no session needed', () => {
    const r = proxy(req('/_next/static/chunks/main.js'));
    expect(r.headers.get('x-middleware-next')).toBe('1');
    expect(r.headers.get('content-security-policy')).toContain('sandbox');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('HSTS when PUNCTUAL_PUBLIC_URL is https, read per request', () => {
    process.env.PUNCTUAL_PUBLIC_URL = 'https://punctual.example.org';
    const r = proxy(req('/api/health'));
    expect(r.headers.get('strict-transport-security')).toBe('max-age=31536000');
    expect(proxy(req('/attention', signedIn)).headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
  });

  it('keeps only a safe `next` on the redirect to sign-in', () => {
    const to = (path: string) => {
      const u = new URL(proxy(req(path)).headers.get('location')!);
      return u.pathname + u.search;
    };
    expect(to('/events?x=1')).toBe('/sign-in?next=%2Fevents%3Fx%3D1');
    expect(to('/.//evil.example/x')).toBe('/sign-in');
  });
});
