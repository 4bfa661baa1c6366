import { getDb } from '@/db/client';
import { nudgeParticipant } from '@/server/sending/nudge';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/bookings/:id/nudge `{ template, idempotencyKey }` — remind this participant now. 200 with the
 * nudge (`replayed: true` for a repeated idempotency key); 429 when one was sent less than a minute ago.
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'operate', async (s, body) => {
    const b = (body ?? {}) as Record<string, unknown>;
    return nudgeParticipant(getDb(), actionContext(s), { bookingId: id, template: b.template as never, idempotencyKey: b.idempotencyKey as string });
  });
}
