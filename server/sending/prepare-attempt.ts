/**
 * Step 2 of the send path before the provider call (server/sending/send-reminder.ts module doc): the send-time
 * checks of a locked `claimed`/`retrying` delivery — the webhook endpoint, the person's preferences and the
 * suppression list (invariant 4), the adapter, the provider's shared send rate, the template data and rendering,
 * the envelope sender — then the move to `sending` under a lease with the attempt's start, and the guest-message
 * audit entry (issue #12), all in the caller's transaction.
 */
import type { EmailChannel, SmsChannel, WebhookChannel } from '@/channels/types';
import type { MessageKind, Provider, RepairOwner } from '@/domain/vocabulary';
import { composeMessage, ConfigurationError, type ComposedMessage } from './compose-message';
import { claimedText } from '@/server/messages/message-texts';
import type { Tx } from '@/db/client';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { reserveSendSlot } from '@/db/queries/platform/rate-limit';
import type { Delivery } from '@/db/schema';
import {
  lastAttemptOf,
  loadReminderWorld,
  readdressDelivery,
  setDeliverySender,
  transitionDelivery,
  type ReminderWorld,
} from '@/db/queries/sending/delivery';
import { findSuppression, suppressionOf, type SuppressionHit } from '@/db/queries/suppressions/send-time';
import { auditsGuestMessage, guestMessageEntry, hostActorOf } from '@/domain/organisations/guest-sender';
import { messageTitle } from '@/domain/sending/message-labels';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { describeSuppression } from '@/domain/suppressions/suppression';
import { parseMessageData, type ReminderTemplateData } from '@/emails';
import { TASK } from '@/jobs/registry';
import { envelopeFromFor } from './bounce-address';
import { senderFor } from '@/server/organisations/sender-identity';
import type { DeliverResult, SendDeps } from './send-reminder';
import { announcementWords, messageData, optedOut, templateOf, type TemplateDataResult } from './send-checks';

/** Any channel adapter: what the outcome rules need to know of it. */
export type AnyChannel = EmailChannel | SmsChannel | WebhookChannel;

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

/** A delivery moved to `sending` with its attempt started, ready for the provider call; or why it stopped. */
export type Prepared =
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

/** A delivery that passed every send-time check and is rendered, ready to move to `sending` ({@link checkAttempt}). */
export interface Checked {
  w: ReminderWorld;
  /** The delivery as locked (before the move). */
  d: Delivery;
  rendered: ComposedMessage;
  envelope: { envelopeFrom?: string };
  channel: AnyChannel;
  reconcileFirst: boolean;
  now: Date;
  link: string | null;
  /** Whose name it goes out in changed at this attempt (the guest-message audit needs it). */
  senderChanged: boolean;
}

/**
 * Step 2 for a locked `claimed`/`retrying` delivery whose world was judged sendable in this transaction (`tx`): the
 * send-time checks ({@link checkAttempt}), then the move to `sending` under a lease with the attempt's start (one
 * statement) and the guest-message audit entry ({@link finishAttempt}). Returns why it stopped (the delivery moved to
 * that state) or what the provider call needs. The batch path runs the same three parts, with the moves of a wave in
 * one statement (db/queries/sending/outcomes.ts `moveToSendingMany`).
 */
export async function prepareAttempt(...args: Parameters<typeof checkAttempt>): Promise<Prepared> {
  const [deps, tx, , d, , now] = args;
  const checked = await checkAttempt(...args);
  if ('stop' in checked) return checked;
  const m = sendingMove(deps, checked);
  const sending = await transitionDelivery(
    tx,
    d.id,
    'sending',
    { statusReason: null, subject: m.subject, leaseExpiresAt: m.leaseExpiresAt, nextAttemptAt: null, incrementAttempts: true },
    { start: { tenantId: d.tenantId, attemptNo: m.attemptNo, startedAt: now } },
  );
  // Locked by this transaction in a sendable state: the guarded move cannot miss.
  if (!sending?.attemptId) throw new Error(`delivery ${d.id} could not move to sending from ${d.status}`);
  const { attemptId, ...moved } = sending;
  return finishAttempt(tx, checked, moved, attemptId);
}

/** What the move of a checked delivery to `sending` writes: the subject, the lease's end (UTC instant), the attempt's number. */
export function sendingMove(deps: SendDeps, c: Checked): { subject: string; leaseExpiresAt: Date; attemptNo: number } {
  return { subject: c.rendered.subject, leaseExpiresAt: new Date(c.now.getTime() + (deps.sendLeaseMs ?? 120_000)), attemptNo: c.d.attemptCount + 1 };
}

/**
 * After the move to `sending` (`moved`: the delivery row as moved, `attemptId`: the attempt started with it): a message
 * in another organisation's name is that organisation's business (issue #12) — its audit log says who of the host sent
 * what to whom, in this transaction, so the entry exists exactly when the attempt does. Returns what the provider call
 * needs.
 */
export async function finishAttempt(tx: Tx, c: Checked, moved: Delivery, attemptId: string): Promise<Exclude<Prepared, { stop: DeliverResult }>> {
  const { w, d, rendered, now } = c;
  const inGuestName = w.sendingTenant.id !== w.tenant.id;
  if (auditsGuestMessage({ inGuestName, firstAttempt: d.attemptCount === 0, senderChanged: c.senderChanged })) {
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
  return { w, d: moved, rendered, envelope: c.envelope, attemptId, channel: c.channel, reconcileFirst: c.reconcileFirst, now, link: c.link };
}

/**
 * Step 2's send-time checks for a locked `claimed`/`retrying` delivery whose world was judged sendable in this
 * transaction (`tx`): the webhook endpoint, the person's preferences and the suppression list (invariant 4), the
 * adapter, the provider's send rate, the template data and rendering. Returns why it stopped (the delivery moved to
 * that state) or the checked, rendered message; moves nothing to `sending`.
 */
export async function checkAttempt(
  deps: SendDeps,
  tx: Tx,
  world: ReminderWorld,
  d: Delivery,
  slotAt: Date | undefined,
  now: Date,
  /** Template data validated from this same world in this transaction (the inline send): not built twice. */
  validated?: TemplateDataResult,
  /**
   * Suppression entries already read in this transaction for the lists of `tenantIds` and this delivery's address
   * (the batch path reads a wave's in one statement, db/queries/suppressions/send-time.ts `findSuppressions`); used when they
   * cover every list this message is checked against, else the list is read here.
   */
  known?: { tenantIds: ReadonlySet<string>; hits: readonly SuppressionHit[] },
): Promise<Checked | { stop: DeliverResult }> {
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
    const ids = [...new Set(lists.map((t) => t.id))];
    const suppression =
      known && ids.every((id) => known.tenantIds.has(id)) ? suppressionOf(known.hits, ids, d.address, d.channel) : await findSuppression(tx, ids, d.address, d.channel);
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
    parseMessageData(template, await messageData(deps, w, { locale: d.messageLocale, reason: d.localeReason }));
  // Valid at claim time, invalid now: the event changed since. A person fixes the event and replays.
  if (!parsed.ok) return dead('template', `template data invalid — ${parsed.message}`);
  // The organisation's own words when the claim fixed a version of them (issue #22 §2): the same on every attempt.
  // An announcement's words are its own, in the language fixed at the claim.
  const staffText = w.announcement
    ? announcementWords(w, d.messageLocale)
    : d.messageTextVersion !== null && d.messageLocale
      ? await claimedText(tx, { tenantId: d.tenantId, kind: template, locale: d.messageLocale }, d.messageTextVersion)
      : null;
  if (w.announcement && !staffText) return dead('template', `the announcement has no text in the language of this message (${d.messageLocale ?? 'none recorded'})`);
  if (d.messageTextVersion !== null && !staffText) return dead('template', `the organisation's text version ${d.messageTextVersion} (${template}, ${d.messageLocale}) was not found`);
  let rendered: ComposedMessage;
  try {
    rendered = await composeMessage(w, d.channel, d.address, template as MessageKind, parsed.data as ReminderTemplateData, {
      staffText,
      now,
      smsFrom: deps.smsFrom,
      smsStatusCallbackUrl: deps.smsStatusCallbackUrl,
      messageKey: d.messageKey,
      links: deps.links,
      senderIdentity: deps.senderIdentity,
      // Fixed at the claim, so a retry after a later change still writes this message's own SEQUENCE and DTSTAMP.
      invite: { sequence: d.inviteSequence, stamp: d.createdAt },
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
  return {
    w,
    d,
    rendered,
    envelope,
    channel,
    reconcileFirst: lastAttempt?.outcome === 'ambiguous' && 'lookup' in channel && !!channel.lookup,
    now,
    link: (parsed.data as { preferencesUrl?: string | null }).preferencesUrl ?? null,
    senderChanged,
  };
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
