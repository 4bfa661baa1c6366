import { createEventAction } from '@/server/scheduling/staff-actions';
import { actionContext, staffCreateRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/** POST /api/events — create an event from the form (wall-clock times in its zone). Staff and admins. Honours `Idempotency-Key`. */
export async function POST(request: Request) {
  return staffCreateRoute(request, 'operate', async (s, body, db) => {
    const e = await createEventAction(db, actionContext(s), (body ?? {}) as never);
    return { id: e.id };
  });
}
