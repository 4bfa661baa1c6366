import { getDb } from '@/db/client';
import { readContactPreferences, saveContactPreferences } from '@/server/notifications/contact-preferences';
import { AppError } from '@/server/platform/errors';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/** GET /api/contacts/:id/preferences — a contact's channel preferences, quiet hours (and the zone they are read in), number and version. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'read', async (s) => {
    const p = await readContactPreferences(getDb(), s.tenant.id, id);
    if (!p) throw new AppError('not_found', `contact ${id.slice(0, 80)} not found`, 'contactId');
    return p;
  });
}

/**
 * PUT /api/contacts/:id/preferences `{ preferences: { reminders, booking_updates }, quietHours: { start, end } | null,
 * phone?, version }` (or `If-Match`) — staff and admins. In one transaction: the save, the person's rule reminders
 * on channels they no longer take ended `cancelled`, their live events re-planned, audit `preferences_update`.
 * 400 naming the field; stale version → 409 with `current`. Answers `{ preferences, changed, remindersCancelled, remindersPlanned }`.
 */
export async function PUT(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'operate', (s, body) => {
    const ctx = actionContext(s);
    return saveContactPreferences(getDb(), ctx, id, body ?? {}, { kind: 'staff', actor: ctx.actor, actorId: ctx.actorId });
  });
}
