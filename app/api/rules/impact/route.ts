import { getDb } from '@/db/client';
import { previewRuleImpact } from '@/server/rules/rules';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/rules/impact `{ ruleId?, rule: { …draft } }` — READ-ONLY: how many pending reminders of upcoming
 * events saving the draft with "re-plan" would add, move or cancel (server/rules/rules.ts previewRuleImpact). Admins
 * only (it is asked for by the rule editor). 200 `{ pending, added, moved, cancelled, pastDue, …, lines }`.
 */
export async function POST(request: Request) {
  return staffRoute(request, 'configure', async (s, body) => {
    const b = (body ?? {}) as Record<string, unknown>;
    return previewRuleImpact(getDb(), actionContext(s), { ruleId: b.ruleId, rule: b.rule });
  });
}
