import { getDb } from '@/db/client';
import { appClock } from '@/server/platform/clock';
import { retryOnTransactionConflict } from '@/server/platform/errors';
import { intakeSmsStatus, MAX_REPORT_BODY_BYTES, smsCallbackUrl } from '@/server/reports/report-intake';
import { BodyError, readBodyText } from '@/server/platform/request-body';
import { jsonError } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/reports/sms — Twilio-style SMS status callbacks (form body; `PartIndex`/`NumSegments` per part is our
 * extension), verified with X-Twilio-Signature using SMS_AUTH_TOKEN over the URL the provider called
 * (SMS_STATUS_CALLBACK_URL, else PUNCTUAL_PUBLIC_URL + /api/reports/sms). No session and no Origin check (server to
 * server): the signature is the credential. Answers: 200 applied/duplicate/ignored, 202 unmatched, 400 naming the
 * field, 401 bad signature (nothing stored), 413 too large, 415 not a form body, 503 not configured.
 * Logic: server/reports/report-intake.ts `intakeSmsStatus`.
 */
export async function POST(request: Request) {
  let rawBody: string;
  try {
    // Read with a byte cap: a larger body is refused without being read whole (server/platform/request-body.ts).
    rawBody = await readBodyText(request, MAX_REPORT_BODY_BYTES);
  } catch (e) {
    if (e instanceof BodyError) return jsonError(e.status, e.message, e.field);
    throw e;
  }
  const clock = appClock();
  await clock.ready;
  const url = smsCallbackUrl(process.env, request.url);
  const a = await retryOnTransactionConflict(() =>
    intakeSmsStatus(getDb(), {
      rawBody,
      signature: request.headers.get('x-twilio-signature'),
      contentType: request.headers.get('content-type'),
      url,
      authToken: process.env.SMS_AUTH_TOKEN,
      now: clock.now(),
    }),
  );
  return Response.json(a.body, { status: a.status, headers: { 'cache-control': 'no-store' } });
}
