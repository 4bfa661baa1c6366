/**
 * The security headers of every response (pure; issue #12 "Headers"). proxy.ts sets them once, on every
 * request it sees — pages, route handlers, static assets, redirects and error pages alike.
 *
 * - `Content-Security-Policy`, by kind of path:
 *   - pages (everything not below): Next.js 16's nonce approach (node_modules/next/dist/docs/01-app/02-guides/
 *     content-security-policy.md): `script-src 'self' 'nonce-…' 'strict-dynamic'` — only the scripts Next itself
 *     renders with this request's nonce run, and what they load. Styles: `'self' 'unsafe-inline'`, because React
 *     `style={…}` attributes and the chart library's inline styles cannot carry a nonce (CSP nonces cover elements,
 *     not attributes); an injected style cannot run code. Images: same origin plus `data:` (the inline favicon) and
 *     `blob:`. No plugins, `<base>` only same origin, forms post only here, and `frame-ancestors 'none'`: no
 *     other site may frame a page (clickjacking). `upgrade-insecure-requests` when served over HTTPS. In
 *     `next dev` also `'unsafe-eval'` (React's dev tooling needs it; production never does).
 *   - `/api/…` and `/_next/…` (JSON, text, downloads, scripts and styles as files): nothing may run or load in
 *     the response as a document — `default-src 'none'; sandbox`, never framed. A caught message's raw source or
 *     attachment opened directly stays inert.
 *   - `/u/…` (the one-click unsubscribe pages) and `/a/…` (the booking action pages), no script at all: {@link UNSUBSCRIBE_PAGE_CSP}.
 * - `X-Content-Type-Options: nosniff` and `X-Frame-Options: DENY` (for browsers without `frame-ancestors`).
 * - `Referrer-Policy`: `no-referrer` on the pages and routes whose URL is a credential — `/u/<token>`,
 *   `/preferences/<token>`, `/api/preferences/<token>`, and `/set-password?token=…` (issue #13: a one-time password
 *   link's token in the query) — so the token never leaves in a Referer header;
 *   `strict-origin-when-cross-origin` elsewhere (other sites learn at most the origin).
 * - `Strict-Transport-Security: max-age=31536000` (one year, this host only) only when the app is served over
 *   HTTPS (PUNCTUAL_PUBLIC_URL is https://): over plain http a browser ignores it, and on a local http setup it
 *   must not pin anything.
 */

/** CSP of the one-click unsubscribe pages (server/suppressions/unsubscribe-page.ts): no script, inline CSS, the form posts back here. */
export const UNSUBSCRIBE_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** CSP of everything that is not a page: nothing runs, nothing loads, never framed. */
export const NON_PAGE_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox";

/** HSTS value when served over HTTPS: one year, this host only (subdomains may be other services). */
export const HSTS_VALUE = 'max-age=31536000';

/** Paths whose URL carries a signed token (a credential): never sent on as a Referer. */
const TOKEN_PATH = /^\/(?:(?:u|a|preferences|api\/preferences)\/[^/]+|set-password)\/?$/;

interface SecurityHeaderInput {
  /** The request path (`URL.pathname`). */
  path: string;
  /** This request's CSP nonce (base64, ≥ 128 random bits), used for pages only. */
  nonce: string;
  /** Served over HTTPS (domain/platform/public-url.ts `servedOverHttps`). */
  https: boolean;
  /** `next dev` (NODE_ENV=development): pages also allow 'unsafe-eval'. */
  dev?: boolean;
}

/** The page CSP for one request (module doc). */
export function pageCsp(nonce: string, opts: { https: boolean; dev?: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(opts.https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** Which CSP a path gets (module doc). */
export function cspKind(path: string): 'page' | 'non-page' | 'unsubscribe' {
  if (path === '/api' || path.startsWith('/api/') || path.startsWith('/_next/')) return 'non-page';
  if (/^\/[ua]\/[^/]+\/?$/.test(path)) return 'unsubscribe';
  return 'page';
}

/**
 * The security headers for a response to `path` (lower-case names → values; module doc for each).
 */
export function securityHeaders(i: SecurityHeaderInput): Record<string, string> {
  const kind = cspKind(i.path);
  const csp = kind === 'page' ? pageCsp(i.nonce, i) : kind === 'unsubscribe' ? UNSUBSCRIBE_PAGE_CSP : NON_PAGE_CSP;
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': TOKEN_PATH.test(i.path) ? 'no-referrer' : 'strict-origin-when-cross-origin',
    ...(i.https ? { 'strict-transport-security': HSTS_VALUE } : {}),
  };
}
