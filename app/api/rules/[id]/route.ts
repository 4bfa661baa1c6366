import { getDb } from '../../../../db/client';
import { updateRuleAction } from '../../../../server/staff-actions';
import { actionContext, staffRoute } from '../../../../server/session';

export const dynamic = 'force-dynamic';

/** PUT /api/rules/:id `{ …rule, version }` — edit a reminder rule (admins only: rules are tenant settings; stale version → 409 with the current rule). */
export async function PUT(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'configure', async (s, body) => {
    await updateRuleAction(getDb(), actionContext(s), id, (body ?? {}) as never);
    return { ok: true };
  });
}
