import { getDb } from '@/db/client';
import { deleteRuleAction, updateRuleWithChoice } from '@/server/rules/rules';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * PUT /api/rules/:id `{ …rule, version, choice?, previewPending? }` — edit a reminder rule, incl. deactivate /
 * activate (admins only: rules are tenant settings). `choice: 'replan'` re-plans (or, deactivating, cancels) its
 * pending reminders in the same transaction; `new_only` (default) leaves them (deactivating: lets them go out).
 * Stale version → 409 with the current rule. 200 `{ rule, choice, applied, message, changed }`.
 */
export async function PUT(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'configure', async (s, body) => updateRuleWithChoice(getDb(), actionContext(s), id, (body ?? {}) as Record<string, unknown>));
}

/**
 * DELETE /api/rules/:id `{ version }` (or `If-Match`) — delete a rule that never produced a reminder (admins only).
 * 409 "used by N reminders — deactivate it instead" otherwise; stale version → 409 with the current rule.
 */
export async function DELETE(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'configure', async (s, body) => deleteRuleAction(getDb(), actionContext(s), id, (body ?? {}) as Record<string, unknown>));
}
