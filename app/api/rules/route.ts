import { createRuleAction } from '@/server/rules/rules';
import { actionContext, staffCreateRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/rules `{ name, anchor, offset, audience, channel, template, lateSendWindowSeconds, active, choice:
 * 'replan' | 'new_only', previewPending }` — create a reminder rule (admins only) and, with `replan`, plan it for
 * the bookings of upcoming events in the same transaction (server/rules/rules.ts). Idempotent with an
 * `Idempotency-Key` header (server/platform/idempotency.ts). 200 `{ rule, choice, previewPending, applied, message }`.
 */
export async function POST(request: Request) {
  return staffCreateRoute(request, 'configure', async (s, body, db) => createRuleAction(db, actionContext(s), (body ?? {}) as Record<string, unknown>));
}
