import { getDb } from '@/db/client';
import { appClock } from '@/server/platform/clock';
import { preferencesInputFromForm, savePreferencesByToken } from '@/server/notifications/contact-preferences';
import { AppError, retryOnTransactionConflict } from '@/server/platform/errors';
import { preferencesSecret } from '@/server/sending/preference-link';
import { BodyError, readFormBody, readJsonBody } from '@/server/platform/request-body';
import { isSameOrigin, jsonError } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/** The person's page for this token, with a query (`saved=1`, `stale=1`, `error=…&field=…`). */
function backToPage(request: Request, token: string, query: Record<string, string>): Response {
  const url = new URL(`/preferences/${encodeURIComponent(token)}`, request.url);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return new Response(null, { status: 303, headers: { location: `${url.pathname}${url.search}`, 'cache-control': 'no-store' } });
}

/**
 * POST /api/preferences/:token — the person saves their own preferences through the signed link in a message.
 * No staff session: the token (server/sending/preference-link.ts) is the credential; cross-site posts are refused (403,
 * the same Origin check as staff routes). Body as JSON `{ preferences, quietHours, version }` (the page's script)
 * → 200 `{ preferences, changed, … }`, 400 naming the field, 404 for a bad token, 409 "These preferences were
 * changed since you opened this page — here is what they are now." with `current`; or as a plain HTML form
 * (`reminders`, `booking_updates`, `quietStart`, `quietEnd`, `version`; without script) → 303 back to the page
 * with `saved=1`, `stale=1` or `error`/`field`.
 */
export async function POST(request: Request, context: { params: Promise<{ token: string }> }) {
  const { token } = await context.params;
  if (!isSameOrigin(request.headers)) return jsonError(403, 'cross-site request refused: save your preferences from the page in your message');
  const type = request.headers.get('content-type') ?? '';
  const isForm = type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data');
  try {
    let input: unknown;
    try {
      // Bounded: 413 over PUNCTUAL_MAX_BODY_BYTES, 400 too deep or a value too long (server/platform/request-body.ts).
      input = isForm ? preferencesInputFromForm(await readFormBody(request)) : await readJsonBody(request);
    } catch (e) {
      if (e instanceof BodyError) return isForm ? backToPage(request, token, { error: e.message, field: e.field }) : jsonError(e.status, e.message, e.field);
      if (isForm && e instanceof TypeError) return backToPage(request, token, { error: 'body: the form could not be read', field: 'body' });
      throw e;
    }
    if (!isForm && (input === null || typeof input !== 'object' || Array.isArray(input))) {
      return jsonError(400, input === undefined ? 'request body: not valid JSON' : 'request body: must be a JSON object', 'body');
    }
    await appClock().ready;
    const r = await retryOnTransactionConflict(() => savePreferencesByToken(getDb(), token, preferencesSecret(), input, appClock().now()));
    if (isForm) return backToPage(request, token, { saved: '1' });
    return Response.json(r, { headers: { 'cache-control': 'no-store' } });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    if (isForm) {
      if (e.code === 'conflict') return backToPage(request, token, { stale: '1' });
      return backToPage(request, token, { error: e.message, ...(e.field ? { field: e.field } : {}) });
    }
    return jsonError(e.httpStatus, e.message, e.field, e.details);
  }
}
