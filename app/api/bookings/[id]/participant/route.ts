import { getDb } from '@/db/client';
import { editParticipant, readParticipant, type ParticipantEditInput } from '@/server/scheduling/participants';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * GET /api/bookings/:id/participant — the person booked (name, email, phone, timeZone, locale, the contact's
 * `version`), with their other bookings (an edit changes the person on all of them) and this booking's waiting
 * reminders. 404 for another tenant's booking; 403 for a guest whose own organisation keeps their details.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'read', (s) => readParticipant(getDb(), s.tenant.id, id));
}

/**
 * PUT /api/bookings/:id/participant `{ name?, email?, phone?, timeZone?, locale?, version }` (or `If-Match`) —
 * staff and admins edit the person (server/scheduling/participants.ts): in one transaction the contact is written, their
 * waiting reminders re-planned when the zone or number changed, and the edit audited (`participant_update`).
 * 400 naming the field, nothing written; stale version → 409 with `current`; an address another contact has → 409
 * naming `email`. Answers `{ participant, changed, changes, remindersRetimed, remindersPlanned, remindersHandedOver, replans }`.
 */
export async function PUT(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'operate', (s, body) => editParticipant(getDb(), actionContext(s), id, (body ?? {}) as ParticipantEditInput));
}
