import { toNextJsHandler } from 'better-auth/next-js';
import { getAuth } from '@/server/accounts/auth';
import { withClientHeader } from '@/server/platform/client-address';
import { BodyError, bodyErrorResponse, parseJsonText, readBodyBytes } from '@/server/platform/request-body';

export const dynamic = 'force-dynamic';

/** Largest body better-auth is handed, bytes: its endpoints take an email and a password (server/platform/request-body.ts). */
const AUTH_MAX_BODY_BYTES = 64 * 1024;

/**
 * better-auth's endpoints (`/api/auth/sign-in/email`, `/api/auth/sign-out`, `/api/auth/get-session`, …). Each request
 * reaches better-auth with `x-punctual-client` set to the client address resolved from the socket peer and
 * PUNCTUAL_TRUSTED_PROXIES (server/platform/client-address.ts) — the only address better-auth reads.
 */
export async function GET(request: Request) {
  return toNextJsHandler(getAuth()).GET(withClientHeader(request));
}

/**
 * POSTs reach better-auth only after the body passed the shared bounds (issue #12): 413 over 64 KiB, 400 for JSON
 * nested too deep or with an over-long string — checked on the bytes before anything parses them into objects.
 */
export async function POST(request: Request) {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await readBodyBytes(request, AUTH_MAX_BODY_BYTES);
    if ((request.headers.get('content-type') ?? '').toLowerCase().includes('json')) parseJsonText(new TextDecoder().decode(bytes));
  } catch (e) {
    if (e instanceof BodyError) return bodyErrorResponse(e);
    throw e;
  }
  const bounded = new Request(request.url, { method: 'POST', headers: request.headers, body: bytes.byteLength ? bytes : null });
  return toNextJsHandler(getAuth()).POST(withClientHeader(bounded));
}
