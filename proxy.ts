/**
 * Request proxy (Next.js 16's middleware), before any page or route handler:
 * - a path whose percent-encoding is malformed (`/events/%`) is a bad request — 400 here, not a router 500;
 * - without a session cookie, pages redirect to /sign-in (keeping the path in `next`) and `/api/*` answers
 *   401. Only the cookie's presence is checked here (an optimistic check); pages and route handlers verify
 *   the session itself (app/_http/session.ts).
 * - a person's own preference page (`/preferences/<token>`) and its save (`/api/preferences/<token>`) need no
 *   session: the signed token in the path is the credential (server/sending/preference-link.ts), checked by the page
 *   and the route themselves.
 * - the one-click unsubscribe address (`/u/<token>`, RFC 8058) needs no session either: mail providers POST to
 *   it from their own servers, and the signed token is the credential (server/sending/unsubscribe-link.ts), checked by
 *   the route handler (app/u/[token]/route.ts).
 * - a calendar feed (`/feeds/<token>.ics`) needs no session: calendar apps fetch it, the signed token is the
 *   credential (app/feeds/[file]/route.ts); nor does `/api/replies/inbound` (a provider's inbound-parse webhook,
 *   HMAC-signed, app/api/replies/inbound/route.ts).
 * - `/api/metrics` needs no session: a Prometheus server scrapes it with a bearer token (app/api/metrics/route.ts).
 * - every answer — page, route handler, static asset, redirect, 400/401, 404 and error page — carries the
 *   security headers of domain/platform/security-headers.ts (CSP with a fresh nonce per request for pages, nosniff,
 *   Referrer-Policy, HSTS when PUNCTUAL_PUBLIC_URL is https). Set here, once: a route handler's own header of
 *   the same name does not replace it (Next keeps the first), so the policies here are at least as strict as
 *   any route's. Next reads the nonce from the request's CSP header and puts it on its own scripts.
 */
import { getSessionCookie } from 'better-auth/cookies';
import { NextResponse, type NextRequest } from 'next/server';
import { servedOverHttps } from '@/domain/platform/public-url';
import { safeReturnPath } from '@/domain/accounts/safe-redirect';
import { securityHeaders } from '@/domain/platform/security-headers';

const PUBLIC = [
  /^\/sign-in$/,
  // Issue #13: choosing a password with a one-time link (the token in the query is the credential, checked by
  // better-auth's /reset-password) and asking for a reset link.
  /^\/set-password$/,
  /^\/forgot-password$/,
  // Accepting a staff invitation: the token in the link is the credential (server/accounts/staff-invitations.ts).
  /^\/accept-invitation$/,
  /^\/api\/invitations\/accept$/,
  /^\/api\/auth\//,
  // Liveness and readiness (issue #13 part 7): supervisors and load balancers have no session.
  /^\/api\/health(?:\/live|\/ready)?$/,
  /^\/preferences\/[^/]+$/,
  /^\/api\/preferences\/[^/]+$/,
  // Delivery reports from the providers (issue #10): server to server, the webhook signature is the credential.
  /^\/api\/reports\/(?:email|sms)$/,
  // One-click unsubscribe (RFC 8058): the signed token in the path is the credential.
  /^\/u\/[^/]+$/,
  // Calendar feeds: the signed token in the path is the credential (server/calendar/feed-link.ts), checked by the route.
  /^\/feeds\/[^/]+$/,
  // Inbound calendar replies from a provider's inbound-parse webhook: the HMAC signature is the credential.
  /^\/api\/replies\/inbound$/,
  // Action links from a message ("I'll be there" / "I can't come"): the signed token in the path is the credential.
  /^\/a\/[^/]+$/,
  // Prometheus scrapes (issue #11): the bearer token (PUNCTUAL_METRICS_TOKEN) is the credential, checked by the route.
  /^\/api\/metrics$/,
];

/** Next's own files: no session needed (the app's scripts and styles load on the sign-in page too). */
const ASSET = /^\/(?:_next\/|favicon\.ico$)/;

/** 128 random bits, base64: a CSP nonce. */
function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
}

export function proxy(request: NextRequest) {
  const path = request.nextUrl.pathname;
  const headers = securityHeaders({ path, nonce: newNonce(), https: servedOverHttps(process.env), dev: process.env.NODE_ENV === 'development' });
  const answer = route(request, path, headers['content-security-policy']);
  for (const [k, v] of Object.entries(headers)) answer.headers.set(k, v);
  return answer;
}

/** The proxy's decision for this request (module doc); `csp` goes on to the page renderer with the request. */
function route(request: NextRequest, path: string, csp: string): NextResponse {
  try {
    decodeURIComponent(path);
  } catch {
    return new NextResponse('Bad request: the URL is not valid percent-encoding\n', { status: 400, headers: { 'content-type': 'text/plain' } });
  }
  const pass = () => {
    const requestHeaders = new Headers(request.headers);
    requestHeaders.set('content-security-policy', csp);
    return NextResponse.next({ request: { headers: requestHeaders } });
  };
  if (ASSET.test(path) || PUBLIC.some((r) => r.test(path))) return pass();
  if (!getSessionCookie(request, { cookiePrefix: 'punctual' })) {
    if (path.startsWith('/api/')) return NextResponse.json({ error: 'not signed in' }, { status: 401 });
    const to = new URL('/sign-in', request.url);
    const next = safeReturnPath(path + request.nextUrl.search);
    if (next !== '/') to.searchParams.set('next', next);
    return NextResponse.redirect(to);
  }
  return pass();
}

// No `config.matcher`: the proxy runs on every request, Next's static files included, so that every answer gets
// the security headers (module doc).
