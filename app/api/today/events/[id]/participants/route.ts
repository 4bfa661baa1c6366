import { getDb } from '@/db/client';
import { appClock } from '@/server/platform/clock';
import { jsonError, staffRoute } from '@/app/_http/session';
import { loadTodayParticipants } from '@/server/dashboards/today';

export const dynamic = 'force-dynamic';

/**
 * GET /api/today/events/:id/participants — the first 50 participants of one of the tenant's events for the
 * today view (server/dashboards/today.ts TodayParticipantsData: name, role, booking status, phone, email, own zone, today's
 * nudges) with the count of all. Every role may read it. 401 signed out; 404 `{ error }` when the event is not
 * in the signed-in member's tenant.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'read', async ({ tenant }) => {
    const data = await loadTodayParticipants(getDb(), tenant, id, appClock().now());
    return data ?? jsonError(404, 'event not found');
  });
}
