/**
 * What one planned message becomes on its channel (issue #9): the template data (reminder fields, plus the
 * change a notification tells of, plus the person's signed preferences link), and the channel's outgoing
 * message — an email with an iCalendar invitation for booking changes, an SMS text, or a webhook body.
 * Every non-essential email also carries a one-click unsubscribe link (issue #10 §5, {@link unsubscribeLinkFor}):
 * the `List-Unsubscribe` / `List-Unsubscribe-Post` headers and a visible footer link. SMS and webhooks carry none
 * (an SMS has the carrier's STOP; a webhook goes to the organisation).
 * Called by the send path (server/sending/send-reminder.ts) before the claim (validation) and before the provider
 * call (rendering).
 */
import type { OutgoingEmail, OutgoingSms, OutgoingWebhook } from '@/channels/types';
import type { ReminderWorld } from '@/db/queries/sending/delivery';
import { buildCalendarInvite, calendarInviteFilename } from '@/domain/calendar/calendar-invite';
import { inviteUidOf, messageInviteSequence } from '@/domain/calendar/invite-sequence';
import { webhookPayload } from '@/domain/sending/webhook-payload';
import type { SenderIdentityConfig } from '@/domain/organisations/sender-identity';
import { categoryOf, isEssential } from '@/domain/notifications/preferences';
import { announcementKind, type Channel, type DomainEventType, type MessageKind, type PreferenceCategory } from '@/domain/vocabulary';
import { renderAnnouncementEmail, renderValidatedEmail, type ReminderTemplateData, type StaffText } from '@/emails';
import { staffTextSms } from '@/emails/staff-text';
import { renderSmsText } from '@/emails/sms';
import { preferencesUrl, signPreferenceToken } from './preference-link';
import { senderFor } from '@/server/organisations/sender-identity';
import { signUnsubscribeToken, unsubscribeExpiry, unsubscribeUrl } from './unsubscribe-link';
import { actionLinksFor } from './action-link';

/**
 * Where the person's links point and how they are signed; without `publicUrl` messages carry no link.
 * `secret` signs the preferences link (server/sending/preference-link.ts `preferencesSecret`); `unsubscribeSecret` the
 * one-click unsubscribe link (server/sending/unsubscribe-link.ts, the first of `unsubscribeSecrets`) — without it emails
 * carry no List-Unsubscribe header and no unsubscribe link.
 */
export interface LinkSettings {
  publicUrl?: string;
  secret?: string;
  unsubscribeSecret?: string;
  /** Signs the booking action links (server/sending/action-link.ts, the first of `actionLinkSecrets`); without it messages carry none. */
  actionSecret?: string;
}

/** Message kinds and notification types whose reader may still answer their booking ("I'll be there" / "I can't come"). */
const ANSWERABLE_NOTIFICATIONS: ReadonlySet<string> = new Set(['booking_confirmed', 'event_rescheduled']);

/**
 * The action links of the message's booking, or {} : only to a participant (attendee or external guest, never a host)
 * whose booking is live on a scheduled event, in a reminder, a nudge or a booking-confirmed / event-rescheduled
 * notification, when links are configured. They expire at the event's end, so every retry renders the same links.
 */
export async function actionLinksOf(w: ReminderWorld, links: LinkSettings | undefined): Promise<{ confirmUrl?: string; declineUrl?: string }> {
  if (!links?.publicUrl || !links.actionSecret) return {};
  if (w.booking.role === 'host' || w.booking.status !== 'confirmed' || w.event.status !== 'scheduled') return {};
  const type = w.reminder.notificationType ?? null;
  if (w.reminder.kind === 'notification' ? !type || !ANSWERABLE_NOTIFICATIONS.has(type) : w.reminder.kind === 'announcement') return {};
  return actionLinksFor(links.publicUrl, { tenantId: w.booking.tenantId, bookingId: w.booking.id, eventEndsAt: w.event.endsAt }, links.actionSecret);
}

/**
 * The one-click unsubscribe link of an email (issue #10 §5), or null: none for an essential message (domain/
 * vocabulary.ts `essentialTypes`: it ignores opt-outs, so offering one would mislead), none when links are not
 * configured. The category is the message's (domain/notifications/preferences.ts `categoryOf`); the link expires 365 days
 * (rounded up to a UTC midnight) after the reminder's due instant — the planned send instant, the same for every
 * retry, so a retried send renders the same link.
 */
async function unsubscribeLinkFor(w: ReminderWorld, links: LinkSettings | undefined): Promise<{ url: string; category: PreferenceCategory } | null> {
  if (!links?.publicUrl || !links.unsubscribeSecret) return null;
  const type = w.reminder.notificationType ?? null;
  if (isEssential(w.reminder.kind, type)) return null;
  const category = categoryOf(w.reminder.kind, type);
  const token = await signUnsubscribeToken(
    { tenantId: w.contact.tenantId, contactId: w.contact.id, category, expiresAt: unsubscribeExpiry(w.reminder.dueAt) },
    links.unsubscribeSecret,
  );
  return { url: unsubscribeUrl(links.publicUrl, token), category };
}

/** The signed preferences link of the message's recipient (null when links are not configured). */
export async function preferencesLinkFor(w: ReminderWorld, links: LinkSettings | undefined): Promise<string | null> {
  if (!links?.publicUrl || !links.secret) return null;
  const token = await signPreferenceToken({ tenantId: w.contact.tenantId, contactId: w.contact.id }, links.secret);
  return preferencesUrl(links.publicUrl, token);
}

interface Timing {
  startsAt?: string;
  endsAt?: string;
  timeZone?: string;
  allDay?: boolean;
}

/**
 * The notification fields of the template data (emails/schema.ts `notificationTemplateDataSchema`) from the
 * domain event: the schedule version it is about, the previous timing (reschedules), the reason (cancellations), the
 * changed details (a details-changed notice: `detailChanges`).
 */
export function notificationFields(w: ReminderWorld): Record<string, unknown> {
  const p = (w.domainEvent?.payload ?? {}) as { previous?: Timing; reason?: string | null; scheduleVersion?: number; changes?: unknown; participantName?: string };
  return {
    // A details-changed notice: what changed, old → new (server/scheduling/domain-events.ts recordEventDetailsChanged).
    ...(p.changes !== undefined ? { detailChanges: p.changes } : {}),
    scheduleVersion: p.scheduleVersion ?? w.reminder.scheduleVersion,
    previousStartsAt: p.previous?.startsAt ?? null,
    previousEndsAt: p.previous?.endsAt ?? null,
    previousTimeZone: p.previous?.timeZone ?? null,
    previousAllDay: p.previous?.allDay ?? null,
    reason: p.reason ?? null,
    participantName: w.reminder.notificationType === 'booking_declined' ? (p.participantName ?? '') : null,
  };
}

/** iTIP method per notification type: the ones that (re)state the booking REQUEST, the cancellations CANCEL. */
const INVITE_METHOD: Partial<Record<DomainEventType, 'REQUEST' | 'CANCEL'>> = {
  booking_confirmed: 'REQUEST',
  event_rescheduled: 'REQUEST',
  event_details_changed: 'REQUEST',
  participant_added_as_host: 'REQUEST',
  booking_cancelled: 'CANCEL',
  event_cancelled: 'CANCEL',
};

/**
 * The iTIP method of the calendar invitation a message on `channel` carries, or null: only a booking-change
 * notification email carries one (reminders, SMS and webhooks none). The claim records the invitation's SEQUENCE for
 * exactly these messages (server/sending/send-reminder.ts `judgeReminder`).
 */
export function invitationMethodOf(w: Pick<ReminderWorld, 'reminder'>, channel: Channel): 'REQUEST' | 'CANCEL' | null {
  const type = w.reminder.notificationType;
  return channel === 'email' && w.reminder.kind === 'notification' && type ? (INVITE_METHOD[type] ?? null) : null;
}

/**
 * What fixes a message's invitation so that every attempt writes the same bytes: the SEQUENCE recorded at its claim
 * (`deliveries.invite_sequence`, null on rows claimed before it was recorded) and DTSTAMP, the claim instant
 * (`deliveries.created_at`: when the message was made, RFC 5545 §3.8.7.2).
 */
export interface InviteFixed {
  sequence: number | null;
  stamp: Date;
}

/**
 * The calendar invitation of a notification email, or undefined (reminders carry none). One stable UID per
 * booking (domain/calendar/invite-sequence.ts `inviteUidOf`); SEQUENCE the booking's, fixed at the claim
 * (`messageInviteSequence`): one counter per booking that every reschedule, notified details change and
 * cancellation moves up — RFC 5546 §2.1.4 / RFC 5545 §3.8.7.4. The entry states the event as it is at the attempt.
 */
function calendarFor(w: ReminderWorld, fixed: InviteFixed, senderIdentity?: SenderIdentityConfig): OutgoingEmail['calendar'] {
  const method = invitationMethodOf(w, 'email');
  if (!method) return undefined;
  const stamp = fixed.stamp;
  const content = buildCalendarInvite({
    method,
    uid: inviteUidOf(w.booking.id),
    sequence: messageInviteSequence(fixed.sequence, w.booking),
    title: w.event.title,
    description: w.event.description,
    location: w.event.location,
    url: w.event.roomUrl,
    startsAt: w.event.startsAt,
    endsAt: w.event.endsAt,
    allDay: w.event.allDay,
    timeZone: w.event.timeZone,
    // The organizer is the message's From (an unproven sender address is named nowhere but in Reply-To).
    organizer: (({ from }) => ({ name: from.name, email: from.address }))(senderFor(w.sendingTenant, senderIdentity)),
    attendee: { name: w.contact.name, email: w.contact.email },
    stamp,
  });
  return { method, content, filename: calendarInviteFilename(method) };
}

export type ComposedMessage =
  | { channel: 'email'; subject: string; email: Omit<OutgoingEmail, 'messageId'> }
  | { channel: 'sms'; subject: string; sms: OutgoingSms }
  | { channel: 'webhook'; subject: string; webhook: OutgoingWebhook };

/**
 * Renders the message of `w` on `channel` to `address` from validated template data: `data` must be what
 * parseMessageData (emails/index.ts) returned for `template` — it is rendered without a second parse.
 * @param smsFrom the sender when the tenant has none (`SMS_FROM`).
 * @param links signs the email's one-click unsubscribe link and headers ({@link unsubscribeLinkFor}).
 * @param staffText the organisation's own text the claim fixed (issue #22 §2), else null/absent: Punctual's built-in text.
 * @param senderIdentity the operator's sender settings (server/organisations/sender-identity.ts; default: this process's
 *   environment): From and Reply-To are decided here, at send time, so a verification since the claim counts.
 * @throws Error when rendering fails (the caller dead-letters it, owner `template`), or when a webhook has no
 *   secret (owner `configuration`, message says so).
 */
export async function composeMessage(
  w: ReminderWorld,
  channel: Channel,
  address: string,
  template: MessageKind,
  data: ReminderTemplateData,
  opts: {
    now: Date;
    smsFrom?: string;
    smsStatusCallbackUrl?: string;
    messageKey: string;
    links?: LinkSettings;
    senderIdentity?: SenderIdentityConfig;
    staffText?: StaffText | null;
    /** The invitation's SEQUENCE and DTSTAMP fixed at the claim ({@link InviteFixed}); absent: the booking's SEQUENCE now and `now`. */
    invite?: InviteFixed;
  },
): Promise<ComposedMessage> {
  if (channel === 'sms') {
    if (template === announcementKind && !opts.staffText) throw new Error('an announcement has no text to send');
    const body = opts.staffText ? staffTextSms(template, data, opts.staffText) : renderSmsText(template as Exclude<MessageKind, typeof announcementKind>, data);
    const from = w.settings?.smsSender ?? opts.smsFrom;
    if (!from) throw new ConfigurationError('no SMS sender: set the tenant\'s SMS sender on the notifications page or SMS_FROM for the worker');
    // What staff read later (the delivery's subject, the provider's echo of the body) never holds the person's
    // preferences link: it is a credential for their preferences.
    return { channel, subject: redactLink(body, data.preferencesUrl), sms: { tenantId: w.sendingTenant.id, from, to: address, body, statusCallbackUrl: opts.smsStatusCallbackUrl ?? null, messageKey: opts.messageKey } };
  }
  if (channel === 'webhook') {
    const secret = w.settings?.webhookSecret;
    if (!secret) throw new ConfigurationError('the webhook endpoint has no signing secret');
    const type = w.reminder.notificationType ?? 'reminder';
    const payload = webhookPayload({
      messageKey: opts.messageKey,
      type,
      occurredAt: w.domainEvent?.createdAt ?? w.reminder.dueAt,
      tenant: { slug: w.sendingTenant.slug, name: w.sendingTenant.name },
      // Only what the organisation's systems need: never row internals (versions, who edited it).
      event: {
        id: w.event.id,
        title: w.event.title,
        startsAt: w.event.startsAt,
        endsAt: w.event.endsAt,
        timeZone: w.event.timeZone,
        allDay: w.event.allDay,
        location: w.event.location,
        roomUrl: w.event.roomUrl,
        status: w.event.status,
        scheduleVersion: w.event.scheduleVersion,
      },
      booking: { id: w.booking.id, role: w.booking.role, status: w.booking.status },
      recipient: { contactId: w.contact.id, name: w.contact.name, email: w.contact.email, phone: w.contact.phone, locale: w.contact.locale, timeZone: w.contact.timeZone },
      change: w.domainEvent?.payload ?? null,
    });
    return { channel, subject: `${type} → ${address}`, webhook: { tenantId: w.sendingTenant.id, url: address, secret, id: opts.messageKey, payload } };
  }
  const unsubscribe = await unsubscribeLinkFor(w, opts.links);
  const withLink = unsubscribe ? { ...data, unsubscribeUrl: unsubscribe.url, unsubscribeCategory: unsubscribe.category } : data;
  // An announcement is only ever staff's words (server/sending/send-checks.ts announcementWords).
  const rendered =
    template === announcementKind
      ? await renderAnnouncementEmail(withLink, opts.staffText ?? throwNoText())
      : // `data` was parsed for this template before the claim (prepareAttempt); the link fields are ours.
        await renderValidatedEmail(template, withLink, opts.staffText);
  // The organisation's sender name (its name when none is set) and reply-to (the settings page); its own address only
  // once proven, else the deployment's default sender with Reply-To the unproven address (domain/organisations/sender-identity.ts).
  const sender = senderFor(w.sendingTenant, opts.senderIdentity);
  return {
    channel: 'email',
    subject: rendered.subject,
    email: {
      // Who sent it, for the development mailbox (domain/sending/caught-identity.ts): the tenant it goes out in the name of.
      tenantId: w.sendingTenant.id,
      from: sender.from,
      to: { name: w.contact.name, address },
      ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      headers: {
        'X-Punctual-Message-Key': opts.messageKey,
        // RFC 2369 §3.2 (a URL in angle brackets) and RFC 8058 §3.1: a mail client may POST
        // `List-Unsubscribe=One-Click` to the URL without showing it. RFC 8058 §4 wants both headers covered by
        // the DKIM signature — the MTA or provider that signs must include them (README).
        ...(unsubscribe ? { 'List-Unsubscribe': `<${unsubscribe.url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}),
      },
      calendar: calendarFor(w, opts.invite ?? { sequence: null, stamp: opts.now }, opts.senderIdentity),
    },
  };
}

/** `text` with the recipient's preferences link replaced by a placeholder (for anything stored or shown to staff). */
export function redactLink(text: string, link: string | null | undefined): string {
  return link ? text.split(link).join('[preferences link]') : text;
}

function throwNoText(): never {
  throw new Error('an announcement has no text to send');
}

/** A message cannot be composed because of the tenant's or worker's settings (a dead letter owned by configuration). */
export class ConfigurationError extends Error {}

/** The address a message goes to on `channel`: the contact's email or mobile number, or the sending tenant's enabled webhook endpoint. */
export function addressFor(w: ReminderWorld, channel: Channel): string | null {
  if (channel === 'email') return w.contact.email || null;
  if (channel === 'sms') return w.contact.phone ?? null;
  return w.settings?.webhookEnabled && w.settings.webhookUrl ? w.settings.webhookUrl : null;
}

