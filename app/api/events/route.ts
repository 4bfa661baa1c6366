import { getDb } from '../../../db/client';
import { createEventAction } from '../../../server/staff-actions';
import { actionContext, staffRoute } from '../../../server/session';

export const dynamic = 'force-dynamic';

/** POST /api/events — create an event from the form (wall-clock times in its zone). Staff and admins. */
export async function POST(request: Request) {
  return staffRoute(request, 'operate', async (s, body) => {
    const e = await createEventAction(getDb(), actionContext(s), (body ?? {}) as never);
    return { id: e.id };
  });
}
