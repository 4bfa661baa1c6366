import { getDb } from '@/db/client';
import { pageLanguageForRequest } from '@/emails/messages/page-language';
import { appClock } from '@/server/platform/clock';
import { AppError, retryOnTransactionConflict } from '@/server/platform/errors';
import { BodyError, readFormBody } from '@/server/platform/request-body';
import { actionLinkProblemPage, askPage, donePage, refusedPage } from '@/server/scheduling/action-page';
import { answerByToken, readActionView, type ActionView } from '@/server/scheduling/booking-actions';
import { actionLinkSecrets } from '@/server/sending/action-link';
import { unsubscribePageHeaders } from '@/server/suppressions/unsubscribe-page';

export const dynamic = 'force-dynamic';

/** Largest POST body read, bytes (one optional reason of at most 500 characters, form-encoded). */
const ACTION_MAX_BODY_BYTES = 16 * 1024;

/**
 * `/a/:token` — the booking action links in every message about a booking ("I'll be there" / "I can't come",
 * server/sending/action-link.ts). No session, no CSRF token: the signed token is the credential. Server-rendered HTML,
 * no script (server/scheduling/action-page.ts), in the person's language.
 *
 * - GET changes NOTHING (link scanners and mail security gateways prefetch links): 200 with the question and one form
 *   button POSTing here (for "I can't come" also an optional reason), plus a link to the other answer's page; 200
 *   "already done" when the answer stands; 200 "no longer possible" when the event is over or cancelled or the booking
 *   was cancelled; 400 for a bad or expired token; 404 when the booking is gone.
 * - POST (application/x-www-form-urlencoded or multipart/form-data; field `reason` optional) records the answer once
 *   (server/scheduling/attendance.ts `answerBooking`): 200 "done", or 200 "already done" for a repeat. Nothing changes on
 *   any 4xx.
 */
export async function GET(request: Request, context: { params: Promise<{ token: string }> }) {
  const { token } = await context.params;
  try {
    await appClock().ready;
    const view = await readActionView(getDb(), token, actionLinkSecrets(), appClock().now());
    const answer = view.link.answer;
    // A cancelled event first: "you had already confirmed" must not tell anyone they are still expected.
    if (view.eventStatus === 'cancelled') return html(200, refusedPage(view.subject, 'event_cancelled'));
    const declinedAlready = answer === 'declined' && view.bookingStatus === 'cancelled';
    const confirmedAlready = answer === 'confirmed' && view.attendance === 'confirmed' && view.bookingStatus === 'confirmed';
    if (declinedAlready || confirmedAlready) return html(200, donePage(view.subject, answer, true));
    const refused = refusal(view);
    if (refused) return html(200, refusedPage(view.subject, refused));
    return html(200, askPage(view.subject, answer, `/a/${encodeURIComponent(token)}`, `/a/${encodeURIComponent(view.otherToken)}`));
  } catch (e) {
    return problem(e, request);
  }
}

export async function POST(request: Request, context: { params: Promise<{ token: string }> }) {
  const { token } = await context.params;
  const page = pageLanguageForRequest(request.headers.get('accept-language'));
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  if (type && !type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) {
    return html(400, actionLinkProblemPage('invalid', page));
  }
  let reason: string | null = null;
  if (type) {
    try {
      const form = await readFormBody(request, ACTION_MAX_BODY_BYTES);
      const r = form.get('reason');
      reason = typeof r === 'string' ? r : null;
    } catch (e) {
      if (e instanceof BodyError) return html(e.status, actionLinkProblemPage('invalid', page));
      return html(400, actionLinkProblemPage('invalid', page));
    }
  }
  try {
    await appClock().ready;
    const { view, result } = await retryOnTransactionConflict(() => answerByToken(getDb(), token, actionLinkSecrets(), { reason, now: appClock().now() }));
    if (result.kind === 'refused') return html(200, refusedPage(view.subject, result.reason));
    return html(200, donePage(view.subject, view.link.answer, result.kind === 'already'));
  } catch (e) {
    return problem(e, request);
  }
}

/** Why the token's answer cannot be given any more, or null (the same order as domain/scheduling/attendance.ts decideAnswer). */
function refusal(view: ActionView): string | null {
  if (view.eventStatus === 'cancelled') return 'event_cancelled';
  if (view.bookingStatus === 'cancelled') return 'booking_cancelled';
  return null;
}

function html(status: number, body: string): Response {
  return new Response(body, { status, headers: unsubscribePageHeaders });
}

/** An AppError as its page in the browser's language: 400 bad or expired link, 404 booking gone; anything else is thrown on (500). */
function problem(e: unknown, request: Request): Response {
  if (!(e instanceof AppError)) throw e;
  const page = pageLanguageForRequest(request.headers.get('accept-language'));
  if (e.code === 'not_found') return html(404, actionLinkProblemPage('gone', page));
  // The typed reason holds what cannot be kept (a text-direction control, a NUL): say so; nothing changed.
  if (e.code === 'validation' && e.field === 'reason') return html(400, actionLinkProblemPage('reason', page));
  const expired = e.details?.expired === true;
  const at = expired ? String(e.details?.expiredAt ?? '') : '';
  const date = at ? new Intl.DateTimeFormat(page.lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(at)) : '';
  return html(e.httpStatus, actionLinkProblemPage(expired ? 'expired' : 'invalid', page, date));
}
