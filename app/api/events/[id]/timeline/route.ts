import { getDb } from '@/db/client';
import { getEventPage } from '@/db/queries/scheduling/event-views';
import { staffRoute, jsonError } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * GET /api/events/:id/timeline — the event page data as JSON (same shape as `getEventPage`), scoped to the
 * signed-in staff member's tenant. 401 signed out; 404 `{ error }` when the event is not in that tenant.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'read', async ({ tenant }) => {
    const page = await getEventPage(getDb(), tenant.id, id);
    return page ?? jsonError(404, 'event not found');
  });
}
