import { getDb } from '../../../db/client';
import { addSuppressionAction } from '../../../server/staff-actions';
import { actionContext, staffRoute } from '../../../server/session';

export const dynamic = 'force-dynamic';

/** POST /api/suppressions `{ address, reason, note? }` — stop all mail to an address. 409 when already listed. */
export async function POST(request: Request) {
  return staffRoute(request, 'operate', async (s, body) => addSuppressionAction(getDb(), actionContext(s), (body ?? {}) as never));
}
