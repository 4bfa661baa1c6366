import { getDb } from '@/db/client';
import { discardDelivery, markDeliverySent, replayDelivery, sendDeliveryAgain } from '@/server/sending/operator';
import { actionContext, jsonError, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

type Action = (ctx: ReturnType<typeof actionContext>, id: string, reason: string) => Promise<void>;

/**
 * The actions by name. A Map, not an object literal: a name from the URL must never reach `Object.prototype`
 * (`constructor`, `toString`, `__proto__`, `valueOf`, `hasOwnProperty` answered 200 doing nothing, or 500 — issue #12).
 */
const actions = new Map<string, Action>([
  ['replay', (ctx, id) => replayDelivery(getDb(), ctx, id)],
  ['discard', (ctx, id, reason) => discardDelivery(getDb(), ctx, id, reason)],
  ['mark-sent', (ctx, id, reason) => markDeliverySent(getDb(), ctx, id, reason)],
  ['send-again', (ctx, id, reason) => sendDeliveryAgain(getDb(), ctx, id, reason)],
]);

/**
 * POST /api/deliveries/:id/{replay|discard|mark-sent|send-again} `{ reason }` — operator actions on a dead
 * letter or an unknown outcome (server/sending/operator.ts), each audited. 409 when the delivery is not in a state
 * that allows it; 400 naming `reason` when one is required and missing.
 */
export async function POST(request: Request, context: { params: Promise<{ id: string; action: string }> }) {
  const { id, action } = await context.params;
  const run = actions.get(action);
  if (!run) return jsonError(404, `unknown action "${action.slice(0, 40)}": one of ${[...actions.keys()].join(', ')}`);
  return staffRoute(request, 'operate', async (s, body) => {
    const reason = typeof (body as { reason?: unknown })?.reason === 'string' ? (body as { reason: string }).reason : '';
    await run(actionContext(s), id, reason);
    return { ok: true };
  });
}
