/**
 * Request proxy (Next.js 16's middleware), before any page or route handler:
 * - a path whose percent-encoding is malformed (`/events/%`) is a bad request — 400 here, not a router 500;
 * - without a session cookie, pages redirect to /sign-in (keeping the path in `next`) and `/api/*` answers
 *   401. Only the cookie's presence is checked here (an optimistic check); pages and route handlers verify
 *   the session itself (server/session.ts).
 * - a person's own preference page (`/preferences/<token>`) and its save (`/api/preferences/<token>`) need no
 *   session: the signed token in the path is the credential (server/preference-link.ts), checked by the page
 *   and the route themselves.
 * - the one-click unsubscribe address (`/u/<token>`, RFC 8058) needs no session either: mail providers POST to
 *   it from their own servers, and the signed token is the credential (server/unsubscribe-link.ts), checked by
 *   the route handler (app/u/[token]/route.ts).
 * - `/api/metrics` needs no session: a Prometheus server scrapes it with a bearer token (app/api/metrics/route.ts).
 */
import { getSessionCookie } from 'better-auth/cookies';
import { NextResponse, type NextRequest } from 'next/server';

const PUBLIC = [
  /^\/sign-in$/,
  /^\/api\/auth\//,
  /^\/api\/health$/,
  /^\/preferences\/[^/]+$/,
  /^\/api\/preferences\/[^/]+$/,
  // Delivery reports from the providers (issue #10): server to server, the webhook signature is the credential.
  /^\/api\/reports\/(?:email|sms)$/,
  // One-click unsubscribe (RFC 8058): the signed token in the path is the credential.
  /^\/u\/[^/]+$/,
  // Prometheus scrapes (issue #11): the bearer token (PUNCTUAL_METRICS_TOKEN) is the credential, checked by the route.
  /^\/api\/metrics$/,
];

export function proxy(request: NextRequest) {
  const path = request.nextUrl.pathname;
  try {
    decodeURIComponent(path);
  } catch {
    return new NextResponse('Bad request: the URL is not valid percent-encoding\n', { status: 400, headers: { 'content-type': 'text/plain' } });
  }
  if (PUBLIC.some((r) => r.test(path))) return NextResponse.next();
  if (!getSessionCookie(request, { cookiePrefix: 'punctual' })) {
    if (path.startsWith('/api/')) return NextResponse.json({ error: 'not signed in' }, { status: 401 });
    const to = new URL('/sign-in', request.url);
    if (path !== '/') to.searchParams.set('next', path + request.nextUrl.search);
    return NextResponse.redirect(to);
  }
  return NextResponse.next();
}

export const config = { matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'] };
