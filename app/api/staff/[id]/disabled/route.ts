import { getDb } from '@/db/client';
import { setStaffDisabledAction } from '@/server/accounts/staff';
import { assertId } from '@/server/platform/errors';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * PUT /api/staff/:id/disabled `{ disabled: boolean, version }` — an admin disables another account (ending all its
 * sessions) or re-enables it (issue #13; never their own, never the last active admin; stale version → 409).
 * Answers `{ ok, sessionsEnded }`.
 */
export async function PUT(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'configure', async (s, body) => {
    assertId(id, 'userId', 'staff account');
    const r = await setStaffDisabledAction(getDb(), actionContext(s), id, (body ?? {}) as { disabled?: unknown });
    return { ok: true, ...r };
  });
}
