/**
 * "Remind participant": a staff member's manual nudge (issue #4, item 5).
 *
 * A nudge is a reminder row of kind `nudge` (no rule) that goes through the same send path as every planned
 * reminder — claim by message key, last re-read, suppression check, classified outcome — so it is as
 * durable and as duplicate-free. Its message key carries the request instant (`nudge:<tenant>:<booking>:<ms>:
 * email`, domain/keys.ts): it never collides with a rule reminder and never marks one sent.
 *
 * Exactly-once from the browser: the dialog makes an idempotency key when it opens; a second request with
 * the same key (double click, retried request) returns the first nudge. At most one nudge per participant
 * per minute (NUDGE_INTERVAL_MS), counted from the last nudge's request instant. Both rules are decided
 * under a row lock on the booking, so concurrent requests are serialised.
 */
import { TASK } from '@/jobs/registry';
import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { bookings, contacts, events, reminders } from '@/db/schema';
import { nudgeMessageKey } from '@/domain/keys';
import { nudgeTemplateRefusal } from '@/domain/sending/nudge-templates';
import { reminderTemplateIds } from '@/domain/vocabulary';
import { AppError, assertId, parseInput } from '@/server/platform/errors';
import { recheckActor } from '@/server/platform/versions';

/** Minimum time between two nudges to one participant, ms. */
const NUDGE_INTERVAL_MS = 60_000;
/** How long a nudge may wait for a worker before it is not worth sending, ms. */
const NUDGE_EXPIRY_MS = 60 * 60_000;

const nudgeInput = z.object({
  bookingId: z.uuid(),
  template: z.enum(reminderTemplateIds),
  idempotencyKey: z.string().trim().min(8, 'at least 8 characters').max(200),
});
type NudgeInput = z.input<typeof nudgeInput>;

type NudgeResult = { reminderId: string; messageKey: string; requestedAt: string; replayed: boolean };

/**
 * Records a nudge and queues its send job, in one transaction.
 * @param now the request instant (UTC), part of the message key.
 * @throws AppError validation (naming the field; `template` when it cannot render for this participant and event,
 *   domain/sending/nudge-templates.ts), not_found (booking not in this tenant), invalid_state
 *   (booking or event cancelled), conflict (idempotency key already used for another participant),
 *   rate_limited (a nudge to this participant less than a minute ago; the message says when to retry, `details.retryAt`
 *   is that instant in UTC ISO 8601).
 */
export async function nudgeParticipant(db: Db, ctx: { tenantId: string; actor: string; actorId?: string; now: Date }, input: NudgeInput): Promise<NudgeResult> {
  assertId(input.bookingId, 'bookingId', 'participant');
  const v = parseInput(nudgeInput, input);
  return db.transaction(async (tx) => {
    // The sender may still operate (re-read under a lock: a demotion meanwhile refuses this nudge, 403).
    await recheckActor(tx, ctx, 'operate');
    const [b] = await tx
      .select()
      .from(bookings)
      .where(and(eq(bookings.id, v.bookingId), eq(bookings.tenantId, ctx.tenantId)))
      .for('update');
    if (!b) throw new AppError('not_found', `participant ${v.bookingId} not found`, 'bookingId');
    const [same] = await tx
      .select()
      .from(reminders)
      .where(and(eq(reminders.tenantId, ctx.tenantId), eq(reminders.idempotencyKey, v.idempotencyKey)));
    if (same) {
      if (same.bookingId !== b.id) throw new AppError('conflict', 'idempotencyKey: already used for another participant', 'idempotencyKey');
      const at = same.requestedAt!;
      return { reminderId: same.id, messageKey: nudgeMessageKey({ tenantId: ctx.tenantId, bookingId: b.id, requestedAt: at, channel: same.channel }), requestedAt: at.toISOString(), replayed: true };
    }
    if (b.status === 'cancelled') throw new AppError('invalid_state', 'this booking is cancelled: nothing to remind', 'bookingId');
    const [e] = await tx.select().from(events).where(and(eq(events.id, b.eventId), eq(events.tenantId, ctx.tenantId)));
    if (!e || e.status === 'cancelled') throw new AppError('invalid_state', 'this event is cancelled: nothing to remind', 'bookingId');
    // Only a template that can render for this participant and event (no room-opening without a room).
    const refusal = nudgeTemplateRefusal(v.template, { role: b.role, hasRoom: !!e.roomUrl });
    if (refusal) throw new AppError('validation', refusal, 'template');
    const [last] = await tx
      .select({ requestedAt: reminders.requestedAt })
      .from(reminders)
      .where(and(eq(reminders.bookingId, b.id), eq(reminders.kind, 'nudge')))
      .orderBy(desc(reminders.requestedAt))
      .limit(1);
    const sinceMs = last?.requestedAt ? ctx.now.getTime() - last.requestedAt.getTime() : Infinity;
    if (sinceMs < NUDGE_INTERVAL_MS) {
      const wait = Math.ceil((NUDGE_INTERVAL_MS - sinceMs) / 1000);
      // `retryAt`: the first instant (UTC ISO 8601) a nudge to this participant is accepted again (bulk nudges word it).
      throw new AppError('rate_limited', `This participant was reminded ${Math.max(0, Math.floor(sinceMs / 1000))} s ago: at most one manual reminder per minute. Try again in ${wait} s.`, 'bookingId', {
        retryAt: new Date(last!.requestedAt!.getTime() + NUDGE_INTERVAL_MS).toISOString(),
      });
    }
    const [r] = await tx
      .insert(reminders)
      .values({
        tenantId: ctx.tenantId,
        eventId: e.id,
        bookingId: b.id,
        ruleId: null,
        kind: 'nudge',
        template: v.template,
        idempotencyKey: v.idempotencyKey,
        requestedAt: ctx.now,
        requestedBy: ctx.actor,
        scheduleVersion: e.scheduleVersion,
        channel: 'email',
        dueAt: ctx.now,
        expiresAt: new Date(ctx.now.getTime() + NUDGE_EXPIRY_MS),
        status: 'dispatched',
        dispatchedAt: ctx.now,
      })
      .returning();
    await enqueueJob(tx, TASK.sendReminder, { reminderId: r.id });
    const messageKey = nudgeMessageKey({ tenantId: ctx.tenantId, bookingId: b.id, requestedAt: ctx.now, channel: 'email' });
    const [c] = await tx.select({ email: contacts.email, name: contacts.name }).from(contacts).where(eq(contacts.id, b.contactId));
    await appendAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: 'nudge',
      at: ctx.now,
      details: { eventId: e.id, bookingId: b.id, email: c?.email, name: c?.name || undefined, reminderId: r.id, template: v.template, messageKey },
    });
    return { reminderId: r.id, messageKey, requestedAt: ctx.now.toISOString(), replayed: false };
  });
}
