import { getDb } from '@/db/client';
import { participantsCsv } from '@/server/people/csv-exports';
import { csvResponse } from '@/app/_http/csv-response';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * GET /api/exports/participants/:eventId — the event's participants as a CSV download (server/people/csv-exports.ts).
 * Any signed-in staff role, like the event page; 404 `{ error }` when the event is not this tenant's.
 */
export async function GET(request: Request, context: { params: Promise<{ eventId: string }> }) {
  const { eventId } = await context.params;
  return staffRoute(request, 'read', async (s) => csvResponse(await participantsCsv(getDb(), actionContext(s), eventId)));
}
