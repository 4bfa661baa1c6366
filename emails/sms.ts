/**
 * The SMS text of every template (issue #9): the three reminders and the five notifications, as one short
 * plain-text message.
 *
 * Shape: "{tenantName}: {what}, {when}." plus the template's few extras (place, online room, participant
 * count, reason) and, when the data has a `preferencesUrl`, " Manage: {url}" at the very end. Example:
 * "Studio Noord: reminder - Intro workshop, Sun 28 Mar, 11:00 CEST (05:00 EDT your time). Where: Studio
 * Noord, Kanaalstraat 12, Amsterdam."
 *
 * Length and alphabet (3GPP TS 23.038): a message in the GSM 7-bit default alphabet fits 160 characters per
 * single message, while ONE character outside it makes the whole message UCS-2 (70 per message). So:
 * - The fixed wording uses only GSM-7 characters: straight apostrophe, "-" instead of dashes, "..." instead
 *   of an ellipsis character.
 * - Dates and times come from domain/format-time.ts (the reader's locale, event zone, as in the email
 *   subjects); the typographic spaces and dashes ICU puts in them (U+202F before "AM", U+2009, U+00A0,
 *   U+2013) become a plain space and "-". Date words of the reader's locale stay as they are (a Greek or
 *   Hebrew reader gets Greek or Hebrew month names, which are not GSM-7).
 * - So only text people typed (organisation name, title, place, reason) and the locale's own date words
 *   can make a message UCS-2.
 * - Typed text is collapsed to one line and cut, with "...", at a grapheme boundary: organisation name 40,
 *   title 60, place 60, reason 100 graphemes. URLs are never cut. Aim: ≤ 160 characters for a typical event
 *   without the preferences link; nothing enforces a limit.
 * - Right-to-left typed text in a left-to-right message (and the reverse) is wrapped in Unicode isolates as
 *   in the email subjects (domain/text-direction.ts).
 *
 * The recipient's own time is added after the event's time — "(05:00 EDT your time)", or with the date when
 * that differs from the event's local date — when the recipient has a zone whose offset differs from the
 * event zone's at that instant (not for all-day events), as the emails' "(your time)" line.
 */
import { DateTime } from 'luxon';
import { formatClockTime, formatShortWhen } from '@/domain/format-time';
import type { TemplateId } from '@/domain/vocabulary';
import { previousShortWhen, type EventRescheduledProps } from './event-rescheduled';
import { participantSentence } from './host-reminder';
import {
  isTemplateId,
  parseTemplateData,
  type NotificationTemplateData,
  type ReminderTemplateData,
  type TemplateData,
} from './index';
import { messageLocale, oneLine, sentenceText, type Sentence } from './layout';

/** Longest typed values kept in an SMS, in graphemes (see the module comment). */
const smsTypedLimits = { tenantName: 40, eventTitle: 60, location: 60, reason: 100 } as const;

// Grapheme boundaries do not depend on the locale.
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** `text` on one line, cut to `max` graphemes with "..." at the end when longer. Pure. */
function typed(text: string, max: number): { typed: string } {
  const line = oneLine(text);
  const parts = Array.from(graphemes.segment(line), (s) => s.segment);
  return { typed: parts.length <= max ? line : `${parts.slice(0, max - 3).join('').trimEnd()}...` };
}

/** ICU's typographic spaces and dashes in a formatted date → plain space and "-" (GSM-7). Pure. */
function gsmDate(formatted: string): string {
  return formatted.replace(/[\u00a0\u2007\u2009\u202f]/g, ' ').replace(/[\u2012\u2013\u2014\u2212]/g, '-');
}

/** "." unless `text` already ends a sentence. */
function stop(text: string): string {
  return /[.!?]$/.test(text) ? '' : '.';
}

type TimingData = Pick<ReminderTemplateData, 'eventTimeZone' | 'recipientTimeZone' | 'locale' | 'allDay'>;

/**
 * " (05:00 EDT your time)" / " (Sat 27 Mar, 23:00 EDT your time)" for the instant `at`, or "" when the
 * recipient has no zone, the event is all-day, or both zones have the same offset at `at`.
 */
function recipientTime(data: TimingData, at: string): string {
  const zone = data.recipientTimeZone;
  if (!zone || zone === data.eventTimeZone || data.allDay) return '';
  const inEvent = DateTime.fromISO(at).setZone(data.eventTimeZone);
  const inRecipient = DateTime.fromISO(at).setZone(zone);
  if (inEvent.offset === inRecipient.offset) return '';
  const shown =
    inEvent.toISODate() === inRecipient.toISODate()
      ? formatClockTime({ at, timeZone: zone, locale: data.locale })
      : formatShortWhen({ at, timeZone: zone, locale: data.locale, allDay: false });
  return ` (${gsmDate(shown)} your time)`;
}

/** "Sun 28 Mar, 11:00 CEST (05:00 EDT your time)": the event's start in its zone, then the reader's. */
function when(data: ReminderTemplateData): string {
  const inEventZone = formatShortWhen({
    at: data.startsAt,
    timeZone: data.eventTimeZone,
    locale: data.locale,
    allDay: data.allDay,
  });
  return gsmDate(inEventZone) + recipientTime(data, data.startsAt);
}

function whereText(data: ReminderTemplateData): Sentence {
  if (!data.location || !data.location.trim()) return [];
  const place = typed(data.location, smsTypedLimits.location);
  return [' Where: ', place, stop(place.typed)];
}

function roomText(data: ReminderTemplateData): Sentence {
  return data.roomUrl ? [` Room: ${data.roomUrl}`] : [];
}

function reasonText(data: NotificationTemplateData): Sentence {
  if (!data.reason || !data.reason.trim()) return [];
  const reason = typed(data.reason, smsTypedLimits.reason);
  return [' Reason: ', reason, stop(reason.typed)];
}

function participantsText(data: ReminderTemplateData): Sentence {
  return data.participantCount === null ? [] : [` ${participantSentence(data.participantCount)}`];
}

/** The message without the tenant prefix and the Manage link, per template, from validated data. */
const bodies: Record<TemplateId, (data: NotificationTemplateData, title: { typed: string }) => Sentence> = {
  'attendee-reminder': (d, title) => ['reminder - ', title, `, ${when(d)}.`, ...whereText(d), ...roomText(d)],
  'room-opening': (d, title) => {
    // The schema requires roomUrl and roomOpensAt for this template.
    const opensAt = d.roomOpensAt ?? d.startsAt;
    const clock = gsmDate(formatClockTime({ at: opensAt, timeZone: d.eventTimeZone, locale: d.locale }));
    // The room opens at a clock time even for an all-day event: show the reader's clock too.
    const theirs = recipientTime({ ...d, allDay: false }, opensAt);
    return ['the online room for ', title, ` opens at ${clock}${theirs}.`, ` Join: ${d.roomUrl ?? ''}`];
  },
  'host-reminder': (d, title) => ['you are hosting ', title, `, ${when(d)}.`, ...participantsText(d), ...roomText(d)],
  'booking-confirmed': (d, title) => ["you're booked - ", title, `, ${when(d)}.`, ...whereText(d), ...roomText(d)],
  'booking-cancelled': (d, title) => ['your place at ', title, ` on ${when(d)} was cancelled.`, ...reasonText(d)],
  'event-rescheduled': (d, title) => [
    title,
    ` has moved. Was: ${gsmDate(previousShortWhen(d as EventRescheduledProps))}. Now: ${when(d)}.`,
    ...roomText(d),
  ],
  'event-cancelled': (d, title) => [title, ` on ${when(d)} is cancelled.`, ...reasonText(d)],
  'host-added': (d, title) => ["you're hosting ", title, `, ${when(d)}.`, ...participantsText(d), ...roomText(d)],
};

/**
 * The SMS text of `templateId` for `data` (see the module comment for wording, alphabet and length). Pure:
 * the same data always gives the same text; no clock reads.
 *
 * @param data template data as for the email ({@link ReminderTemplateData}; the notification templates also
 *   need the notification fields, {@link NotificationTemplateData}); validated with the template's schema
 *   first.
 * @returns one line of plain text, e.g. "Acme Events: Python workshop has moved. Was: Thu 1 Jul, 10:00 WEST.
 *   Now: Fri 2 Jul, 10:00 WEST (05:00 EDT your time). Manage: https://…".
 * @throws Error for an unknown template id ('Unknown SMS template id "…"'), or when `data` fails the
 *   template's schema ('Invalid data for SMS template "…": startsAt: required') — callers should have run
 *   `parseTemplateData` first, as for `renderReminderEmail`.
 */
export function renderSmsText(templateId: TemplateId, data: TemplateData): string {
  if (!isTemplateId(templateId)) throw new Error(`Unknown SMS template id "${String(templateId)}"`);
  const parsed = parseTemplateData(templateId, data);
  if (!parsed.ok) throw new Error(`Invalid data for SMS template "${templateId}": ${parsed.message}`);
  // Notification fields are present for notification templates (their schemas require them); the reminder
  // bodies read only the shared fields.
  const d = parsed.data as NotificationTemplateData;
  const { dir } = messageLocale(d.locale);
  const sentence: Sentence = [
    typed(d.tenantName, smsTypedLimits.tenantName),
    ': ',
    ...bodies[templateId](d, typed(d.eventTitle, smsTypedLimits.eventTitle)),
  ];
  const manage = d.preferencesUrl ? ` Manage: ${d.preferencesUrl}` : '';
  return sentenceText(sentence, dir) + manage;
}
