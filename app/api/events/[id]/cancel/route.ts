import { getDb } from '@/db/client';
import { cancelEventAction } from '@/server/scheduling/staff-actions';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/** POST /api/events/:id/cancel `{ reason, version }` — cancel the event and its waiting reminders (stale version → 409). */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'operate', async (s, body) => {
    const e = await cancelEventAction(getDb(), actionContext(s), id, (body ?? {}) as { reason?: unknown });
    return { id: e.id, status: e.status, version: e.version };
  });
}
