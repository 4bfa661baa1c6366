import { z } from 'zod';
import { getDb } from '@/db/client';
import { replayDelivery } from '@/server/sending/operator';
import { AppError, parseInput } from '@/server/platform/errors';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/deliveries/replay `{ ids: [...] }` — replay a selection of dead letters. Each is its own
 * transaction (one refusal does not block the rest); the answer lists what happened to each id.
 */
export async function POST(request: Request) {
  return staffRoute(request, 'operate', async (s, body) => {
    const { ids } = parseInput(z.object({ ids: z.array(z.string()).min(1, 'select at least one dead letter').max(500) }), body ?? {});
    const ctx = actionContext(s);
    const results: { id: string; ok: boolean; error?: string }[] = [];
    for (const id of ids) {
      try {
        await replayDelivery(getDb(), ctx, id);
        results.push({ id, ok: true });
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        results.push({ id, ok: false, error: e.message });
      }
    }
    return { replayed: results.filter((r) => r.ok).length, results };
  });
}
