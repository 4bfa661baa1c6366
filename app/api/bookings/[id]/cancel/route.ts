import { getDb } from '@/db/client';
import { cancelBookingAction } from '@/server/scheduling/staff-actions';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/** POST /api/bookings/:id/cancel `{ reason, version }` — cancel one participant's booking and waiting reminders (stale version → 409). */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'operate', async (s, body) => {
    const b = await cancelBookingAction(getDb(), actionContext(s), id, (body ?? {}) as { reason?: unknown; version?: unknown });
    return { id: b.id, status: b.status, version: b.version };
  });
}
