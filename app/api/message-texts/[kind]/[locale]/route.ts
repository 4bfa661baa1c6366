import { getDb } from '@/db/client';
import { readMessageText, saveDraft } from '@/server/messages/message-texts';
import { actionContext, staffRoute } from '@/app/_http/session';
import { textEdit, type TextParams } from '@/app/api/message-texts/params';

export const dynamic = 'force-dynamic';

/**
 * GET /api/message-texts/:kind/:locale — the organisation's text of one message kind in one language (every role):
 * `{ kind, locale, rowVersion, draft, published, variables }` (server/messages/message-texts.ts MessageTextView).
 */
export async function GET(request: Request, context: { params: Promise<TextParams> }) {
  const params = await context.params;
  return staffRoute(request, 'read', (s) => readMessageText(getDb(), s.tenant.id, params));
}

/**
 * PUT /api/message-texts/:kind/:locale `{ subject, body, sms, rowVersion }` (or the row version as `If-Match`; 0 when
 * the text was never written) — save the draft (admins only). Checked before it is stored: 400 naming the field with
 * `errors` (each with field, line, column, variable; unknown variables with `known`); stale → 409 with `current`.
 */
export async function PUT(request: Request, context: { params: Promise<TextParams> }) {
  const params = await context.params;
  return staffRoute(request, 'configure', (s, body) => saveDraft(getDb(), actionContext(s), textEdit(params, body)));
}
