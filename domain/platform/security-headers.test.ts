import { describe, expect, it } from 'vitest';
import { cspKind, HSTS_VALUE, NON_PAGE_CSP, pageCsp, securityHeaders, UNSUBSCRIBE_PAGE_CSP } from './security-headers';

const NONCE = 'AAECAwQFBgcICQoLDA0ODw==';

/** A CSP as directive → sources. */
function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...v]) => [name, v]));
}

describe('securityHeaders', () => {
  it('a page: nonce-based script-src with strict-dynamic, no unsafe-inline scripts, never framed', () => {
    const h = securityHeaders({ path: '/attention', nonce: NONCE, https: false });
    const d = directives(h['content-security-policy']);
    expect(d['script-src']).toEqual(["'self'", `'nonce-${NONCE}'`, "'strict-dynamic'"]);
    expect(d['frame-ancestors']).toEqual(["'none'"]);
    expect(d['object-src']).toEqual(["'none'"]);
    expect(d['base-uri']).toEqual(["'self'"]);
    expect(d['form-action']).toEqual(["'self'"]);
    expect(d['img-src']).toEqual(["'self'", 'data:', 'blob:']);
    expect(d['upgrade-insecure-requests']).toBeUndefined();
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['x-frame-options']).toBe('DENY');
    expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(h['strict-transport-security']).toBeUndefined();
  });

  it('HSTS and upgrade-insecure-requests only over HTTPS; unsafe-eval only in development', () => {
    const h = securityHeaders({ path: '/', nonce: NONCE, https: true });
    expect(h['strict-transport-security']).toBe(HSTS_VALUE);
    expect(directives(h['content-security-policy'])['upgrade-insecure-requests']).toEqual([]);
    expect(securityHeaders({ path: '/api/health', nonce: NONCE, https: true })['strict-transport-security']).toBe(HSTS_VALUE);
    expect(pageCsp(NONCE, { https: false, dev: true })).toContain("'strict-dynamic' 'unsafe-eval'");
    expect(pageCsp(NONCE, { https: false })).not.toContain('unsafe-eval');
  });

  it('no Referer from the pages and routes whose URL is a signed token', () => {
    // Issue #13: /set-password carries a one-time password link's token in its query.
    for (const path of ['/u/abc.def', '/preferences/abc.def', '/api/preferences/abc.def', '/set-password']) {
      expect(securityHeaders({ path, nonce: NONCE, https: false })['referrer-policy'], path).toBe('no-referrer');
    }
    for (const path of ['/', '/events/1', '/preferences', '/api/events', '/forgot-password', '/set-password/x']) {
      expect(securityHeaders({ path, nonce: NONCE, https: false })['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
    }
  });

  it('API routes and static files: nothing runs, sandboxed; unsubscribe pages keep their own strict policy', () => {
    expect(cspKind('/api/health')).toBe('non-page');
    expect(cspKind('/_next/static/chunks/app.js')).toBe('non-page');
    expect(cspKind('/u/tok')).toBe('unsubscribe');
    expect(cspKind('/events')).toBe('page');
    expect(cspKind('/apis')).toBe('page');
    expect(securityHeaders({ path: '/api/mailbox/1/raw', nonce: NONCE, https: false })['content-security-policy']).toBe(NON_PAGE_CSP);
    expect(directives(NON_PAGE_CSP)).toMatchObject({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"], sandbox: [] });
    expect(securityHeaders({ path: '/u/tok', nonce: NONCE, https: false })['content-security-policy']).toBe(UNSUBSCRIBE_PAGE_CSP);
    expect(directives(UNSUBSCRIBE_PAGE_CSP)).toMatchObject({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] });
  });
});
