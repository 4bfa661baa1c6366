import { getDb } from '../../../../../db/client';
import { addBookingAction } from '../../../../../server/staff-actions';
import { actionContext, staffRoute } from '../../../../../server/session';

export const dynamic = 'force-dynamic';

/** POST /api/events/:id/bookings `{ name, email, role, timeZone?, guestTenant? }` — book a participant. */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'operate', async (s, body) => {
    const b = await addBookingAction(getDb(), actionContext(s), id, (body ?? {}) as never);
    return { id: b.id };
  });
}
