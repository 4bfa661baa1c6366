import { getDb } from '@/db/client';
import { textHistory } from '@/server/messages/message-texts';
import { staffRoute } from '@/app/_http/session';
import type { TextParams } from '@/app/api/message-texts/params';

export const dynamic = 'force-dynamic';

/**
 * GET /api/message-texts/:kind/:locale/history — every published version, newest first, with who published it and
 * when (every role): `{ versions: [{ version, status, subject, body, sms, copiedFrom, publishedBy, publishedAt }] }`.
 */
export async function GET(request: Request, context: { params: Promise<TextParams> }) {
  const params = await context.params;
  return staffRoute(request, 'read', async (s) => ({ versions: await textHistory(getDb(), s.tenant.id, params) }));
}
