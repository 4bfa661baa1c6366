import { getDb } from '@/db/client';
import { removeSuppressionAction } from '@/server/scheduling/staff-actions';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/** DELETE /api/suppressions/:id `{ reason, version }` — mail may go to the address again; the reason is audited (stale version → 409). */
export async function DELETE(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'operate', async (s, body) => {
    await removeSuppressionAction(getDb(), actionContext(s), id, (body ?? {}) as { reason?: unknown });
    return { ok: true };
  });
}
