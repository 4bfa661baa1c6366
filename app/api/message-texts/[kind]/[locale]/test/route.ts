import { getDb } from '@/db/client';
import { sendTextTest } from '@/server/messages/text-preview';
import { actionContext, staffRoute } from '@/app/_http/session';
import { textEdit, type TextParams } from '@/app/api/message-texts/params';

export const dynamic = 'force-dynamic';

/**
 * POST /api/message-texts/:kind/:locale/test `{ subject, body, sms, bookingId? }` — "send a test to me" (admins only):
 * the draft, rendered as the preview renders it, goes to the signed-in staff member's own address through the
 * settings page's test message (a worker sends it; no delivery, no participant). Answers the pending test message
 * `{ id, status: 'pending', … }` — poll GET /api/settings/test-message/:id. 400 as a save; 429 within 10 s of the
 * organisation's last test message.
 */
export async function POST(request: Request, context: { params: Promise<TextParams> }) {
  const params = await context.params;
  return staffRoute(request, 'configure', (s, body) => sendTextTest(getDb(), actionContext(s), textEdit(params, body)));
}
