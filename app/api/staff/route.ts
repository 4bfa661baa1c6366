import { addStaffAction, type StaffInput } from '../../../server/staff';
import { actionContext, staffCreateRoute } from '../../../server/session';

export const dynamic = 'force-dynamic';

/** POST /api/staff `{ name, email, role, password }` — an admin adds a staff account to their tenant. 409 when the email has one. Honours `Idempotency-Key`. */
export async function POST(request: Request) {
  return staffCreateRoute(request, 'configure', async (s, body, db) => addStaffAction(db, actionContext(s), (body ?? {}) as StaffInput));
}
