/**
 * Request proxy (Next.js 16's middleware): a path whose percent-encoding is malformed (`/events/%`,
 * `/mailbox/%C0%AF`) is a bad request — answered 400 here, before the router fails to decode it with a 500.
 */
import { NextResponse, type NextRequest } from 'next/server';

export function proxy(request: NextRequest) {
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    return new NextResponse('Bad request: the URL is not valid percent-encoding\n', { status: 400, headers: { 'content-type': 'text/plain' } });
  }
  return NextResponse.next();
}

export const config = { matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'] };
