import { getDb } from '@/db/client';
import { previewText } from '@/server/messages/text-preview';
import { staffRoute } from '@/app/_http/session';
import { textEdit, type TextParams } from '@/app/api/message-texts/params';

export const dynamic = 'force-dynamic';

/**
 * POST /api/message-texts/:kind/:locale/preview `{ subject, body, sms, bookingId? }` — the unsaved draft rendered as
 * the send path renders it (every role, like the GET; nothing stored): `{ subject, html, text, sms, smsSegments:
 * { segments, encoding, characters }, participant }` for that booking of the organisation, or the kind's sample data
 * without one (server/messages/text-preview.ts). 400 as a save (`errors` with field, line, column, variable,
 * known); 404 `bookingId` of no booking here; 422 when that booking's event cannot fill the message.
 */
export async function POST(request: Request, context: { params: Promise<TextParams> }) {
  const params = await context.params;
  return staffRoute(request, 'read', (s, body) => previewText(getDb(), s.tenant.id, textEdit(params, body)));
}
