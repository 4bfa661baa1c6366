/**
 * Operator actions on deliveries that automation will not decide (DESIGN §3 "Dead letter", invariant 6):
 * replay or discard a dead letter; mark an unknown outcome as sent, or send it again. Each runs in one
 * transaction that changes the delivery and appends an audit entry (who, when, why). Nothing is deleted.
 * Every action keeps the delivery's message key: a replay is the same message, never a new one.
 *
 * Channels: every action works the same for email, SMS and webhook deliveries (the `deliver` task picks the
 * adapter by the delivery's provider). One channel-specific refusal: a webhook delivery is not re-queued
 * while its organisation's endpoint is switched off — the send would end `cancelled` at once and the dead
 * letter would be lost from Needs attention; the error says to switch the endpoint on first.
 */
import { TASK } from '@/jobs/registry';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '@/db/client';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { loadReminderWorld, transitionDelivery } from '@/db/queries/sending/delivery';
import { auditLog, deliveries, events, reminders, type Delivery } from '@/db/schema';
import { formatStaffTime } from '@/domain/staff-time';
import type { AuditAction } from '@/domain/vocabulary';
import { AppError, parseInput } from '@/server/platform/errors';
import { recheckActor } from '@/server/platform/versions';
import { refuseBidiControls } from '@/domain/text';

interface OperatorContext {
  tenantId: string;
  /** Who acts (staff user id or e-mail; `system` for automation). */
  actor: string;
  /** The staff member's user id: their role is re-read under a lock in each action's transaction (server/platform/versions.ts). */
  actorId?: string;
  now: Date;
}

// The reason is shown to every staff member (delivery pages, audit log, its CSV): text-direction controls are refused.
const reasonSchema = z.object({ reason: z.string().trim().min(3, 'a reason of at least 3 characters is required').max(500, 'at most 500 characters').check(refuseBidiControls) });
const parseReason = (reason: string) => parseInput(reasonSchema, { reason }).reason;

async function lockOwnDelivery(tx: Tx, tenantId: string, deliveryId: string): Promise<Delivery> {
  if (!z.uuid().safeParse(deliveryId).success) throw new AppError('not_found', `delivery ${deliveryId} not found`, 'deliveryId');
  const [d] = await tx
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.tenantId, tenantId), eq(deliveries.id, deliveryId)))
    .for('update');
  if (!d) throw new AppError('not_found', `delivery ${deliveryId} not found`, 'deliveryId');
  return d;
}

async function audit(tx: Tx, ctx: OperatorContext, action: AuditAction, d: Delivery, reason: string | null, details: Record<string, unknown> = {}) {
  await tx.insert(auditLog).values({
    tenantId: ctx.tenantId,
    actor: ctx.actor,
    action,
    deliveryId: d.id,
    reason,
    details: { fromStatus: d.status, messageKey: d.messageKey, ...details },
    createdAt: ctx.now,
  });
}

/** Refuses a send after the reminder's expiry instant; the message names it in the event's zone (domain/staff-time.ts). */
async function requireBeforeExpiry(tx: Tx, d: Delivery, now: Date, verb: string): Promise<void> {
  if (!d.reminderId) return;
  const [r] = await tx
    .select({ expiresAt: reminders.expiresAt, zone: events.timeZone })
    .from(reminders)
    .innerJoin(events, eq(events.id, reminders.eventId))
    .where(eq(reminders.id, d.reminderId));
  if (r && now.getTime() >= r.expiresAt.getTime()) {
    throw new AppError(
      'invalid_state',
      `cannot ${verb}: the reminder's expiry instant ${formatStaffTime(r.expiresAt, r.zone)} has passed, and a reminder is never sent late`,
      'deliveryId',
    );
  }
}

/**
 * For a webhook delivery: refuses while the sending organisation's endpoint is switched off (module doc).
 * Reads the settings FOR SHARE (through the reminder's world), as the send path does.
 * @throws AppError invalid_state naming the reason the endpoint was switched off.
 */
async function requireWebhookEnabled(tx: Tx, d: Delivery, verb: string): Promise<void> {
  if (d.channel !== 'webhook' || !d.reminderId) return;
  const w = await loadReminderWorld(tx, d.reminderId, 'share');
  if (w && !w.settings?.webhookEnabled) {
    const why = w.settings?.webhookDisabledReason ? ` (${w.settings.webhookDisabledReason})` : '';
    throw new AppError(
      'invalid_state',
      `cannot ${verb}: the webhook endpoint is switched off${why}; switch it on again in the notification settings first`,
      'deliveryId',
    );
  }
}

/** Puts a delivery back on the queue now, under the same message key, with a fresh retry budget. */
async function requeue(tx: Tx, d: Delivery, now: Date, reason: string) {
  const moved = await transitionDelivery(tx, d.id, 'retrying', {
    statusReason: reason,
    nextAttemptAt: now,
    leaseExpiresAt: null,
    repairOwner: null,
  });
  if (!moved) throw new AppError('invalid_state', `delivery is ${d.status}`, 'deliveryId');
  await tx.update(deliveries).set({ failureCount: 0 }).where(eq(deliveries.id, d.id));
  await enqueueJob(tx, TASK.deliver, { deliveryId: d.id }, { jobKey: `deliver:${d.id}`, jobKeyMode: 'replace' });
}

/**
 * Replays a dead letter: same message key, same identity, fresh retry budget, sent by the next worker.
 * @throws AppError invalid_state when the delivery is not `dead` (an accepted one is refused by name), its
 *   reminder's expiry instant has passed, or it is a webhook delivery and the endpoint is switched off;
 *   not_found for another tenant's id.
 */
export async function replayDelivery(db: Db, ctx: OperatorContext, deliveryId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'operate');
    const d = await lockOwnDelivery(tx, ctx.tenantId, deliveryId);
    if (['accepted', 'delivered', 'bounced', 'complained'].includes(d.status)) {
      throw new AppError('invalid_state', `replay refused: the provider already accepted this message (${d.status})`, 'deliveryId');
    }
    if (d.status !== 'dead') throw new AppError('invalid_state', `only dead letters can be replayed; this delivery is ${d.status}`, 'deliveryId');
    await requireBeforeExpiry(tx, d, ctx.now, 'replay');
    await requireWebhookEnabled(tx, d, 'replay');
    await requeue(tx, d, ctx.now, `replayed by ${ctx.actor}`);
    await audit(tx, ctx, 'replay', d, null, { repairOwner: d.repairOwner, lastError: d.lastError });
  });
}

/**
 * Discards a dead letter or an unknown outcome for good, with the operator's reason.
 * @throws AppError validation (field `reason`) without a reason; invalid_state for other statuses.
 */
export async function discardDelivery(db: Db, ctx: OperatorContext, deliveryId: string, reason: string): Promise<void> {
  const why = parseReason(reason);
  await db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'operate');
    const d = await lockOwnDelivery(tx, ctx.tenantId, deliveryId);
    const moved = await transitionDelivery(tx, d.id, 'discarded', { statusReason: `discarded by ${ctx.actor}: ${why}`, leaseExpiresAt: null, nextAttemptAt: null });
    if (!moved) throw new AppError('invalid_state', `only dead letters and unknown outcomes can be discarded; this delivery is ${d.status}`, 'deliveryId');
    await audit(tx, ctx, 'discard', d, why);
  });
}

/** An unknown outcome that a person confirmed went out (e.g. the recipient has it). @throws AppError invalid_state unless `unknown`. */
export async function markDeliverySent(db: Db, ctx: OperatorContext, deliveryId: string, reason: string): Promise<void> {
  const why = parseReason(reason);
  await db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'operate');
    const d = await lockOwnDelivery(tx, ctx.tenantId, deliveryId);
    if (d.status !== 'unknown') throw new AppError('invalid_state', `only unknown outcomes can be marked as sent; this delivery is ${d.status}`, 'deliveryId');
    await transitionDelivery(tx, d.id, 'accepted', { statusReason: `marked as sent by ${ctx.actor}: ${why}`, acceptedAt: ctx.now });
    await audit(tx, ctx, 'mark_sent', d, why);
  });
}

/**
 * Sends an unknown outcome again: a new attempt under the same message key. The recipient may get it twice
 * (over SMTP nothing can rule that out); the audit entry records who accepted that risk.
 * @throws AppError invalid_state unless `unknown`, past the expiry instant, or a webhook delivery while the
 *   endpoint is switched off.
 */
export async function sendDeliveryAgain(db: Db, ctx: OperatorContext, deliveryId: string, reason: string): Promise<void> {
  const why = parseReason(reason);
  await db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'operate');
    const d = await lockOwnDelivery(tx, ctx.tenantId, deliveryId);
    if (d.status !== 'unknown') throw new AppError('invalid_state', `only unknown outcomes can be sent again; this delivery is ${d.status}`, 'deliveryId');
    await requireBeforeExpiry(tx, d, ctx.now, 'send again');
    await requireWebhookEnabled(tx, d, 'send again');
    await requeue(tx, d, ctx.now, `sent again by ${ctx.actor} (the recipient may get it twice)`);
    await audit(tx, ctx, 'send_again', d, why, { warning: 'the recipient may receive this message twice' });
  });
}
