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
 */
import { TASK } from '@/jobs/registry';
import type { EmailChannel, Outcome, SmsChannel, WebhookChannel } from '@/channels/types';
import type { Channel, EmailProvider, Provider, RepairOwner, TemplateId } from '@/domain/vocabulary';
import { disableWebhook } from '@/db/queries/scheduling/domain-events';
import { categoryOf, isEssential, optOutReason, readPreferences, readUnsubscribed } from '@/domain/notifications/preferences';
import { applyQuietHours, parseQuietHours } from '@/domain/notifications/quiet-hours';
import { essentialTypes } from '@/domain/vocabulary';
import { addressFor, composeMessage, ConfigurationError, notificationFields, preferencesLinkFor, redactLink, type ComposedMessage, type LinkSettings } from './compose-message';
import type { Db, Tx } from '@/db/client';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { pushBackSendSlots, reserveSendSlot } from '@/db/queries/platform/rate-limit';
import type { Delivery } from '@/db/schema';
import {
  claimMessageKey,
  findSuppression,
  holdReminder,
  lastAttemptOf,
  loadReminderWorld,
  lockDelivery,
  readdressDelivery,
  setDeliverySender,
  setReminderStatus,
  transitionDelivery,
  type AttemptEnd,
  type BookingContext,
  type ReminderWorld,
} from '@/db/queries/sending/delivery';
import { messageIdFor, messageKeyOf } from '@/domain/keys';
import { auditsGuestMessage, guestMessageEntry, hostActorOf } from '@/domain/organisations/guest-sender';
import { messageTitle } from '@/domain/sending/message-labels';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { decideSend } from '@/domain/sending/send-decision';
import { describeSuppression } from '@/domain/suppressions/suppression';
import { decideAfterOutcome } from '@/domain/sending/outcome';
import { defaultRetryPolicy, type RetryPolicy } from '@/domain/sending/retry';
import { isTemplateId, parseTemplateData, type ReminderTemplateData } from '@/emails';
import type { Clock } from '@/server/platform/clock';
import { adoptUnmatchedReports } from '@/server/reports/reports';
import { addSuppression } from '@/server/organisations/tenants';
import { envelopeFromFor } from './bounce-address';
import { senderFor } from '@/server/organisations/sender-identity';
import type { SenderIdentityConfig } from '@/domain/organisations/sender-identity';
import { isAuthRejection } from '@/domain/alerts/alerts';
import type { SendObservation } from '@/server/dashboards/metrics';
import { maskCredentials } from '@/domain/sending/credential-mask';

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
  /** Builds template data from the rows (default {@link buildTemplateData}); tests replace it to model bad data. */
  templateData?: (w: ReminderWorld) => Record<string, unknown>;
  /** Told when a provider attempt starts and when the provider answered (metrics and logs, server/dashboards/metrics.ts); must not throw. */
  observe?: (e: SendObservation) => void;
}

type SendReminderResult =
  | { kind: 'skipped'; reason: string }
  | { kind: 'terminated'; status: 'cancelled' | 'superseded' | 'expired' | 'failed'; reason: string }
  | { kind: 'already_claimed'; messageKey: string }
  | { kind: 'delivered'; deliveryId: string; result: DeliverResult };

type DeliverResult = { status: string; reason?: string | null };

/**
 * Template data for one reminder, built from database rows (UTC instants as ISO strings). The result is
 * validated by the template's zod schema before any claim.
 */
export function buildTemplateData(w: BookingContext): Record<string, unknown> {
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
    preferencesUrl: null,
  };
}

/** The template a reminder renders: the nudge's or notification's own, else its rule's ('' when the rule is gone). */
function templateOf(w: ReminderWorld): string {
  return w.reminder.template ?? w.rule?.template ?? '';
}

/**
 * The template data of one planned message: the reminder fields (`deps.templateData`, default
 * {@link buildTemplateData}), the change a notification tells of, and the recipient's preferences link.
 */
async function messageData(deps: SendDeps, w: ReminderWorld): Promise<Record<string, unknown>> {
  const base = (deps.templateData ?? buildTemplateData)(w);
  const extra = w.reminder.kind === 'notification' ? notificationFields(w) : {};
  return { ...base, ...extra, preferencesUrl: await preferencesLinkFor(w, deps.links) };
}

/** The provider a message on `channel` goes through: the sending tenant's email provider, the SMS API, or the webhook. */
function providerFor(w: ReminderWorld, channel: Channel): Provider {
  return channel === 'email' ? w.sendingTenant.emailProvider : channel === 'sms' ? 'sms_api' : 'webhook';
}

/**
 * Quiet hours checked again at send time (issue #9 §7): the person may have set them after the message was
 * planned. A non-essential message to a person (not a staff nudge, not the organisation's webhook) that is being
 * sent inside their quiet hours waits for the end of them when that is before its expiry; else it goes now.
 * @returns the instant to wait until and the reason, or null to send now.
 */
function quietHoursHold(w: ReminderWorld, now: Date): { until: Date; reason: string } | null {
  if (w.reminder.kind === 'nudge' || w.reminder.channel === 'webhook') return null;
  if (isEssential(w.reminder.kind, w.reminder.notificationType ?? null)) return null;
  const quiet = parseQuietHours(w.contact.quietHours);
  if (!quiet) return null;
  try {
    const q = applyQuietHours({ dueAt: now, expiresAt: w.reminder.expiresAt, quiet, zone: w.contact.timeZone ?? w.tenant.timeZone });
    return q.deferredFrom ? { until: q.dueAt, reason: q.reason ?? 'held for quiet hours' } : null;
  } catch {
    return null; // malformed stored hours or zone: never block a send on them
  }
}

/** Why the recipient does not want this message on this channel (their preferences), or null. */
function optedOut(w: ReminderWorld): string | null {
  const type = w.reminder.notificationType ?? null;
  const category = categoryOf(w.reminder.kind, type);
  return optOutReason({
    category,
    essential: !!type && essentialTypes.includes(type),
    prefs: readPreferences(w.contact.preferences),
    channel: w.reminder.channel,
    unsubscribedAt: readUnsubscribed(w.contact.preferences)[category] ?? null,
  });
}

/** True when the message's category was emptied by the person's one-click unsubscribe link (issue #10 §5). */
function unsubscribedByLink(w: ReminderWorld): boolean {
  return !!readUnsubscribed(w.contact.preferences)[categoryOf(w.reminder.kind, w.reminder.notificationType ?? null)];
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
  const step1 = await db.transaction(async (tx): Promise<SendReminderResult | { kind: 'prepared'; deliveryId: string; prep: Prepared }> => {
    const w = await loadReminderWorld(tx, reminderId, 'update');
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
    const hold = quietHoursHold(w, now);
    if (hold) {
      await holdReminder(tx, reminderId, hold.until, hold.reason);
      await enqueueJob(tx, TASK.dispatchDue, { reason: 'wake' }, { runAt: hold.until, jobKey: `wake:quiet:${reminderId}` });
      return { kind: 'skipped', reason: hold.reason };
    }
    // The person's preferences, re-read when the message falls due: a channel they no longer take ends here
    // (ticking it again before this instant would have kept it).
    const optOut = w.reminder.channel === 'webhook' ? null : optedOut(w);
    // A one-click unsubscribe is kept like a suppression (issue #10 §5): the claim goes ahead and the send-time
    // check in deliver() ends the delivery `suppressed`, so staff see the message and why it did not go out.
    if (optOut && !unsubscribedByLink(w)) {
      await setReminderStatus(tx, reminderId, 'cancelled', optOut);
      return { kind: 'terminated', status: 'cancelled', reason: optOut };
    }
    const address = addressFor(w, w.reminder.channel);
    if (!address) {
      const reason = w.reminder.channel === 'sms' ? 'no mobile number on file for this participant' : w.reminder.channel === 'webhook' ? 'the webhook endpoint is switched off or not set' : 'no email address on file';
      await setReminderStatus(tx, reminderId, 'cancelled', reason);
      return { kind: 'terminated', status: 'cancelled', reason };
    }
    const template = templateOf(w);
    const parsed: TemplateDataResult = isTemplateId(template)
      ? parseTemplateData(template, await messageData(deps, w))
      : ({ ok: false, field: 'template', message: `template: unknown template "${template}"` } as const);
    if (!parsed.ok) {
      const reason = `template data invalid — ${parsed.message}`;
      await setReminderStatus(tx, reminderId, 'failed', reason);
      return { kind: 'terminated', status: 'failed', reason };
    }
    const messageKey = messageKeyOf(w.reminder);
    // The claim, and the reminder `done`, in one statement.
    const delivery = await claimMessageKey(
      tx,
      {
        tenantId: w.reminder.tenantId,
        reminderId,
        messageKey,
        channel: w.reminder.channel,
        address,
        template,
        provider: providerFor(w, w.reminder.channel),
        leaseExpiresAt: new Date(now.getTime() + (deps.claimLeaseMs ?? 60_000)),
        // Whose name it goes out in (issue #12); re-decided before every attempt (prepareAttempt).
        sendingTenantId: w.sendingTenant.id,
      },
      { reminderDone: true },
    );
    if (!delivery) return { kind: 'already_claimed', messageKey };
    if (opts.deliverInline === false) {
      await enqueueJob(tx, TASK.deliver, { deliveryId: delivery.id }, { jobKey: `deliver:${delivery.id}` });
      return { kind: 'delivered', deliveryId: delivery.id, result: { status: 'claimed' } };
    }
    // Step 2's checks and the move to `sending` in THIS transaction, on the world just read under the locks
    // (event → booking → reminder; the send decision above is the re-read of invariant 4).
    return { kind: 'prepared', deliveryId: delivery.id, prep: await prepareAttempt(deps, tx, w, delivery, undefined, now, parsed) };
  });
  if (step1.kind !== 'prepared') return step1;
  const { prep } = step1;
  return { kind: 'delivered', deliveryId: step1.deliveryId, result: 'stop' in prep ? prep.stop : await attempt(deps, prep) };
}

/** What template-data validation says (emails/ `parseTemplateData`). */
type TemplateDataResult = ReturnType<typeof parseTemplateData>;

/** Any channel adapter: what the outcome rules need to know of it. */
type AnyChannel = EmailChannel | SmsChannel | WebhookChannel;

/**
 * The adapter for a delivery's provider, or null when this process has none configured for it.
 */
function channelFor(deps: SendDeps, provider: Provider): AnyChannel | null {
  if (provider === 'sms_api') return deps.sms ?? null;
  if (provider === 'webhook') return deps.webhook ?? null;
  return deps.channels?.[provider] ?? (provider === 'smtp' ? deps.channel : null);
}

/** What to set up for a missing adapter. */
const MISSING_PROVIDER: Record<Provider, string> = {
  smtp: 'no smtp provider is configured in this worker (SMTP_URL)',
  http_api: 'no http_api provider is configured in this worker (see README: HTTP_EMAIL_API_URL, HTTP_EMAIL_API_KEY)',
  sms_api: 'no SMS provider is configured in this worker (see README: SMS_API_URL, SMS_ACCOUNT_SID, SMS_AUTH_TOKEN)',
  webhook: 'no webhook sender in this worker',
};

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
      { reminder: { ...w.reminder, status: 'dispatched' }, event: w.event, booking: w.booking, rule: w.rule },
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

/** A delivery moved to `sending` with its attempt started, ready for the provider call; or why it stopped. */
type Prepared =
  | { stop: DeliverResult }
  | {
      w: ReminderWorld;
      d: Delivery;
      rendered: ComposedMessage;
      envelope: { envelopeFrom?: string };
      attemptId: string;
      channel: AnyChannel;
      reconcileFirst: boolean;
      now: Date;
      link: string | null;
    };

/**
 * Step 2's send-time checks for a locked `claimed`/`retrying` delivery whose world was judged sendable in this
 * transaction (`tx`): the webhook endpoint, the person's preferences and the suppression list (invariant 4), the
 * adapter, the provider's send rate, the template data and rendering; then the move to `sending` under a lease
 * with the attempt's start (one statement). Returns why it stopped (the delivery moved to that state) or what
 * the provider call needs.
 */
async function prepareAttempt(
  deps: SendDeps,
  tx: Tx,
  world: ReminderWorld,
  d: Delivery,
  slotAt: Date | undefined,
  now: Date,
  /** Template data validated from this same world in this transaction (the inline send): not built twice. */
  validated?: TemplateDataResult,
): Promise<Prepared> {
  let w = world;
  const deliveryId = d.id;
  const dead = async (repairOwner: RepairOwner, reason: string) => {
    await transitionDelivery(tx, deliveryId, 'dead', { statusReason: reason, lastError: reason, repairOwner, leaseExpiresAt: null, nextAttemptAt: null });
    return { stop: { status: 'dead', reason } as DeliverResult };
  };
  const suppressed = async (reason: string) => {
    await transitionDelivery(tx, deliveryId, 'suppressed', { statusReason: reason, leaseExpiresAt: null });
    return { stop: { status: 'suppressed', reason } as DeliverResult };
  };
  // Whose name it goes out in was re-decided on the partnership as it is now (loadReminderWorld, issue #12): a
  // limit narrowed since the claim moves the message to the host's own name (sender, suppression list, provider
  // kept); widened, to the guest's. Recorded first, so every end state below is listed under the right tenant.
  // It must have been decided for the address this attempt goes to — the delivery's, which an edit of the contact
  // does not change (review of issue #12: a retry to the old address went out in the partner's name because the
  // contact's NEW address was judged). Any caller whose world was decided for another address is re-read here
  // (rows already locked by this transaction: no new lock order).
  if (d.channel !== 'webhook' && w.senderDecidedFor !== d.address && w.reminder.id === d.reminderId) {
    const again = await loadReminderWorld(tx, d.reminderId, 'share', { address: d.address });
    if (again) w = again;
  }
  const senderChanged = (d.sendingTenantId ?? d.tenantId) !== w.sendingTenant.id;
  if (senderChanged) {
    await setDeliverySender(tx, deliveryId, w.sendingTenant.id);
    d.sendingTenantId = w.sendingTenant.id;
  }
  if (d.channel === 'webhook') {
    // The organisation's endpoint, read FOR SHARE: switched off since the claim → nothing goes out.
    if (!w.settings?.webhookEnabled) {
      const reason = `the webhook endpoint was switched off${w.settings?.webhookDisabledReason ? ` (${w.settings.webhookDisabledReason})` : ''}`;
      await transitionDelivery(tx, deliveryId, 'cancelled', { statusReason: reason, leaseExpiresAt: null, nextAttemptAt: null });
      return { stop: { status: 'cancelled', reason } };
    }
    // The organisation moved its endpoint since the claim: the message (same webhook-id) goes to where it
    // wants its data now, never to the abandoned URL.
    if (w.settings.webhookUrl && w.settings.webhookUrl !== d.address) {
      await readdressDelivery(tx, deliveryId, w.settings.webhookUrl);
      d.address = w.settings.webhookUrl;
    }
  } else {
    // The person's own wish (preferences, checked at send time) and the suppression list (invariant 4).
    const optOut = optedOut(w);
    if (optOut) return suppressed(optOut);
    // The booking tenant's list, the sending tenant's, and — when the host writes in its own name to a guest of
    // another organisation (issue #12) — that organisation's too: nobody any of them must not mail is mailed.
    const lists = [w.tenant, w.sendingTenant, ...(w.guestTenant ? [w.guestTenant] : [])];
    const suppression = await findSuppression(tx, [...new Set(lists.map((t) => t.id))], d.address, d.channel);
    if (suppression) {
      const owner = lists.find((t) => t.id === suppression.tenantId) ?? w.sendingTenant;
      return suppressed(describeSuppression(suppression, d.tenantId, owner.name));
    }
  }
  const channel = channelFor(deps, d.provider);
  if (!channel) return dead('configuration', MISSING_PROVIDER[d.provider]);
  // Before any rendering, so a delivery that waits costs nothing: the provider's send rate, shared by every
  // worker. Take the slot reserved earlier, or reserve one now.
  const perMinute = deps.rateLimits?.[d.provider];
  if (perMinute && !(slotAt && slotAt.getTime() <= now.getTime() + SLOT_TOLERANCE_MS)) {
    const slot = await reserveSendSlot(tx, `provider:${d.provider}`, 60_000 / perMinute, now);
    if (slot.getTime() > now.getTime() + SLOT_TOLERANCE_MS) {
      await transitionDelivery(tx, deliveryId, 'retrying', {
        statusReason: `waiting for ${d.provider}'s send rate (${perMinute}/min); send slot at ${slot.toISOString()}`,
        nextAttemptAt: slot,
        leaseExpiresAt: null,
      });
      await enqueueJob(tx, TASK.deliver, { deliveryId, slotAt: slot.toISOString() }, { runAt: slot, jobKey: `deliver:${deliveryId}`, jobKeyMode: 'replace' });
      return { stop: { status: 'retrying', reason: 'waiting for a send slot' } as DeliverResult };
    }
  }
  const template = templateOf(w);
  const parsed: TemplateDataResult =
    validated ??
    (isTemplateId(template)
      ? parseTemplateData(template, await messageData(deps, w))
      : ({ ok: false, field: 'template', message: `template: unknown template "${template}"` } as const));
  // Valid at claim time, invalid now: the event changed since. A person fixes the event and replays.
  if (!parsed.ok) return dead('template', `template data invalid — ${parsed.message}`);
  let rendered: ComposedMessage;
  try {
    rendered = await composeMessage(w, d.channel, d.address, template as TemplateId, parsed.data as ReminderTemplateData, {
      now,
      smsFrom: deps.smsFrom,
      smsStatusCallbackUrl: deps.smsStatusCallbackUrl,
      messageKey: d.messageKey,
      links: deps.links,
      senderIdentity: deps.senderIdentity,
    });
  } catch (e) {
    if (e instanceof ConfigurationError) return dead('configuration', e.message);
    return dead('template', `template failed to render: ${e instanceof Error ? e.message : String(e)}`);
  }
  let envelope: { envelopeFrom?: string };
  try {
    envelope = envelopeOf(deps, w, d);
  } catch (e) {
    // A tenant bounce domain that is not a domain name: an admin fixes it and replays.
    return dead('configuration', `no bounce address: ${e instanceof Error ? e.message : String(e)}`);
  }
  // An earlier attempt may have reached an idempotent provider: ask it before sending again.
  const lastAttempt = d.attemptCount > 0 ? await lastAttemptOf(tx, deliveryId) : null;
  // The move to `sending` and the attempt's start: one statement.
  const sending = await transitionDelivery(
    tx,
    deliveryId,
    'sending',
    {
      statusReason: null,
      subject: rendered.subject,
      leaseExpiresAt: new Date(now.getTime() + (deps.sendLeaseMs ?? 120_000)),
      nextAttemptAt: null,
      incrementAttempts: true,
    },
    { start: { tenantId: d.tenantId, attemptNo: d.attemptCount + 1, startedAt: now } },
  );
  // Locked by this transaction in a sendable state: the guarded move cannot miss.
  if (!sending?.attemptId) throw new Error(`delivery ${deliveryId} could not move to sending from ${d.status}`);
  const { attemptId, ...moved } = sending;
  // A message in another organisation's name is that organisation's business (issue #12): its audit log says
  // who of the host sent what to whom — in this transaction, so the entry exists exactly when the attempt does.
  const inGuestName = w.sendingTenant.id !== w.tenant.id;
  if (auditsGuestMessage({ inGuestName, firstAttempt: d.attemptCount === 0, senderChanged })) {
    const r = w.reminder;
    const e = guestMessageEntry({
      hostName: w.tenant.name,
      hostActor: hostActorOf({ kind: r.kind, requestedBy: r.requestedBy, changeActor: w.domainEvent?.actor ?? null, bookedBy: w.booking.createdBy }),
      title: messageTitle({ kind: r.kind, ruleName: w.rule?.name ?? null, notificationType: r.notificationType ?? null }),
      eventTitle: w.event.title,
      address: d.address,
      channel: d.channel,
      subject: rendered.subject,
      messageKey: d.messageKey,
    });
    await appendAudit(tx, { tenantId: w.sendingTenant.id, actor: e.actor, action: 'guest_message', details: e.details, at: now });
  }
  return { w, d: moved, rendered, envelope, attemptId, channel, reconcileFirst: lastAttempt?.outcome === 'ambiguous' && 'lookup' in channel && !!channel.lookup, now, link: (parsed.data as { preferencesUrl?: string | null }).preferencesUrl ?? null };
}

/** The provider call of a prepared attempt, then its outcome recorded (see {@link recordOutcome}). */
async function attempt(deps: SendDeps, prep: Exclude<Prepared, { stop: DeliverResult }>): Promise<DeliverResult> {
  const { w, d, rendered, envelope, attemptId, channel, reconcileFirst, now, link } = prep;
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
  return recordOutcome(deps, w, d, attemptId, stored, channel);
}

/**
 * The SMTP envelope sender of an email delivery: its VERP bounce address in the sending tenant's bounce domain
 * when this worker has the key and the delivery goes out over SMTP; nothing for an HTTP API provider (it handles
 * bounces itself and reports them as events).
 */
function envelopeOf(deps: SendDeps, w: ReminderWorld, d: Delivery): { envelopeFrom?: string } {
  if (d.provider !== 'smtp' || !deps.bounceKey) return {};
  // At the domain of the address the message goes From: the deployment's default sender while the organisation's
  // own address is unproven (server/organisations/sender-identity.ts), unless the operator set the tenant's bounce domain.
  const from = senderFor(w.sendingTenant, deps.senderIdentity).from.address;
  return { envelopeFrom: envelopeFromFor({ bounceDomain: w.sendingTenant.bounceDomain, senderEmail: from }, d.id, deps.bounceKey) };
}

/** Slots within this many ms of now are taken at once (timer and clock granularity). */
const SLOT_TOLERANCE_MS = 50;

async function recordOutcome(
  deps: SendDeps,
  w: ReminderWorld,
  d: Delivery,
  attemptId: string,
  outcome: Outcome,
  channel: AnyChannel,
): Promise<DeliverResult> {
  const { db, clock } = deps;
  const now = clock.now();
  const deliveryId = d.id;
  return db.transaction(async (tx) => {
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
    const next = decideAfterOutcome({
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
  });
}
