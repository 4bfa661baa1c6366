import { getDb } from '@/db/client';
import { setStaffRoleAction } from '@/server/accounts/staff';
import { assertId } from '@/server/platform/errors';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/** PUT /api/staff/:id/role `{ role, version }` — an admin changes another account's role (never their own; stale version → 409). */
export async function PUT(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'configure', async (s, body) => {
    assertId(id, 'userId', 'staff account');
    await setStaffRoleAction(getDb(), { ...actionContext(s), actorId: s.user.id }, id, (body ?? {}) as { role?: unknown });
    return { ok: true };
  });
}
