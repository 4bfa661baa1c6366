import { getDb } from '@/db/client';
import { appClock } from '@/server/platform/clock';
import { retryOnTransactionConflict } from '@/server/platform/errors';
import { intakeInboundReply, MAX_INBOUND_REPLY_BODY_BYTES } from '@/server/calendar/inbound-reply';
import { BodyError, readBodyBytes } from '@/server/platform/request-body';
import { jsonError } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/replies/inbound — a mail provider's inbound-parse webhook delivering a calendar reply (iTIP REPLY),
 * signed `X-Punctual-Signature: sha256=<hex>` (HMAC-SHA-256 of the body with PUNCTUAL_INBOUND_REPLY_SECRET). No
 * session and no Origin check (server to server): the signature is the credential. Answers: 200 stored (with its
 * outcome), 400 naming the field, 401 bad or missing signature (nothing stored), 413 too large, 415 another content
 * type, 503 not configured. Logic: server/calendar/inbound-reply.ts `intakeInboundReply`.
 */
export async function POST(request: Request) {
  let body: Uint8Array;
  try {
    body = await readBodyBytes(request, MAX_INBOUND_REPLY_BODY_BYTES);
  } catch (e) {
    if (e instanceof BodyError) return jsonError(e.status, e.message, e.field);
    throw e;
  }
  const clock = appClock();
  await clock.ready;
  const a = await retryOnTransactionConflict(() =>
    intakeInboundReply(getDb(), { body, headers: request.headers, secret: process.env.PUNCTUAL_INBOUND_REPLY_SECRET, now: clock.now() }),
  );
  return Response.json(a.body, { status: a.status, headers: { 'cache-control': 'no-store' } });
}
