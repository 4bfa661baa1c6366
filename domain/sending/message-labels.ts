/**
 * How staff pages name a planned message and its channel (issue #9 §8 "channels everywhere the staff look"):
 * channel badges, notifications by their type in plain words instead of a rule name, the quiet-hours note of a
 * held message, the SMS segment line of a text, and the per-channel wording of an unknown outcome's evidence.
 * Pure: no I/O, no clock reads; every instant and zone is an argument.
 */
import { DateTime } from 'luxon';
import { countSmsSegments, type SmsSegmentCount } from './sms-segments';
import type { Channel, DomainEventType, ReminderKind } from '@/domain/vocabulary';

/** A channel as a badge or column says it: "Email", "SMS", "Webhook". */
export const channelLabels: Record<Channel, string> = {
  email: 'Email',
  sms: 'SMS',
  webhook: 'Webhook',
};

/** A notification's type as staff say it (the timeline's title of a notification row). */
export const notificationLabels: Record<DomainEventType, string> = {
  booking_confirmed: 'Booking confirmed',
  booking_cancelled: 'Booking cancelled',
  event_rescheduled: 'Event rescheduled',
  event_cancelled: 'Event cancelled',
  participant_added_as_host: 'Added as host',
  event_details_changed: 'Event details changed',
  booking_declined: 'Participant cannot come',
};

/** Title of a nudge row (kept word for word: the nudge e2e spec and staff know it by this name). */
const NUDGE_TITLE = 'Manual reminder';
/** Title of a rule reminder whose rule was deleted since it was planned. */
const DELETED_RULE_TITLE = '(rule deleted)';
/** Title of an announcement's message (its subject is the delivery's own subject). */
const ANNOUNCEMENT_TITLE = 'Announcement';

/**
 * The title of one planned message: a rule reminder by its rule's name (or "(rule deleted)"), a nudge as
 * "Manual reminder", an announcement's message as "Announcement", a notification by its type in plain words ("Booking confirmed", "Event rescheduled"; a
 * notification row without a type — impossible by the schema's intent — reads "Notification").
 */
export function messageTitle(m: { kind: ReminderKind; ruleName: string | null; notificationType: DomainEventType | null }): string {
  if (m.kind === 'nudge') return NUDGE_TITLE;
  if (m.kind === 'announcement') return ANNOUNCEMENT_TITLE;
  if (m.kind === 'notification') return m.notificationType ? notificationLabels[m.notificationType] : 'Notification';
  return m.ruleName ?? DELETED_RULE_TITLE;
}

/** What the `subject` column of a delivery holds on each channel (the label of its expandable detail). */
export const subjectLabels: Record<Channel, string> = {
  email: 'Subject',
  sms: 'SMS text',
  webhook: 'Webhook target',
};

const clock = (instant: Date | string, zone: string) =>
  (instant instanceof Date ? DateTime.fromJSDate(instant) : DateTime.fromISO(instant)).setZone(zone).toFormat('HH:mm');

/**
 * The note on a message that quiet hours held back: "held for quiet hours (due 23:10, sent after 08:00)" —
 * `deferredFrom` is the instant it was due before quiet hours moved it, `dueAt` the instant it was moved to
 * (the end of the person's quiet hours). Both are read in `personZone`, the zone the quiet hours are kept in
 * (the contact's zone, else the tenant's: server/notifications/notify.ts); when that differs from `pageZone` (the zone the
 * page shows every other time in) the note names it: "…, sent after 08:00, their time in America/New_York)".
 * @returns null when nothing was held (`deferredFrom` null, or not before `dueAt`).
 */
export function quietHoursNote(input: { deferredFrom: Date | string | null; dueAt: Date | string; personZone: string; pageZone: string }): string | null {
  const { deferredFrom, dueAt, personZone, pageZone } = input;
  if (!deferredFrom) return null;
  const from = new Date(deferredFrom).getTime();
  const to = new Date(dueAt).getTime();
  if (!(from < to)) return null;
  const theirs = personZone === pageZone ? '' : `, their time in ${personZone}`;
  return `held for quiet hours (due ${clock(deferredFrom, personZone)}, sent after ${clock(dueAt, personZone)}${theirs})`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The line beside an SMS text: "2 segments · GSM-7 · 170 characters", "1 segment · UCS-2 · 70 characters".
 * Characters are Unicode code points as a person counts them; when the encoding counts a different number of
 * units (GSM-7 extension characters such as `€` take 2 septets, an emoji 2 UTF-16 units) the units follow in
 * brackets: "1 segment · GSM-7 · 12 characters (13 septets)". Segments per domain/sending/sms-segments.ts.
 */
export function describeSmsSegments(text: string, count: SmsSegmentCount = countSmsSegments(text)): string {
  const chars = [...text].length;
  const unitName = count.encoding === 'GSM-7' ? 'septets' : 'UTF-16 units';
  const units = count.units === chars ? '' : ` (${count.units} ${unitName})`;
  return `${plural(count.segments, 'segment')} · ${count.encoding} · ${plural(chars, 'character')}${units}`;
}

/**
 * What a person can look for to tell whether an `unknown` delivery went out, per channel: email by its
 * Message-ID in the mail server's or provider's log; SMS by recipient number and time in the SMS provider's
 * message log (Twilio-compatible APIs take no idempotency key, so nothing of ours identifies it); a webhook by
 * its `webhook-id` (the message key) in the receiver's log.
 */
export function reconcileHint(channel: Channel, ids: { messageId: string; messageKey: string; address: string }): string {
  if (channel === 'sms') {
    return `the SMS provider may have taken the request before the answer was lost. Look for a message to ${ids.address} at the attempt's time in the provider's message log, then mark it as sent, or send it again if it is not there.`;
  }
  if (channel === 'webhook') {
    return `the receiver may have taken the request before the answer was lost. Look for webhook-id ${ids.messageKey} in the receiver's log, then mark it as sent, or send it again (receivers deduplicate on webhook-id).`;
  }
  return `look for Message-ID ${ids.messageId} in the mail server's or provider's log, then mark it as sent, or send it again if it is not there.`;
}

/** The warning of "Send again" on an unknown outcome, per channel: what a second send can do to the recipient. */
export function sendAgainWarning(channel: Channel, address: string): string {
  if (channel === 'sms') return `The first attempt may have reached ${address}: the phone may show this text twice (SMS has no way to deduplicate).`;
  if (channel === 'webhook') return `The receiver at ${address} may already have this message: it is sent again with the same webhook-id, so a receiver that deduplicates processes it once.`;
  return `The first attempt may have reached ${address}: the recipient may get this message twice. It is sent under the same message key and Message-ID, so mail clients that deduplicate will show it once.`;
}
