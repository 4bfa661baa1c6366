import { addSuppressionAction } from '@/server/scheduling/staff-actions';
import { actionContext, staffCreateRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/** POST /api/suppressions `{ address, reason, note? }` — stop all mail to an address. 409 when already listed. Honours `Idempotency-Key`. */
export async function POST(request: Request) {
  return staffCreateRoute(request, 'operate', async (s, body, db) => addSuppressionAction(db, actionContext(s), (body ?? {}) as never));
}
