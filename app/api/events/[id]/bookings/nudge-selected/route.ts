import { getDb } from '@/db/client';
import { nudgeSelectedAction } from '@/server/people/bulk-participants';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/events/:id/bookings/nudge-selected `{ bookingIds, idempotencyKey }` — remind each selected participant
 * now (server/people/bulk-participants.ts): one nudge each, its own key, at most one per participant per minute. 200 with
 * `{ results: [{ bookingId, name, outcome: 'sent', reminderId, replayed } | { …, outcome: 'refused', reason }] }`;
 * the same `idempotencyKey` again sends nothing twice.
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'operate', async (s, body) => nudgeSelectedAction(getDb(), actionContext(s), id, body ?? {}));
}
