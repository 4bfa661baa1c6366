import { addBookingAction } from '@/server/scheduling/staff-actions';
import { actionContext, staffCreateRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/events/:id/bookings `{ name, email, role, timeZone?, locale?, phone? (E.164 or national with +), guestTenant? }` — book a participant (again,
 * when their earlier booking was cancelled). 409 when they have a live booking. Honours `Idempotency-Key`. Answers
 * `{ id, sendsAs?, kept? }`: for an external guest, whose name their messages go out in (issue #12); for a person
 * already in the contacts whose stored details differ from the ones sent, which were kept ("kept: existing zone
 * Europe/Berlin — edit the participant to change it": a booking never changes a known person).
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffCreateRoute(request, 'operate', async (s, body, db) => {
    const b = await addBookingAction(db, actionContext(s), id, (body ?? {}) as never);
    return { id: b.id, ...(b.sendsAs ? { sendsAs: b.sendsAs } : {}), ...(b.kept ? { kept: b.kept } : {}) };
  });
}
