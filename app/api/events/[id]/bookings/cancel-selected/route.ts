import { cancelSelectedAction } from '@/server/people/bulk-participants';
import { actionContext, staffCreateRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/events/:id/bookings/cancel-selected `{ reason, bookings: [{ id, version }] }` — cancel the selected
 * participants' bookings in one transaction (server/people/bulk-participants.ts). 409 `{ error, field: 'bookings', changed }`
 * when any changed since the page showed it (nothing cancelled). Honours `Idempotency-Key` (a repeat answers the
 * first result). Answers `{ cancelled: [{ id, name }], alreadyCancelled: [...] }`.
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffCreateRoute(request, 'operate', async (s, body, db) => cancelSelectedAction(db, actionContext(s), id, body ?? {}));
}
