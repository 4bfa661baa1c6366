/**
 * Bulk actions on an event's participants (issue #13): "Cancel selected" and "Nudge selected". Neither has rules
 * of its own — each applies the single action to every selected participant:
 *
 * - **Cancel selected** is ONE transaction: the actor's role is re-checked under a lock, every selected booking
 *   is locked (in id order, so two bulk cancels cannot deadlock) and its version compared with the one the page
 *   showed. Any stale one → a 409 listing every participant that changed (who, when, status now) and NOTHING is
 *   cancelled (invariant 11). Otherwise each booking is cancelled by server/scheduling/staff-actions.ts `cancelBookingAction`
 *   inside that transaction (a savepoint each): its waiting reminders cancelled, its `booking_cancelled` domain
 *   event recorded (the notification policy decides who hears of it), its own audit entry.
 * - **Nudge selected** is the single nudge (server/sending/nudge.ts `nudgeParticipant`) once per participant, each in its
 *   own transaction with its own idempotency key (domain/people/bulk-participants.ts bulkNudgeKey: the request's key +
 *   the booking) and the one-per-minute rule per participant. One refusal does not stop the others; the answer
 *   lists each participant as sent or refused with the reason. A repeated request (double click) sends nothing
 *   twice: every nudge it already made answers `replayed`.
 */
import { and, asc, eq, inArray, or } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx } from '@/db/client';
import { actorDisplayName, setActor } from '@/db/queries/platform/actor';
import { bookings, contacts, events } from '@/db/schema';
import { BULK_MAX, bulkNudgeKey, nudgeRefusalText, staleSelectionMessage, type ChangedParticipant } from '@/domain/people/bulk-participants';
import { defaultNudgeTemplate } from '@/domain/sending/nudge-templates';
import { AppError, assertId, parseInput } from '@/server/platform/errors';
import { nudgeParticipant } from '@/server/sending/nudge';
import { cancelBookingAction, reasonSchema, type ActionContext } from '@/server/scheduling/staff-actions';
import { recheckActor } from '@/server/platform/versions';

const uniqueIds = (ids: string[]) => new Set(ids).size === ids.length;

const cancelSelectedInput = reasonSchema.extend({
  /** Each selected booking with the row version the page showed. */
  bookings: z
    .array(z.object({ id: z.uuid('must be a booking id'), version: z.number().int().min(1) }))
    .min(1, 'select at least one participant')
    .max(BULK_MAX, `at most ${BULK_MAX} participants at once`)
    .refine((bs) => uniqueIds(bs.map((b) => b.id)), 'a participant is selected twice'),
});

const nudgeSelectedInput = z.object({
  bookingIds: z
    .array(z.uuid('must be a booking id'))
    .min(1, 'select at least one participant')
    .max(BULK_MAX, `at most ${BULK_MAX} participants at once`)
    .refine(uniqueIds, 'a participant is selected twice'),
  /** Made when the confirm dialog opens: a repeated request finds the nudges it already made. */
  idempotencyKey: z.string().trim().min(8, 'at least 8 characters').max(100),
});

const nameOf = (c: { name: string | null; email: string | null } | null | undefined) => c?.name || c?.email || 'Unknown contact';

async function eventOf(db: DbOrTx, tenantId: string, eventId: string) {
  const [e] = await db.select().from(events).where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
  if (!e) throw new AppError('not_found', `event ${eventId} not found`, 'eventId');
  return e;
}

/**
 * Cancels the selected bookings of event `eventId`, all or none (module doc). `input`: `{ reason, bookings: [{ id,
 * version }] }`. `db` may be an open transaction (an Idempotency-Key request's, server/platform/idempotency.ts).
 * @returns the participants cancelled now, and those the page already showed as cancelled (nothing to do).
 * @throws AppError validation (naming the field), not_found (event, or a booking not of this event — nothing
 *   cancelled), invalid_state (the event is cancelled), conflict (stale versions: `details.changed` lists them,
 *   nothing cancelled), forbidden (role no longer allows it).
 */
export async function cancelSelectedAction(
  db: DbOrTx,
  ctx: ActionContext,
  eventId: string,
  input: unknown,
): Promise<{ cancelled: { id: string; name: string }[]; alreadyCancelled: { id: string; name: string }[] }> {
  assertId(eventId, 'eventId', 'event');
  const f = parseInput(cancelSelectedInput, input);
  const seen = new Map(f.bookings.map((b) => [b.id, b.version]));
  return db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'operate');
    await setActor(tx, ctx.actor);
    const event = await eventOf(tx, ctx.tenantId, eventId);
    if (event.status === 'cancelled') throw new AppError('invalid_state', 'this event is cancelled: its bookings went with it', 'eventId');
    const locked = await tx
      .select()
      .from(bookings)
      .where(and(eq(bookings.tenantId, ctx.tenantId), eq(bookings.eventId, eventId), inArray(bookings.id, [...seen.keys()])))
      .orderBy(asc(bookings.id))
      .for('update');
    if (locked.length !== seen.size) {
      const missing = [...seen.keys()].filter((id) => !locked.some((b) => b.id === id));
      throw new AppError('not_found', `bookings: ${missing.length} of the selected participants are not on this event (${missing.join(', ')}) — nothing was cancelled`, 'bookings', { missing });
    }
    const people = await tx
      .select({ bookingId: bookings.id, name: contacts.name, email: contacts.email })
      .from(bookings)
      .leftJoin(contacts, and(eq(contacts.id, bookings.contactId), or(eq(contacts.tenantId, ctx.tenantId), eq(contacts.tenantId, bookings.guestTenantId))))
      .where(and(eq(bookings.tenantId, ctx.tenantId), inArray(bookings.id, [...seen.keys()])));
    const name = (id: string) => nameOf(people.find((p) => p.bookingId === id));
    const stale = locked.filter((b) => b.version !== seen.get(b.id));
    if (stale.length) {
      const changed: (ChangedParticipant & { id: string; version: number })[] = [];
      for (const b of stale) changed.push({ id: b.id, name: name(b.id), by: await actorDisplayName(tx, ctx.tenantId, b.updatedBy ?? 'system'), at: b.updatedAt, status: b.status, version: b.version });
      throw new AppError('conflict', staleSelectionMessage(changed, seen.size, event.timeZone), 'bookings', {
        changed: changed.map((c) => ({ id: c.id, name: c.name, status: c.status, version: c.version, changedBy: c.by, changedAt: c.at?.toISOString() ?? null })),
      });
    }
    const cancelled: { id: string; name: string }[] = [];
    const alreadyCancelled: { id: string; name: string }[] = [];
    // In the order the page listed them; each exactly the single cancel (a savepoint inside this transaction).
    for (const { id, version } of f.bookings) {
      const before = locked.find((b) => b.id === id)!;
      if (before.status === 'cancelled') {
        alreadyCancelled.push({ id, name: name(id) });
        continue;
      }
      await cancelBookingAction(tx, ctx, id, { reason: f.reason, version });
      cancelled.push({ id, name: name(id) });
    }
    return { cancelled, alreadyCancelled };
  });
}

/** One participant's line in a bulk nudge's answer. */
type BulkNudgeResult =
  | { bookingId: string; name: string; outcome: 'sent'; reminderId: string; replayed: boolean }
  | { bookingId: string; name: string; outcome: 'refused'; reason: string };

/**
 * Nudges each selected participant of event `eventId` now (module doc). `input`: `{ bookingIds, idempotencyKey }`.
 * Each participant gets the template of their role (domain/sending/nudge-templates.ts defaultNudgeTemplate).
 * @returns one result per selected participant, in the order given.
 * @throws AppError validation (naming the field), not_found (event), forbidden (role no longer allows it — the
 *   nudges already made stay, each audited).
 */
export async function nudgeSelectedAction(db: Db, ctx: ActionContext, eventId: string, input: unknown): Promise<{ results: BulkNudgeResult[] }> {
  assertId(eventId, 'eventId', 'event');
  const f = parseInput(nudgeSelectedInput, input);
  const event = await eventOf(db, ctx.tenantId, eventId);
  const rows = await db
    .select({ id: bookings.id, role: bookings.role, name: contacts.name, email: contacts.email })
    .from(bookings)
    .leftJoin(contacts, and(eq(contacts.id, bookings.contactId), or(eq(contacts.tenantId, ctx.tenantId), eq(contacts.tenantId, bookings.guestTenantId))))
    .where(and(eq(bookings.tenantId, ctx.tenantId), eq(bookings.eventId, eventId), inArray(bookings.id, f.bookingIds)));
  const results: BulkNudgeResult[] = [];
  for (const bookingId of f.bookingIds) {
    const b = rows.find((r) => r.id === bookingId);
    if (!b) {
      results.push({ bookingId, name: 'Unknown participant', outcome: 'refused', reason: nudgeRefusalText({ code: 'not_found', message: '' }, event.timeZone) });
      continue;
    }
    try {
      const sent = await nudgeParticipant(db, ctx, { bookingId, template: defaultNudgeTemplate(b.role), idempotencyKey: bulkNudgeKey(f.idempotencyKey, bookingId) });
      results.push({ bookingId, name: nameOf(b), outcome: 'sent', reminderId: sent.reminderId, replayed: sent.replayed });
    } catch (e) {
      if (!(e instanceof AppError) || e.code === 'forbidden') throw e;
      const retryAt = typeof e.details?.retryAt === 'string' ? e.details.retryAt : null;
      results.push({ bookingId, name: nameOf(b), outcome: 'refused', reason: nudgeRefusalText({ code: e.code, message: e.message, retryAt }, event.timeZone) });
    }
  }
  return { results };
}
