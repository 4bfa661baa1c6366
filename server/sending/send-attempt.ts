/**
 * Step 2's provider call and its outcome (server/sending/send-reminder.ts module doc): for a delivery prepared in
 * `sending` (server/sending/prepare-attempt.ts), ask an idempotent provider first when the last attempt was
 * ambiguous, call the provider, hide links and credentials in what it answered, and record the classified outcome
 * (domain/sending/outcome.ts) in one transaction — with the retry job, the suppression, the switched-off endpoint
 * or the alerts check it calls for.
 */
import type { EmailChannel, Outcome, SmsChannel, WebhookChannel } from '@/channels/types';
import { disableWebhook } from '@/db/queries/scheduling/domain-events';
import { redactLink } from './compose-message';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { pushBackSendSlots } from '@/db/queries/platform/rate-limit';
import type { Tx } from '@/db/client';
import { lockDelivery, transitionDelivery, type AttemptEnd } from '@/db/queries/sending/delivery';
import { recordAcceptedMany } from '@/db/queries/sending/outcomes';
import { messageIdFor } from '@/domain/keys';
import { decideAfterOutcome } from '@/domain/sending/outcome';
import { defaultRetryPolicy } from '@/domain/sending/retry';
import { TASK } from '@/jobs/registry';
import { adoptUnmatchedReports, reportSourceOf } from '@/server/reports/reports';
import { addSuppression } from '@/server/suppressions/suppressions';
import { isAuthRejection } from '@/domain/alerts/provider-auth';
import { maskCredentials } from '@/domain/sending/credential-mask';
import type { DeliverResult, SendDeps } from './send-reminder';
import type { Prepared } from './prepare-attempt';

/** A delivery prepared in `sending`, ready for its provider call. */
export type ReadyAttempt = Exclude<Prepared, { stop: DeliverResult }>;

/** The provider call of a prepared attempt, then its outcome recorded (see {@link recordOutcome}). */
export async function attempt(deps: SendDeps, prep: ReadyAttempt): Promise<DeliverResult> {
  return recordOutcome(deps, prep, await callProvider(deps, prep));
}

/**
 * The provider call of a prepared attempt (an idempotent provider asked first when the last attempt was ambiguous):
 * its classified outcome, with links and credentials hidden in what the provider answered. Never throws for the
 * provider: an adapter that throws is an `ambiguous` outcome.
 */
export async function callProvider(deps: SendDeps, prep: ReadyAttempt): Promise<Outcome> {
  const { w, d, rendered, envelope, channel, reconcileFirst, now, link } = prep;
  deps.observe?.({ phase: 'call', delivery: d, reminder: w.reminder, at: deps.clock.now() });

  const signal = AbortSignal.timeout(deps.providerTimeoutMs ?? 30_000);
  let outcome: Outcome | null = null;
  if (reconcileFirst) {
    const found = await (channel as EmailChannel).lookup!(d.messageKey, signal).catch((e: Error) => ({ error: e.message }));
    if ('found' in found && found.found) outcome = { class: 'accepted', providerId: found.providerId, response: 'reconciled: the provider already had this message key' };
  }
  if (!outcome) {
    try {
      const opts = { idempotencyKey: d.messageKey, signal };
      if (rendered.channel === 'sms') outcome = await (channel as SmsChannel).send(rendered.sms, opts);
      else if (rendered.channel === 'webhook') outcome = await (channel as WebhookChannel).send(rendered.webhook, { ...opts, now });
      else outcome = await (channel as EmailChannel).send({ ...rendered.email, messageId: messageIdFor(d.messageKey), ...envelope }, opts);
    } catch (e) {
      // An adapter that throws broke its contract; we cannot know whether anything went out.
      outcome = { class: 'ambiguous', code: 'ADAPTER_ERROR', message: e instanceof Error ? e.message : String(e) };
    }
  }
  // A provider that echoes the body (the SMS API does) must not store the person's preferences link either — nor a
  // piece of it: the adapter cuts a long answer to its first 500 characters, which may end inside the link, where
  // the exact match cannot see it. Every credential-bearing link, whole or cut (domain/sending/credential-mask.ts), is
  // hidden too, in the answer and in the error message alike.
  const hide = (text: string) => maskCredentials(redactLink(text, link)).text;
  const stored: Outcome = {
    ...outcome,
    ...(outcome.response ? { response: hide(outcome.response) } : {}),
    ...('message' in outcome && typeof outcome.message === 'string' ? { message: hide(outcome.message) } : {}),
  } as Outcome;
  deps.observe?.({ phase: 'outcome', delivery: d, reminder: w.reminder, outcome: stored, at: deps.clock.now() });
  return stored;
}

/** What the outcome rules (domain/sending/outcome.ts) make of `outcome` for this attempt's delivery at `now`. */
function nextAfter(deps: SendDeps, prep: ReadyAttempt, outcome: Outcome, now: Date) {
  const { w, d, channel } = prep;
  return decideAfterOutcome({
    outcome,
    idempotentProvider: channel.idempotent === true,
    failuresSoFar: d.failureCount,
    // Every earlier attempt that did not end the delivery was either a budgeted failure or a deferral.
    deferredSoFar: Math.max(0, d.attemptCount - 1 - d.failureCount),
    now,
    expiresAt: w.reminder.expiresAt,
    policy: deps.retryPolicies?.[d.provider] ?? deps.retry ?? defaultRetryPolicy,
    random: (deps.random ?? Math.random)(),
  });
}

/**
 * Records many attempts' outcomes in the caller's transaction `tx` (the batch path's group commit), each exactly as
 * {@link recordOutcomeIn} would: the outcome rules decide each one; those that end `accepted` at a provider whose
 * reports name the delivery itself (SMTP: a DSN's VERP address; no provider message id to adopt by) are written in one
 * statement (db/queries/sending/outcomes.ts `recordAcceptedMany`), and the reports waiting for them, if any, settled
 * one by one (`adoptUnmatchedReports`); every other outcome goes through {@link recordOutcomeIn}.
 * @returns each item's result, in the order given.
 */
export async function recordOutcomesIn(deps: SendDeps, tx: Tx, items: readonly { prep: ReadyAttempt; outcome: Outcome }[]): Promise<DeliverResult[]> {
  const now = deps.clock.now();
  const results: (DeliverResult | undefined)[] = new Array(items.length);
  const fast: { i: number; providerMessageId: string | null }[] = [];
  items.forEach((it, i) => {
    if (it.outcome.class !== 'accepted' || reportSourceOf(it.prep.d.provider)) return;
    const next = nextAfter(deps, it.prep, it.outcome, now);
    if (next.status === 'accepted') fast.push({ i, providerMessageId: next.providerMessageId ?? null });
  });
  if (fast.length) {
    const { moved, withReports } = await recordAcceptedMany(
      tx,
      fast.map(({ i, providerMessageId }) => ({ deliveryId: items[i].prep.d.id, attemptId: items[i].prep.attemptId, providerMessageId, providerResponse: items[i].outcome.response ?? null })),
      now,
    );
    for (const { i } of fast) {
      const id = items[i].prep.d.id;
      // Not moved (recovery or a report moved it on meanwhile): what the single record answers too.
      if (!moved.has(id) || !withReports.has(id)) results[i] = { status: 'accepted' };
      else {
        const row = await lockDelivery(tx, id);
        results[i] = { status: row ? (await adoptUnmatchedReports(tx, row, now)).status : 'accepted' };
      }
    }
  }
  for (let i = 0; i < items.length; i++) if (!results[i]) results[i] = await recordOutcomeIn(deps, tx, items[i].prep, items[i].outcome);
  return results as DeliverResult[];
}

/** Records one attempt's outcome in its own transaction (see {@link recordOutcomeIn}). */
export async function recordOutcome(deps: SendDeps, prep: ReadyAttempt, outcome: Outcome): Promise<DeliverResult> {
  return deps.db.transaction((tx) => recordOutcomeIn(deps, tx, prep, outcome));
}

/**
 * Records one attempt's outcome in the caller's transaction `tx` (the attempt's end and the delivery's move in the
 * same statement): `accepted` (adopting reports that came first), `retrying` with a `deliver` job at the next attempt,
 * `unknown`, `failed` (suppressing the address when the provider says so) or `dead` (switching a 410 Gone webhook off);
 * a provider refusing our credentials queues an alerts check. Everything it writes is about this one delivery (and
 * its address, endpoint or provider), so several outcomes may share a transaction (server/sending/send-batch.ts).
 */
export async function recordOutcomeIn(deps: SendDeps, tx: Tx, prep: ReadyAttempt, outcome: Outcome): Promise<DeliverResult> {
  const { w, d, attemptId } = prep;
  const now = deps.clock.now();
  const deliveryId = d.id;
  const err = outcome.class === 'accepted' ? null : outcome;
  // Recorded in the same statement as the delivery's move below.
  const ended: AttemptEnd = {
    attemptId,
    endedAt: now,
    outcome: outcome.class,
    errorCode: err?.code ?? null,
    errorMessage: err?.message ?? null,
    // The provider's own words, success or failure (e.g. `421 4.3.2 Service shutting down`).
    providerResponse: outcome.response ?? null,
  };
  const next = nextAfter(deps, prep, outcome, now);
  if (next.status === 'accepted') {
    const accepted = await transitionDelivery(tx, deliveryId, 'accepted', { statusReason: null, providerMessageId: next.providerMessageId, acceptedAt: now, leaseExpiresAt: null }, { end: ended });
    // A fast provider may have reported on the message before this transaction committed its id (issue #10).
    const adopted = accepted ? await adoptUnmatchedReports(tx, accepted, now) : null;
    return { status: adopted?.status ?? 'accepted' };
  }
  if (outcome.class === 'rate_limited' && outcome.retryAfterMs && deps.rateLimits?.[d.provider]) {
    // The provider asked everyone to wait: push the shared schedule so other workers wait too.
    await pushBackSendSlots(tx, `provider:${d.provider}`, new Date(now.getTime() + outcome.retryAfterMs));
  }
  const moved = await transitionDelivery(tx, deliveryId, next.status, {
    statusReason: next.reason,
    lastError: err ? `${err.code}: ${err.message}` : null,
    leaseExpiresAt: null,
    nextAttemptAt: next.status === 'retrying' ? next.nextAttemptAt : null,
    repairOwner: next.status === 'dead' ? next.repairOwner : null,
    incrementFailures: next.countsAsFailure,
  }, { end: ended });
  // A DSN that named the delivery while this attempt was under way waited for its outcome (issue #10).
  const settled = moved ? await adoptUnmatchedReports(tx, moved, now) : null;
  if (next.status === 'failed' && next.suppress) {
    await addSuppression(tx, w.sendingTenant.id, {
      address: d.address,
      reason: next.suppressAs ?? 'bounced',
      channel: d.channel,
      source: `provider rejected the ${d.channel === 'sms' ? 'number' : 'address'} (${err?.code}) on ${now.toISOString()}`,
    });
  }
  if (next.status === 'dead' && next.disableEndpoint) {
    // The receiver said 410 Gone: no more deliveries to it until an admin sets it up again.
    await disableWebhook(tx, w.sendingTenant.id, `the receiver at ${d.address} answered ${err?.code ?? '410'} on ${now.toISOString()}`, now, d.address);
  }
  if (next.status === 'retrying') {
    // Same delivery, same message key: the retry never re-claims.
    await enqueueJob(tx, TASK.deliver, { deliveryId }, { runAt: next.nextAttemptAt, jobKey: `deliver:${deliveryId}`, jobKeyMode: 'replace' });
  }
  // Alerts (issue #10 §6): a provider refusing our credentials is evaluated now, not at the next minute sweep.
  if (err && isAuthRejection({ provider: d.provider, outcome: err.class, errorCode: err.code, errorMessage: err.message, providerResponse: err.response })) {
    await enqueueJob(tx, TASK.alertsCheck, {}, { jobKey: TASK.alertsCheck });
  }
  return { status: settled?.status ?? next.status, reason: next.reason };
}
