import { getDb } from '@/db/client';
import { updateEventAction } from '@/server/scheduling/staff-actions';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * PUT /api/events/:id `{ …form, version }` (or `If-Match: "<version>"`) — save the event form; a timing change
 * reschedules (new schedule version). A stale `version` is a 409 with the current event (nothing written).
 */
export async function PUT(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'operate', async (s, body) => {
    const r = await updateEventAction(getDb(), actionContext(s), id, (body ?? {}) as never);
    return { id: r.event.id, version: r.event.version, scheduleVersion: r.event.scheduleVersion, rescheduled: r.rescheduled };
  });
}
