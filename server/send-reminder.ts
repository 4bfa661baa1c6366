/**
 * The send path (DESIGN §4, invariants 3–6). Two steps, each with its own transaction before any provider
 * call, so a crash at any point leaves a state that recovery understands:
 *
 *  1. `sendReminder(reminderId)` — under a row lock on the reminder: re-read event, booking, schedule
 *     version and rule (stale → `cancelled`/`superseded`), check expiry (→ `expired`), validate template data
 *     (invalid → `failed`, naming the field, nothing claimed), then CLAIM the message key with one
 *     `INSERT … ON CONFLICT DO NOTHING` and mark the reminder `done`. A second claimant stops here.
 *  2. `deliver(deliveryId)` — re-check booking/event/version and the suppression list *at send time*, move
 *     the delivery to `sending` under a lease and record the attempt start; commit; render and call the
 *     provider; record the classified outcome.
 *
 * Outcomes: accepted → `accepted`; transient/rate-limited → `retrying` with a next attempt instant (never
 * past the reminder's expiry: then `expired`), same message key; ambiguous → `unknown`, never resent
 * automatically over SMTP; rejected → `failed`.
 */
import type { EmailChannel, Outcome } from '../channels/types';
import type { Db } from '../db/client';
import { enqueueJob } from '../db/queries/jobs';
import {
  claimMessageKey,
  findSuppression,
  finishAttempt,
  loadReminderWorld,
  lockDelivery,
  setReminderStatus,
  startAttempt,
  transitionDelivery,
  type ReminderWorld,
} from '../db/queries/delivery';
import { messageIdFor, reminderMessageKey } from '../domain/keys';
import { decideSend } from '../domain/send-decision';
import { decideAfterOutcome } from '../domain/outcome';
import { defaultRetryPolicy, type RetryPolicy } from '../domain/retry';
import { isTemplateId, parseTemplateData, renderReminderEmail, type ReminderTemplateData } from '../emails';
import type { Clock } from './clock';
import { DELIVER_TASK } from './dispatch';

export interface SendDeps {
  db: Db;
  channel: EmailChannel;
  clock: Clock;
  /** Lease while `sending`: after it, recovery marks the delivery `unknown`. ms. */
  sendLeaseMs?: number;
  /** Lease while `claimed`: after it, recovery resumes the delivery. ms. */
  claimLeaseMs?: number;
  /** Per-call provider timeout, ms (default 30 000). */
  providerTimeoutMs?: number;
  retry?: RetryPolicy;
  /** Jitter source, a draw in [0, 1) (default Math.random); tests fix it. */
  random?: () => number;
  /** Builds template data from the rows (default {@link buildTemplateData}); tests replace it to model bad data. */
  templateData?: (w: ReminderWorld) => Record<string, unknown>;
}

export type SendReminderResult =
  | { kind: 'skipped'; reason: string }
  | { kind: 'terminated'; status: 'cancelled' | 'superseded' | 'expired' | 'failed'; reason: string }
  | { kind: 'already_claimed'; messageKey: string }
  | { kind: 'delivered'; deliveryId: string; result: DeliverResult };

export type DeliverResult = { status: string; reason?: string | null };

/**
 * Template data for one reminder, built from database rows (UTC instants as ISO strings). The result is
 * validated by the template's zod schema before any claim.
 */
export function buildTemplateData(w: ReminderWorld): Record<string, unknown> {
  const lead = w.event.roomOpenLeadMinutes ?? w.tenant.roomOpenLeadMinutes;
  return {
    tenantName: w.sendingTenant.name,
    recipientName: w.contact.name,
    role: w.booking.role,
    eventTitle: w.event.title,
    startsAt: w.event.startsAt?.toISOString(),
    endsAt: w.event.endsAt ? w.event.endsAt.toISOString() : null,
    allDay: w.event.allDay,
    eventTimeZone: w.event.timeZone,
    recipientTimeZone: w.contact.timeZone,
    locale: w.contact.locale,
    location: w.event.location,
    notes: w.event.description,
    roomUrl: w.event.roomUrl,
    roomOpensAt: w.event.roomUrl ? new Date(w.event.startsAt.getTime() - lead * 60_000).toISOString() : null,
    participantCount: w.booking.role === 'host' ? w.confirmedParticipants : null,
  };
}

/**
 * Step 1 for one reminder (see module doc), then step 2 in the same process when this call made the claim
 * (or, with `deliverInline: false`, as a `deliver` job in the claim's transaction).
 * @throws only for infrastructure errors (database down): the job is then retried by graphile-worker, and
 *   the claim keeps the retry duplicate-free.
 */
export async function sendReminder(
  deps: SendDeps,
  reminderId: string,
  opts: { deliverInline?: boolean } = {},
): Promise<SendReminderResult> {
  const { db, clock } = deps;
  const step1 = await db.transaction(async (tx): Promise<SendReminderResult | { kind: 'claimed'; deliveryId: string }> => {
    const w = await loadReminderWorld(tx, reminderId, true);
    if (!w) return { kind: 'skipped', reason: 'reminder not found' };
    const now = clock.now();
    const decision = decideSend(
      { reminder: w.reminder, event: w.event, booking: w.booking, rule: w.rule },
      now,
    );
    if (decision.action === 'skip') return { kind: 'skipped', reason: decision.reason };
    if (decision.action === 'terminate') {
      await setReminderStatus(tx, reminderId, decision.status, decision.reason);
      return { kind: 'terminated', status: decision.status, reason: decision.reason };
    }
    const template = w.rule!.template;
    const parsed = isTemplateId(template)
      ? parseTemplateData(template, (deps.templateData ?? buildTemplateData)(w))
      : ({ ok: false, field: 'template', message: `template: unknown template "${template}"` } as const);
    if (!parsed.ok) {
      const reason = `template data invalid — ${parsed.message}`;
      await setReminderStatus(tx, reminderId, 'failed', reason);
      return { kind: 'terminated', status: 'failed', reason };
    }
    const messageKey = reminderMessageKey({
      tenantId: w.reminder.tenantId,
      ruleId: w.reminder.ruleId,
      bookingId: w.reminder.bookingId,
      scheduleVersion: w.reminder.scheduleVersion,
      channel: w.reminder.channel,
    });
    const delivery = await claimMessageKey(tx, {
      tenantId: w.reminder.tenantId,
      reminderId,
      messageKey,
      address: w.contact.email,
      template,
      leaseExpiresAt: new Date(now.getTime() + (deps.claimLeaseMs ?? 60_000)),
    });
    await setReminderStatus(tx, reminderId, 'done', null);
    if (!delivery) return { kind: 'already_claimed', messageKey };
    if (opts.deliverInline === false) {
      await enqueueJob(tx, DELIVER_TASK, { deliveryId: delivery.id }, { jobKey: `deliver:${delivery.id}` });
    }
    return { kind: 'claimed', deliveryId: delivery.id };
  });
  if (step1.kind !== 'claimed') return step1;
  if (opts.deliverInline === false) return { kind: 'delivered', deliveryId: step1.deliveryId, result: { status: 'claimed' } };
  return { kind: 'delivered', deliveryId: step1.deliveryId, result: await deliver(deps, step1.deliveryId) };
}

/**
 * Step 2: one provider attempt for a claimed or retrying delivery (see module doc). Safe to call twice:
 * the guarded `claimed|retrying → sending` transition lets only one caller through.
 */
export async function deliver(deps: SendDeps, deliveryId: string): Promise<DeliverResult> {
  const { db, clock, channel } = deps;
  const prep = await db.transaction(async (tx) => {
    const d = await lockDelivery(tx, deliveryId);
    if (!d) return { stop: { status: 'missing' } as DeliverResult };
    if (d.status !== 'claimed' && d.status !== 'retrying') return { stop: { status: d.status, reason: 'not sendable' } };
    const w = d.reminderId ? await loadReminderWorld(tx, d.reminderId, false) : null;
    if (!w) return { stop: { status: d.status, reason: 'reminder missing' } };
    const now = clock.now();
    // The last re-read before the provider call (invariant 4). The reminder itself is `done` (it has this
    // delivery), so judge the world as if it were still dispatched.
    const decision = decideSend(
      { reminder: { ...w.reminder, status: 'dispatched' }, event: w.event, booking: w.booking, rule: w.rule },
      now,
    );
    if (decision.action === 'terminate') {
      await transitionDelivery(tx, deliveryId, decision.status, {
        statusReason: decision.reason,
        leaseExpiresAt: null,
        nextAttemptAt: null,
      });
      return { stop: { status: decision.status, reason: decision.reason } };
    }
    const suppression = await findSuppression(tx, [...new Set([w.tenant.id, w.sendingTenant.id])], d.address);
    if (suppression) {
      const reason = `address suppressed (${suppression.reason}, ${suppression.source}) since ${suppression.createdAt.toISOString()}`;
      await transitionDelivery(tx, deliveryId, 'suppressed', { statusReason: reason, leaseExpiresAt: null });
      return { stop: { status: 'suppressed', reason } };
    }
    const template = w.rule!.template;
    if (!isTemplateId(template)) throw new Error(`unknown template ${template}`);
    const parsed = parseTemplateData(template, (deps.templateData ?? buildTemplateData)(w));
    if (!parsed.ok) {
      const reason = `template data invalid — ${parsed.message}`;
      await transitionDelivery(tx, deliveryId, 'failed', { statusReason: reason, leaseExpiresAt: null });
      return { stop: { status: 'failed', reason } };
    }
    const rendered = await renderReminderEmail(template, parsed.data as ReminderTemplateData);
    const sending = await transitionDelivery(tx, deliveryId, 'sending', {
      statusReason: null,
      subject: rendered.subject,
      leaseExpiresAt: new Date(now.getTime() + (deps.sendLeaseMs ?? 120_000)),
      nextAttemptAt: null,
      incrementAttempts: true,
    });
    const attemptId = await startAttempt(tx, {
      tenantId: d.tenantId,
      deliveryId,
      attemptNo: sending!.attemptCount,
      startedAt: now,
    });
    return { w, d: sending!, rendered, attemptId };
  });
  if ('stop' in prep) return prep.stop!;
  const { w, d, rendered, attemptId } = prep;

  const signal = AbortSignal.timeout(deps.providerTimeoutMs ?? 30_000);
  let outcome: Outcome;
  try {
    outcome = await channel.send(
      {
        from: { name: w.sendingTenant.name, address: w.sendingTenant.senderEmail },
        to: { name: w.contact.name, address: d.address },
        subject: rendered.subject,
        html: rendered.html,
        text: rendered.text,
        messageId: messageIdFor(d.messageKey),
        headers: { 'X-Punctual-Message-Key': d.messageKey },
      },
      { idempotencyKey: d.messageKey, signal },
    );
  } catch (e) {
    // An adapter that throws broke its contract; we cannot know whether anything went out.
    outcome = { class: 'ambiguous', code: 'ADAPTER_ERROR', message: e instanceof Error ? e.message : String(e) };
  }
  return recordOutcome(deps, w, d.id, d.attemptCount, attemptId, outcome);
}

async function recordOutcome(
  deps: SendDeps,
  w: ReminderWorld,
  deliveryId: string,
  attemptNo: number,
  attemptId: string,
  outcome: Outcome,
): Promise<DeliverResult> {
  const { db, clock } = deps;
  const now = clock.now();
  return db.transaction(async (tx) => {
    const err = outcome.class === 'accepted' ? null : outcome;
    await finishAttempt(tx, attemptId, {
      endedAt: now,
      outcome: outcome.class,
      errorCode: err?.code ?? null,
      errorMessage: err?.message ?? null,
      providerResponse: outcome.class === 'accepted' ? (outcome.response ?? null) : null,
    });
    const next = decideAfterOutcome({
      outcome,
      attemptNo,
      now,
      expiresAt: w.reminder.expiresAt,
      policy: deps.retry ?? defaultRetryPolicy,
      random: (deps.random ?? Math.random)(),
    });
    if (next.status === 'accepted') {
      await transitionDelivery(tx, deliveryId, 'accepted', {
        statusReason: null,
        providerMessageId: next.providerMessageId,
        acceptedAt: now,
        leaseExpiresAt: null,
      });
      return { status: 'accepted' };
    }
    await transitionDelivery(tx, deliveryId, next.status, {
      statusReason: next.reason,
      leaseExpiresAt: null,
      nextAttemptAt: next.status === 'retrying' ? next.nextAttemptAt : null,
    });
    if (next.status === 'retrying') {
      // Same delivery, same message key: the retry never re-claims.
      await enqueueJob(tx, DELIVER_TASK, { deliveryId }, { runAt: next.nextAttemptAt, jobKey: `deliver:${deliveryId}`, jobKeyMode: 'replace' });
    }
    return { status: next.status, reason: next.reason };
  });
}
