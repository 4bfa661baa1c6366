import { getDb } from '@/db/client';
import { resetToBuiltIn } from '@/server/messages/message-texts';
import { actionContext, staffRoute } from '@/app/_http/session';
import { textEdit, type TextParams } from '@/app/api/message-texts/params';

export const dynamic = 'force-dynamic';

/**
 * POST /api/message-texts/:kind/:locale/reset `{ rowVersion }` (or `If-Match`) — go back to Punctual's built-in text from now on (admins only; a reset version, history kept); audited. Already built-in → nothing written.
 * Answers the text's view as stored now (server/messages/message-texts.ts MessageTextView).
 */
export async function POST(request: Request, context: { params: Promise<TextParams> }) {
  const params = await context.params;
  return staffRoute(request, 'configure', (s, body) => resetToBuiltIn(getDb(), actionContext(s), textEdit(params, body)));
}
