/**
 * The send path (DESIGN §4, invariants 3–6). Two steps before any provider call, so a crash at any point leaves
 * a state that recovery understands:
 *
 *  1. `sendReminder(reminderId)` — under row locks (event, booking FOR SHARE, then the reminder FOR UPDATE):
 *     re-read event, booking, schedule version and rule (stale → `cancelled`/`superseded`), check expiry
 *     (→ `expired`), validate template data (invalid → `failed`, naming the field, nothing claimed), then CLAIM
 *     the message key with one `INSERT … ON CONFLICT DO NOTHING` and mark the reminder `done`. A second claimant
 *     stops here.
 *  2. the send-time checks — the suppression list and the person's preferences *at send time*, the webhook
 *     endpoint, the provider's rate — then the move to `sending` under a lease with the attempt's start; commit;
 *     render and call the provider; record the classified outcome (one transaction).
 *
 * Inline (the `send_reminder` job), step 2's checks and the move to `sending` run in step 1's transaction on the
 * world it read under its locks: one transaction before the provider call, one after (issue #11: 11 statements
 * per accepted email, down from 26). `deliver(deliveryId)` — the `deliver` job: retries, rate-limit waits,
 * recovered claims — locks the delivery, re-reads the world (event and booking FOR SHARE) and runs the same
 * step 2. If step 1's transaction fails after the claim, nothing of it commits: the reminder stays `dispatched`
 * and the job (or the stale-dispatch sweep) runs it again.
 *
 * Outcomes (domain/sending/outcome.ts): accepted → `accepted`; transient/rate-limited → `retrying` with a next
 * attempt instant (never past the reminder's expiry: then `expired`), same message key; ambiguous →
 * `unknown` over SMTP (never resent automatically) or a same-key retry on an idempotent HTTP provider, which
 * first looks the key up; rejected → `failed` (bad address, suppressed) or `dead` with a repair owner.
 * A provider's send rate is shared by all workers through PostgreSQL (db/queries/platform/rate-limit.ts).
 *
 * The batch send path (server/sending/send-batch.ts: due reminders of one tenant and channel in one job) runs the same
 * two steps for many reminders with fewer statements — step 1's decisions through {@link judgeReminder} and step 2's
 * through prepareAttempt, the very code below — so the rules exist once.
 *
 * This module is the entry (step 1, `sendReminder`; the `deliver` job's lock and re-read). Its parts:
 * server/sending/send-checks.ts (what is read off the world: template data, provider, quiet hours, preferences),
 * prepare-attempt.ts (step 2's send-time checks and the move to `sending`) and send-attempt.ts (the provider call and
 * the outcome recorded).
 */
import type { EmailChannel, SmsChannel, WebhookChannel } from '@/channels/types';
import type { EmailProvider, Provider } from '@/domain/vocabulary';
import { TASK } from '@/jobs/registry';
import { addressFor, invitationMethodOf, type LinkSettings } from './compose-message';
import { inviteSequenceOf } from '@/domain/calendar/invite-sequence';
import type { Db, Tx } from '@/db/client';
import { enqueueJob } from '@/db/queries/platform/jobs';
import {
  claimMessageKey,
  holdReminder,
  loadReminderWorld,
  lockDelivery,
  setReminderStatus,
  transitionDelivery,
  type ClaimInput,
  type ReminderWorld,
} from '@/db/queries/sending/delivery';
import { messageKeyOf } from '@/domain/keys';
import { decideSend } from '@/domain/sending/send-decision';
import type { RetryPolicy } from '@/domain/sending/retry';
import { parseMessageData } from '@/emails';
import type { Clock } from '@/server/platform/clock';
import type { SenderIdentityConfig } from '@/domain/organisations/sender-identity';
import type { SendObservation } from '@/server/dashboards/metrics';
import { audienceOf, messageData, messageLanguageOf, optedOut, providerFor, quietHoursHold, templateOf, unsubscribedByLink, type ClaimedLocale, type TemplateDataResult } from './send-checks';
import { prepareAttempt, type Prepared } from './prepare-attempt';
import { attempt } from './send-attempt';
import type { SendWindow } from './send-window';

export interface SendDeps {
  db: Db;
  /** The SMTP channel (or the only channel, in tests). */
  channel: EmailChannel;
  /** Channels by provider; a tenant's `email_provider` picks one at claim time. Falls back to `channel` for smtp. */
  channels?: Partial<Record<EmailProvider, EmailChannel>>;
  /** The SMS adapter (Twilio-compatible), when this worker has one configured. */
  sms?: SmsChannel;
  /** The webhook adapter (every worker can have one: it needs no credentials of ours). */
  webhook?: WebhookChannel;
  /** SMS sender when the tenant names none (`SMS_FROM`), and the status-callback URL given to the provider. */
  smsFrom?: string;
  smsStatusCallbackUrl?: string;
  /** Public base URL and secret of the signed preferences link in every message (none without them). */
  links?: LinkSettings;
  /**
   * The VERP key (server/sending/bounce-address.ts `bounceAddressKey`): with it, every message sent over SMTP has its
   * delivery's bounce address as envelope sender (issue #10 §4); without it, the From address (no async bounces).
   */
  bounceKey?: string;
  /**
   * The operator's sender settings (PUNCTUAL_MAIL_FROM, PUNCTUAL_SENDER_DOMAINS; server/organisations/sender-identity.ts): which
   * address each message goes From. Default: this process's environment.
   */
  senderIdentity?: SenderIdentityConfig;
  /** Provider send rates shared by all workers, per minute (unset = unlimited). */
  rateLimits?: Partial<Record<Provider, number>>;
  /** Retry policy per provider (falls back to `retry`, then the default). */
  retryPolicies?: Partial<Record<Provider, RetryPolicy>>;
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
  /**
   * Builds template data from the rows (default {@link buildTemplateData}; `claimed`: the language recorded on the
   * delivery, for a retry); tests replace it to model bad data.
   */
  templateData?: (w: ReminderWorld, claimed?: ClaimedLocale | null) => Record<string, unknown>;
  /**
   * The worker's send window (server/sending/send-window.ts): how many deliveries of this process the batch path may
   * hold in `sending` awaiting their provider's answer. Unset: each batch has a window of its own.
   */
  sendWindow?: SendWindow;
  /** Told when a provider attempt starts and when the provider answered (metrics and logs, server/dashboards/metrics.ts); must not throw. */
  observe?: (e: SendObservation) => void;
}

export type SendReminderResult =
  | { kind: 'skipped'; reason: string }
  | { kind: 'terminated'; status: 'cancelled' | 'superseded' | 'expired' | 'failed'; reason: string }
  | { kind: 'already_claimed'; messageKey: string }
  | { kind: 'delivered'; deliveryId: string; result: DeliverResult };

export type DeliverResult = { status: string; reason?: string | null };

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
  const step1 = await db.transaction(async (tx): Promise<SendReminderResult | { kind: 'prepared'; deliveryId: string; prep: Prepared }> => {
    const w = await loadReminderWorld(tx, reminderId, 'update');
    if (!w) return { kind: 'skipped', reason: 'reminder not found' };
    const now = clock.now();
    const judged = await judgeReminder(deps, tx, w, now);
    if ('stop' in judged) return judged.stop;
    // The claim, and the reminder `done`, in one statement; the claim also fixes which of the organisation's own texts
    // (if any) its words come from (db/queries/sending/delivery.ts claimMessageKey).
    const delivery = await claimMessageKey(tx, judged.claim, { reminderDone: true });
    if (!delivery) return { kind: 'already_claimed', messageKey: judged.claim.messageKey };
    if (opts.deliverInline === false) {
      await enqueueJob(tx, TASK.deliver, { deliveryId: delivery.id }, { jobKey: `deliver:${delivery.id}` });
      return { kind: 'delivered', deliveryId: delivery.id, result: { status: 'claimed' } };
    }
    // Step 2's checks and the move to `sending` in THIS transaction, on the world just read under the locks
    // (event → booking → reminder; the send decision above is the re-read of invariant 4).
    return { kind: 'prepared', deliveryId: delivery.id, prep: await prepareAttempt(deps, tx, w, delivery, undefined, now, judged.parsed) };
  });
  if (step1.kind !== 'prepared') return step1;
  const { prep } = step1;
  return { kind: 'delivered', deliveryId: step1.deliveryId, result: 'stop' in prep ? prep.stop : await attempt(deps, prep) };
}

/** What {@link judgeReminder} decided: the reminder stopped (its state already written), or the claim to make. */
export type Judged = { stop: SendReminderResult } | { claim: ClaimInput; parsed: TemplateDataResult };

/**
 * Step 1's decisions for one reminder whose world `w` was read under the send path's locks in `tx` (the single path,
 * {@link sendReminder}, and the batch path, server/sending/send-batch.ts, both call this: one copy of the rules):
 * the re-read of invariant 4 (domain/sending/send-decision.ts: not dispatched → skip; stale → `cancelled` /
 * `superseded`; past its expiry instant → `expired`), quiet hours at send time (→ held: the reminder waits, a
 * wake-up is queued), the person's preferences (→ `cancelled`; a one-click unsubscribe and an announcement are
 * claimed and end `suppressed` at send time instead), an address on the channel (none → `cancelled`), the template
 * data validated (invalid → `failed`, naming the field, nothing claimed) and the message's language. Every stop is
 * written to the reminder in `tx` before returning; otherwise returns what the claim records and the validated data.
 * @param now the database's clock (server/platform/clock.ts), read once for the whole decision.
 */
export async function judgeReminder(deps: SendDeps, tx: Tx, w: ReminderWorld, now: Date): Promise<Judged> {
  const reminderId = w.reminder.id;
  const decision = decideSend(
    { reminder: w.reminder, event: w.event, booking: w.booking, rule: w.rule, announcement: audienceOf(w) },
    now,
  );
  if (decision.action === 'skip') return { stop: { kind: 'skipped', reason: decision.reason } };
  if (decision.action === 'terminate') {
    await setReminderStatus(tx, reminderId, decision.status, decision.reason);
    return { stop: { kind: 'terminated', status: decision.status, reason: decision.reason } };
  }
  const hold = quietHoursHold(w, now);
  if (hold) {
    await holdReminder(tx, reminderId, hold.until, hold.reason);
    await enqueueJob(tx, TASK.dispatchDue, { reason: 'wake' }, { runAt: hold.until, jobKey: `wake:quiet:${reminderId}` });
    return { stop: { kind: 'skipped', reason: hold.reason } };
  }
  // The person's preferences, re-read when the message falls due: a channel they no longer take ends here
  // (ticking it again before this instant would have kept it).
  const optOut = w.reminder.channel === 'webhook' ? null : optedOut(w);
  // A one-click unsubscribe is kept like a suppression (issue #10 §5): the claim goes ahead and the send-time
  // check in deliver() ends the delivery `suppressed`, so staff see the message and why it did not go out.
  // An announcement's message is claimed too: staff see it `suppressed` with the reason, per person (who did not hear it).
  if (optOut && !unsubscribedByLink(w) && w.reminder.kind !== 'announcement') {
    await setReminderStatus(tx, reminderId, 'cancelled', optOut);
    return { stop: { kind: 'terminated', status: 'cancelled', reason: optOut } };
  }
  const address = addressFor(w, w.reminder.channel);
  if (!address) {
    const reason = w.reminder.channel === 'sms' ? 'no mobile number on file for this participant' : w.reminder.channel === 'webhook' ? 'the webhook endpoint is switched off or not set' : 'no email address on file';
    await setReminderStatus(tx, reminderId, 'cancelled', reason);
    return { stop: { kind: 'terminated', status: 'cancelled', reason } };
  }
  const template = templateOf(w);
  const parsed: TemplateDataResult = parseMessageData(template, await messageData(deps, w));
  if (!parsed.ok) {
    const reason = `template data invalid — ${parsed.message}`;
    await setReminderStatus(tx, reminderId, 'failed', reason);
    return { stop: { kind: 'terminated', status: 'failed', reason } };
  }
  // The language its words are written in is fixed here, with the claim (a webhook carries no text).
  const language = w.reminder.channel === 'webhook' ? null : messageLanguageOf(w);
  return {
    parsed,
    claim: {
      tenantId: w.reminder.tenantId,
      reminderId,
      messageKey: messageKeyOf(w.reminder),
      channel: w.reminder.channel,
      address,
      template,
      messageLocale: language?.locale ?? null,
      localeReason: language?.reason ?? null,
      provider: providerFor(w, w.reminder.channel),
      leaseExpiresAt: new Date(now.getTime() + (deps.claimLeaseMs ?? 60_000)),
      // Whose name it goes out in (issue #12); re-decided before every attempt (prepareAttempt).
      sendingTenantId: w.sendingTenant.id,
      // The SEQUENCE of its calendar invitation (booking-change emails only), read under the booking's lock and fixed
      // here: a retry after a later change keeps it; that change's own message carries the higher value.
      inviteSequence: invitationMethodOf(w, w.reminder.channel) ? inviteSequenceOf(w.booking) : null,
    },
  };
}

/**
 * Step 2: one provider attempt for a claimed or retrying delivery (see module doc). Safe to call twice:
 * the guarded `claimed|retrying → sending` transition lets only one caller through.
 * @param slotAt a send slot this delivery already reserved under the provider's rate limit (job payload).
 * @throws only for infrastructure errors (the job is retried; the delivery's state is unchanged or `sending`
 *   under a lease, which recovery handles).
 */
export async function deliver(deps: SendDeps, deliveryId: string, slotAt?: Date): Promise<DeliverResult> {
  const { db, clock } = deps;
  const prep = await db.transaction(async (tx): Promise<Prepared> => {
    const d = await lockDelivery(tx, deliveryId);
    if (!d) return { stop: { status: 'missing' } as DeliverResult };
    if (d.status !== 'claimed' && d.status !== 'retrying') return { stop: { status: d.status, reason: 'not sendable' } };
    // Whose name it goes out in is decided for the address this delivery was claimed for (d.address), not the
    // contact's current one (review of issue #12).
    const w = d.reminderId ? await loadReminderWorld(tx, d.reminderId, 'share', { address: d.address }) : null;
    if (!w) return { stop: { status: d.status, reason: 'reminder missing' } };
    const now = clock.now();
    // The last re-read before the provider call (invariant 4). The reminder itself is `done` (it has this
    // delivery), so judge the world as if it were still dispatched.
    const decision = decideSend(
      { reminder: { ...w.reminder, status: 'dispatched' }, event: w.event, booking: w.booking, rule: w.rule, announcement: audienceOf(w) },
      now,
    );
    if (decision.action === 'terminate') {
      await transitionDelivery(tx, deliveryId, decision.status, { statusReason: decision.reason, leaseExpiresAt: null, nextAttemptAt: null });
      return { stop: { status: decision.status, reason: decision.reason } };
    }
    return prepareAttempt(deps, tx, w, d, slotAt, now);
  });
  if ('stop' in prep) return prep.stop;
  return attempt(deps, prep);
}
