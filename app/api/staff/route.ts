import { getDb } from '../../../db/client';
import { addStaffAction, type StaffInput } from '../../../server/staff';
import { actionContext, staffRoute } from '../../../server/session';

export const dynamic = 'force-dynamic';

/** POST /api/staff `{ name, email, role, password }` — an admin adds a staff account to their tenant. 409 when the email has one. */
export async function POST(request: Request) {
  return staffRoute(request, 'configure', async (s, body) => addStaffAction(getDb(), actionContext(s), (body ?? {}) as StaffInput));
}
