import { getDb } from '../../../../../db/client';
import { reminderImpact } from '../../../../../db/queries/scheduling';
import { isUuid } from '../../../../../db/queries/views';
import { jsonError, staffRoute } from '../../../../../server/session';

export const dynamic = 'force-dynamic';

/** GET /api/events/:id/impact — `{ pending, done }`: reminders a reschedule or cancel would touch. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'read', async (s) => (isUuid(id) ? reminderImpact(getDb(), s.tenant.id, { eventId: id }) : jsonError(404, 'event not found')));
}
