import { getDb } from '@/db/client';
import { readTestMessage } from '@/server/organisations/org-settings';
import { staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * GET /api/settings/test-message/:id — one test message of the organisation: `{ id, to, provider, status: 'pending' |
 * 'sent' | 'failed' | 'unknown', providerAnswer, createdAt, finishedAt }`; 404 for another organisation's.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'read', (s) => readTestMessage(getDb(), s.tenant.id, id));
}
