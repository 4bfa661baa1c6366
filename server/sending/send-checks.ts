/**
 * What the send path (server/sending/send-reminder.ts) reads off a reminder's world: the template data (validated by
 * the template's zod schema before any claim), the template and the provider, and the person's wishes at send time —
 * quiet hours (issue #9 §7), preferences and the one-click unsubscribe (issue #10 §5).
 */
import { chooseMessageLocale, keepClaimedLocale, type MessageLocaleChoice } from '@/domain/messages/locale-fallback';
import { chooseEventNote } from '@/domain/scheduling/event-note';
import { categoryOf, isEssential, optOutReason, readPreferences, readUnsubscribed } from '@/domain/notifications/preferences';
import { applyQuietHours, parseQuietHours } from '@/domain/notifications/quiet-hours';
import { essentialTypes, type Channel, type Provider } from '@/domain/vocabulary';
import { actionLinksOf, notificationFields, preferencesLinkFor } from './compose-message';
import type { BookingContext, ReminderWorld } from '@/db/queries/sending/delivery';
import { parseMessageData, type StaffText } from '@/emails';
import type { AnnouncementRow } from '@/db/schema';
import { announcementLocale, smsWordsOf, type AnnouncementTexts, type Audience } from '@/domain/messages/announcements';
import { catalogLocales } from '@/emails/messages';
import type { SendDeps } from './send-reminder';

/** The language a delivery was claimed in, as recorded on it (`message_locale`, `locale_reason`; null on old rows). */
export interface ClaimedLocale {
  locale: string | null;
  reason: string | null;
}

/**
 * The language of the message to `w`'s person and why (domain/messages/locale-fallback.ts): their language, its base
 * language, the sending organisation's default language (whose name the message goes out in), English — among the
 * languages Punctual ships text for. For a delivery already claimed, the language recorded at the claim (`claimed`)
 * is kept when the choice now differs (the words of a message are fixed when its key is claimed).
 */
export function messageLanguageOf(w: Pick<BookingContext, 'contact' | 'sendingTenant'> & { announcement?: AnnouncementRow | null }, claimed?: ClaimedLocale | null): MessageLocaleChoice {
  // An announcement is written in the languages staff wrote it in (domain/messages/announcements.ts announcementLocale).
  const now = w.announcement
    ? announcementLocale(Object.keys(w.announcement.texts as AnnouncementTexts), w.contact.locale, w.sendingTenant.locale)
    : chooseMessageLocale({ contactLocale: w.contact.locale, organisationLocale: w.sendingTenant.locale, available: catalogLocales });
  return claimed ? keepClaimedLocale(claimed, now) : now;
}

/**
 * Template data for one reminder, built from database rows (UTC instants as ISO strings). `locale` is the locale
 * the message is written in ({@link messageLanguageOf}: the person's tag when their language has text, else the
 * organisation's default or English), so the renderer writes the text and the dates in it. The result is
 * validated by the template's zod schema before any claim.
 */
export function buildTemplateData(w: BookingContext & { announcement?: AnnouncementRow | null }, claimed?: ClaimedLocale | null): Record<string, unknown> {
  const lead = w.event.roomOpenLeadMinutes ?? w.tenant.roomOpenLeadMinutes;
  const language = messageLanguageOf(w, claimed);
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
    locale: language.formatLocale,
    location: w.event.location,
    notes: w.event.description,
    // The note in the language the message is written in (its fallback: domain/scheduling/event-note.ts), read from the
    // event as it is now — like the title and the place, a retry sends the note as it is at that attempt.
    eventNote: chooseEventNote(w.event.eventNote, language.formatLocale, w.sendingTenant.locale ?? null),
    roomUrl: w.event.roomUrl,
    roomOpensAt: w.event.roomUrl ? new Date(w.event.startsAt.getTime() - lead * 60_000).toISOString() : null,
    participantCount: w.booking.role === 'host' ? w.confirmedParticipants : null,
    preferencesUrl: null,
  };
}

/** The booking statuses an announcement's audience chose, for the last re-read (domain/sending/send-decision.ts); null for other messages. */
export function audienceOf(w: ReminderWorld): { statuses: Audience['statuses'] } | null {
  return w.announcement ? { statuses: (w.announcement.audience as Audience).statuses } : null;
}

/** The template a reminder renders: the nudge's or notification's own, else its rule's ('' when the rule is gone). */
export function templateOf(w: ReminderWorld): string {
  return w.reminder.template ?? w.rule?.template ?? '';
}

/**
 * The template data of one planned message: the reminder fields (`deps.templateData`, default
 * {@link buildTemplateData}), the change a notification tells of, and the recipient's preferences link.
 * `claimed`: the language recorded on the delivery, for a retry or replay (nothing before the claim).
 */
export async function messageData(deps: SendDeps, w: ReminderWorld, claimed?: ClaimedLocale | null): Promise<Record<string, unknown>> {
  const base = (deps.templateData ?? buildTemplateData)(w, claimed);
  const extra = w.reminder.kind === 'notification' ? notificationFields(w) : {};
  return { ...base, ...extra, preferencesUrl: await preferencesLinkFor(w, deps.links), ...(await actionLinksOf(w, deps.links)) };
}

/** The provider a message on `channel` goes through: the sending tenant's email provider, the SMS API, or the webhook. */
export function providerFor(w: ReminderWorld, channel: Channel): Provider {
  return channel === 'email' ? w.sendingTenant.emailProvider : channel === 'sms' ? 'sms_api' : 'webhook';
}

/**
 * Quiet hours checked again at send time (issue #9 §7): the person may have set them after the message was
 * planned. A non-essential message to a person (not a staff nudge, not the organisation's webhook) that is being
 * sent inside their quiet hours waits for the end of them when that is before its expiry; else it goes now.
 * @returns the instant to wait until and the reason, or null to send now.
 */
export function quietHoursHold(w: ReminderWorld, now: Date): { until: Date; reason: string } | null {
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
export function optedOut(w: ReminderWorld): string | null {
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
export function unsubscribedByLink(w: ReminderWorld): boolean {
  return !!readUnsubscribed(w.contact.preferences)[categoryOf(w.reminder.kind, w.reminder.notificationType ?? null)];
}

/** What template-data validation says (emails/ `parseMessageData`). */
export type TemplateDataResult = ReturnType<typeof parseMessageData>;

/**
 * The words of an announcement's message in `locale` (the language fixed at the claim) as the staff-text renderer takes
 * them (version 1: an announcement's texts never change after it is created); null when it has no text in it.
 */
export function announcementWords(w: ReminderWorld, locale: string | null): StaffText | null {
  const t = w.announcement && locale ? (w.announcement.texts as AnnouncementTexts)[locale] : undefined;
  return t ? { version: 1, subject: t.subject, body: t.body, sms: smsWordsOf(t) } : null;
}
