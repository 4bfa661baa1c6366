import { getDb } from '@/db/client';
import { cancelAnnouncement } from '@/server/messages/announcements';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/announcements/:id/cancel `{ version }` — cancel a scheduled announcement before the worker claims it.
 * 200 with the announcement; 409 when it was already claimed, sent or cancelled (the message says which) or changed
 * since it was read (`current`); 403 for viewers.
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'operate', async (s, body) => ({ announcement: await cancelAnnouncement(getDb(), actionContext(s), id, body) }));
}
