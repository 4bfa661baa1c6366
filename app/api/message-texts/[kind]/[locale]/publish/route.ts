import { getDb } from '@/db/client';
import { publishText } from '@/server/messages/message-texts';
import { actionContext, staffRoute } from '@/app/_http/session';
import { textEdit, type TextParams } from '@/app/api/message-texts/params';

export const dynamic = 'force-dynamic';

/**
 * POST /api/message-texts/:kind/:locale/publish `{ rowVersion }` (or `If-Match`) — publish the draft as the next version (admins only); audited. 409 when there is no draft or the row version is stale; 400 when the draft no longer passes the check.
 * Answers the text's view as stored now (server/messages/message-texts.ts MessageTextView).
 */
export async function POST(request: Request, context: { params: Promise<TextParams> }) {
  const params = await context.params;
  return staffRoute(request, 'configure', (s, body) => publishText(getDb(), actionContext(s), textEdit(params, body)));
}
