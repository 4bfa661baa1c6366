import { getDb } from '@/db/client';
import { updateEventAction } from '@/server/scheduling/staff-actions';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * PUT /api/events/:id `{ …form, version, notify? }` (or `If-Match: "<version>"`) — save the event form; a timing change
 * reschedules (new schedule version). `notify` (true/false; absent = the default: yes when the title, place or
 * online-room link changed, no when only the description did) says whether the event's people get a "details
 * changed" message with an updated calendar entry. A stale `version` is a 409 with the current event (nothing written).
 */
export async function PUT(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'operate', async (s, body) => {
    const r = await updateEventAction(getDb(), actionContext(s), id, (body ?? {}) as never);
    return { id: r.event.id, version: r.event.version, scheduleVersion: r.event.scheduleVersion, rescheduled: r.rescheduled, detailsNotified: r.detailsNotified };
  });
}
