import { getDb } from '@/db/client';
import { appClock } from '@/server/platform/clock';
import { retryOnTransactionConflict } from '@/server/platform/errors';
import { intakeEmailEvent, MAX_REPORT_BODY_BYTES } from '@/server/reports/report-intake';
import { BodyError, readBodyText } from '@/server/platform/request-body';
import { jsonError } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/reports/email — the HTTP email provider's event webhook (delivered, bounced hard/soft, complained,
 * delivery delayed, sent), signed per Standard Webhooks with HTTP_EMAIL_WEBHOOK_SECRET. No session and no Origin
 * check (server to server): the signature is the credential. Answers: 200 applied/duplicate/ignored, 202 unmatched,
 * 400 naming the field, 401 bad signature (nothing stored), 413 too large, 415 not JSON, 503 not configured.
 * Logic: server/reports/report-intake.ts `intakeEmailEvent`.
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
  const a = await retryOnTransactionConflict(() =>
    intakeEmailEvent(getDb(), { rawBody, headers: request.headers, secret: process.env.HTTP_EMAIL_WEBHOOK_SECRET, now: clock.now() }),
  );
  return Response.json(a.body, { status: a.status, headers: { 'cache-control': 'no-store' } });
}
