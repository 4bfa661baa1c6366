import { getDb } from '@/db/client';
import { getEventPage } from '@/db/queries/scheduling/event-views';
import { staffRoute, jsonError } from '@/app/_http/session';
import { parseParticipantFilter } from '@/domain/scheduling/participant-filter';

export const dynamic = 'force-dynamic';

/** The list parameters; when none is present the answer holds every booking (as it always did). */
const listParams = ['q', 'role', 'state', 'problem', 'sort', 'page'];

/**
 * GET /api/events/:id/timeline — the event page data as JSON (same shape as `getEventPage`), scoped to the
 * signed-in staff member's tenant. Without list parameters: every booking with its whole timeline. With any of
 * `q`, `role`, `state`, `problem`, `sort`, `page` (domain/scheduling/participant-filter.ts): one page of the
 * matching bookings, `participants` says how many matched. 401 signed out; 400 `{ error }` naming a bad
 * parameter; 404 `{ error }` when the event is not in that tenant.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'read', async ({ tenant }) => {
    const sp = new URL(request.url).searchParams;
    const filter = listParams.some((k) => sp.has(k)) ? parseParticipantFilter(sp) : null;
    if (filter && 'error' in filter) return jsonError(400, filter.error);
    const page = await getEventPage(getDb(), tenant.id, id, filter);
    return page ?? jsonError(404, 'event not found');
  });
}
