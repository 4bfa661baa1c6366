import { getDb } from '@/db/client';
import { pageLanguageFor, pageLanguageForRequest } from '@/emails/messages/page-language';
import { appClock } from '@/server/platform/clock';
import { AppError, retryOnTransactionConflict } from '@/server/platform/errors';
import { BodyError, readFormBody } from '@/server/platform/request-body';
import { preferencesSecret, signPreferenceToken } from '@/server/sending/preference-link';
import { readUnsubscribeView, unsubscribeByToken, type UnsubscribeView } from '@/server/suppressions/unsubscribe';
import { unsubscribeSecrets } from '@/server/sending/unsubscribe-link';
import { confirmPage, donePage, linkProblemPage, problemPage, unsubscribePageHeaders, type UnsubscribePageSubject } from '@/server/suppressions/unsubscribe-page';

export const dynamic = 'force-dynamic';

/** Largest unsubscribe POST body read, bytes (the form is one field; multipart adds a boundary or two). */
const UNSUBSCRIBE_MAX_BODY_BYTES = 16 * 1024;

/**
 * `/u/:token` — one-click unsubscribe (issue #10 §5; RFC 8058 with RFC 2369), the URL in the `List-Unsubscribe`
 * header and the footer of every non-essential email. No session, no CSRF token, no Origin check: the signed
 * token (server/sending/unsubscribe-link.ts) is the credential, and a mail provider posts from its own servers.
 * One route handler answers both methods with server-rendered HTML (a page.tsx cannot share the segment), no
 * script: it works with JavaScript off.
 *
 * - GET changes NOTHING (link scanners and mail security gateways prefetch it): 200 "Unsubscribe Ana from
 *   reminders from Studio Noord?" with a form button POSTing `List-Unsubscribe=One-Click` here, and a link to the
 *   person's preferences page; 200 "You are unsubscribed …" when already; 400 for a bad or expired token; 404
 *   when the person is gone.
 * - POST with the body `List-Unsubscribe=One-Click` (application/x-www-form-urlencoded or multipart/form-data,
 *   RFC 8058 §3.2) unsubscribes (server/suppressions/unsubscribe.ts) → 200 with a small confirmation page (never a
 *   redirect), also when already unsubscribed; another or missing body → 400 naming `List-Unsubscribe`; a
 *   tampered token → 400; an expired one → 400 saying so and pointing at the preferences link. Nothing changes
 *   on any 4xx.
 */
export async function GET(request: Request, context: { params: Promise<{ token: string }> }) {
  const { token } = await context.params;
  try {
    await appClock().ready;
    const view = await readUnsubscribeView(getDb(), token, unsubscribeSecrets(), appClock().now());
    const subject = await pageSubject(view);
    if (view.alreadyUnsubscribed) return html(200, donePage(subject, { already: true, since: view.unsubscribedAt }));
    return html(200, confirmPage(subject, `/u/${encodeURIComponent(token)}`));
  } catch (e) {
    return problem(e, request);
  }
}

export async function POST(request: Request, context: { params: Promise<{ token: string }> }) {
  const { token } = await context.params;
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) {
    return html(400, problemPage('This request was not understood', 'List-Unsubscribe: send the form field List-Unsubscribe=One-Click (application/x-www-form-urlencoded or multipart/form-data, RFC 8058).'));
  }
  let form: FormData;
  try {
    // The one field is ~26 bytes: a small cap (server/platform/request-body.ts) keeps a provider's or anyone's post bounded.
    form = await readFormBody(request, UNSUBSCRIBE_MAX_BODY_BYTES);
  } catch (e) {
    if (e instanceof BodyError) return html(e.status, problemPage('This request was not understood', `List-Unsubscribe: ${e.message}; send List-Unsubscribe=One-Click.`));
    return html(400, problemPage('This request was not understood', 'List-Unsubscribe: the form body could not be read; send List-Unsubscribe=One-Click.'));
  }
  const value = form.get('List-Unsubscribe');
  if (value !== 'One-Click') {
    return html(400, problemPage('This request was not understood', `List-Unsubscribe: ${value === null ? 'missing' : 'must be One-Click'} — the body must be List-Unsubscribe=One-Click (RFC 8058).`));
  }
  try {
    await appClock().ready;
    const r = await retryOnTransactionConflict(() => unsubscribeByToken(getDb(), token, unsubscribeSecrets(), appClock().now()));
    return html(200, donePage(await pageSubject(r), { already: r.status === 'already_unsubscribed', since: r.unsubscribedAt }));
  } catch (e) {
    return problem(e, request);
  }
}

/** What the pages name, with a fresh preferences link for the same person (null when preference links cannot be signed). */
async function pageSubject(view: UnsubscribeView): Promise<UnsubscribePageSubject> {
  let preferencesHref: string | null = null;
  try {
    preferencesHref = `/preferences/${await signPreferenceToken({ tenantId: view.tenantId, contactId: view.contactId }, preferencesSecret())}`;
  } catch {
    preferencesHref = null;
  }
  return { contactName: view.contactName, tenantName: view.tenantName, category: view.category, preferencesHref, page: pageLanguageFor(view.contactLocale, view.tenantLocale) };
}

function html(status: number, body: string): Response {
  return new Response(body, { status, headers: unsubscribePageHeaders });
}

/**
 * An AppError as its page, in the browser's language (Accept-Language: the link led to nobody whose language we know):
 * 400 bad or expired link, 404 person gone; anything else is thrown on (500).
 */
function problem(e: unknown, request: Request): Response {
  if (!(e instanceof AppError)) throw e;
  const page = pageLanguageForRequest(request.headers.get('accept-language'));
  if (e.code === 'not_found') return html(404, linkProblemPage('gone', page));
  const expired = e.details?.expired === true;
  return html(e.httpStatus, linkProblemPage(expired ? 'expired' : 'invalid', page, expired ? String(e.details?.expiredAt ?? '') || null : null));
}
