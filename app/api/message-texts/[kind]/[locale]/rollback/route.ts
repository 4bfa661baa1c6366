import { getDb } from '@/db/client';
import { rollbackText } from '@/server/messages/message-texts';
import { actionContext, staffRoute } from '@/app/_http/session';
import { textEdit, type TextParams } from '@/app/api/message-texts/params';

export const dynamic = 'force-dynamic';

/**
 * POST /api/message-texts/:kind/:locale/rollback `{ toVersion, rowVersion }` (or the row version as `If-Match`) — publish a copy of version toVersion as the next version (admins only); audited. 404 no such version; 409 a reset version or stale.
 * Answers the text's view as stored now (server/messages/message-texts.ts MessageTextView).
 */
export async function POST(request: Request, context: { params: Promise<TextParams> }) {
  const params = await context.params;
  return staffRoute(request, 'configure', (s, body) => rollbackText(getDb(), actionContext(s), textEdit(params, body)));
}
