import { toNextJsHandler } from 'better-auth/next-js';
import { getAuth } from '../../../../server/auth';
import { withClientHeader } from '../../../../server/client-address';

export const dynamic = 'force-dynamic';

/**
 * better-auth's endpoints (`/api/auth/sign-in/email`, `/api/auth/sign-out`, `/api/auth/get-session`, …). Each request
 * reaches better-auth with `x-punctual-client` set to the client address resolved from the socket peer and
 * PUNCTUAL_TRUSTED_PROXIES (server/client-address.ts) — the only address better-auth reads.
 */
export async function GET(request: Request) {
  return toNextJsHandler(getAuth()).GET(withClientHeader(request));
}

export async function POST(request: Request) {
  return toNextJsHandler(getAuth()).POST(withClientHeader(request));
}
