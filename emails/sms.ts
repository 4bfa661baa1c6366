/**
 * The SMS text of every template (issue #9): the three reminders and the five notifications, as one short
 * plain-text message in the reader's language (emails/messages/, the `sms` message of each kind and the `sms…`
 * sentences of `common`).
 *
 * Shape: "{tenantName}: {what}, {when}." plus the template's few extras (place, online room, participant
 * count, reason), each a sentence of its own, and, when the data has a `preferencesUrl`, "Manage: {url}" at the
 * very end. Example (en): "Studio Noord: reminder - Intro workshop, Sun 28 Mar, 11:00 CEST (05:00 EDT your time).
 * Where: Studio Noord, Kanaalstraat 12, Amsterdam."
 *
 * Length and alphabet (3GPP TS 23.038): a message in the GSM 7-bit default alphabet fits 160 characters per
 * single message, while ONE character outside it makes the whole message UCS-2 (70 per message). So:
 * - The fixed wording (the catalog's words and the dates) is written with GSM-7 look-alikes where its language
 *   has them (domain/sending/gsm7-lookalikes.ts: straight quotes, "-" for dashes, French "ê" → "e", Spanish
 *   "á" → "a", …) — but only when the whole message then fits GSM-7; when something else makes it UCS-2 anyway
 *   (a typed Hebrew title, an emoji, Hebrew text) the language's own spelling is kept, as providers' smart
 *   encoding does.
 * - Dates and times come from domain/format-time.ts (the message's locale, event zone, as in the email
 *   subjects); the typographic spaces and dashes ICU puts in them (U+202F before "AM", U+2009, U+00A0,
 *   U+2013) become a plain space and "-".
 * - Text people typed (organisation name, title, place, reason) is never changed: it is collapsed to one line and
 *   cut, with "...", at a grapheme boundary: organisation name 40, title 60, place 60, reason 100 graphemes. URLs
 *   are never cut. Aim: ≤ 160 characters for a typical event without the preferences link; nothing enforces a
 *   limit (domain/sending/sms-segments.ts counts the parts).
 * - Right-to-left typed text in a left-to-right message (and the reverse) is wrapped in Unicode isolates as
 *   in the email subjects (domain/text-direction.ts).
 *
 * The recipient's own time is added after the event's time — "(05:00 EDT your time)", or with the date when
 * that differs from the event's local date — when the recipient has a zone whose offset differs from the
 * event zone's at that instant (not for all-day events), as the emails' "(your time)" line.
 */
import { DateTime } from 'luxon';
import { formatClockTime, formatShortWhen } from '@/domain/format-time';
import { gsm7Lookalikes, gsmDate } from '@/domain/sending/gsm7-lookalikes';
import { countSmsSegments } from '@/domain/sending/sms-segments';
import type { TemplateId } from '@/domain/vocabulary';
import { previousShortWhen, type EventRescheduledProps } from './event-rescheduled';
import { changesText, type EventDetailsChangedProps } from './event-details-changed';
import { participantSentence } from './host-reminder';
import {
  isTemplateId,
  parseTemplateData,
  type NotificationTemplateData,
  type ReminderTemplateData,
  type TemplateData,
} from './index';
import { messageLocale, oneLine } from './layout';
import { sentenceText, type MessageContext, type MessageValue, type Sentence, type TypedPart } from './messages';

/** Longest typed values kept in an SMS, in graphemes (see the module comment). */
export const smsTypedLimits = { tenantName: 40, eventTitle: 60, location: 60, reason: 100 } as const;

// Grapheme boundaries do not depend on the locale.
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** `text` on one line, cut to `max` graphemes with "..." at the end when longer. Pure. */
function typed(text: string, max: number): TypedPart {
  const line = oneLine(text);
  const parts = Array.from(graphemes.segment(line), (s) => s.segment);
  return { typed: parts.length <= max ? line : `${parts.slice(0, max - 3).join('').trimEnd()}...` };
}


type TimingData = Pick<ReminderTemplateData, 'eventTimeZone' | 'recipientTimeZone' | 'allDay'>;

/**
 * The reader's own clock ("05:00 EDT", or "Sat 27 Mar, 23:00 EDT" when their date differs) for the instant `at`, or
 * null when the recipient has no zone, the event is all-day, or both zones have the same offset at `at`.
 */
function recipientTime(data: TimingData, m: MessageContext, at: string): string | null {
  const zone = data.recipientTimeZone;
  if (!zone || zone === data.eventTimeZone || data.allDay) return null;
  const inEvent = DateTime.fromISO(at).setZone(data.eventTimeZone);
  const inRecipient = DateTime.fromISO(at).setZone(zone);
  if (inEvent.offset === inRecipient.offset) return null;
  const shown =
    inEvent.toISODate() === inRecipient.toISODate()
      ? formatClockTime({ at, timeZone: zone, locale: m.lang })
      : formatShortWhen({ at, timeZone: zone, locale: m.lang, allDay: false, words: m.words });
  return gsmDate(shown);
}

/** `when` followed by the reader's own time when there is one: "Sun 28 Mar, 11:00 CEST (05:00 EDT your time)". */
function withTheirs(m: MessageContext, when: string, theirs: string | null): string {
  return theirs === null ? when : m.plain(m.text.common.smsTheirTime, { when, time: theirs });
}

/** The event's start in its zone, then the reader's: "Sun 28 Mar, 11:00 CEST (05:00 EDT your time)". */
function when(data: ReminderTemplateData, m: MessageContext): string {
  const inEventZone = formatShortWhen({ at: data.startsAt, timeZone: data.eventTimeZone, locale: m.lang, allDay: data.allDay, words: m.words });
  return withTheirs(m, gsmDate(inEventZone), recipientTime(data, m, data.startsAt));
}

function whereText(data: ReminderTemplateData, m: MessageContext): Sentence[] {
  if (!data.location || !data.location.trim()) return [];
  return [m.sentence(m.text.common.smsWhere, { location: typed(data.location, smsTypedLimits.location) })];
}

function roomText(data: ReminderTemplateData, m: MessageContext): Sentence[] {
  return data.roomUrl ? [m.sentence(m.text.common.smsRoom, { url: data.roomUrl })] : [];
}

function reasonText(data: NotificationTemplateData, m: MessageContext): Sentence[] {
  if (!data.reason || !data.reason.trim()) return [];
  return [m.sentence(m.text.common.smsReason, { reason: typed(data.reason, smsTypedLimits.reason) })];
}

function participantsText(data: ReminderTemplateData, m: MessageContext): Sentence[] {
  return data.participantCount === null ? [] : [[participantSentence(m, data.participantCount)]];
}

/** "Coming? Answer here: <link>" — one short link to the page that offers both answers — when the message carries action links. */
function answerText(data: NotificationTemplateData, m: MessageContext): Sentence[] {
  return data.confirmUrl ? [m.sentence(m.text.common.smsAnswer, { url: data.confirmUrl })] : [];
}

/** The values every `sms` message gets: the organisation, the title and the event's start. */
function smsValues(d: NotificationTemplateData, m: MessageContext): Record<string, MessageValue> {
  return {
    tenantName: typed(d.tenantName, smsTypedLimits.tenantName),
    eventTitle: typed(d.eventTitle, smsTypedLimits.eventTitle),
    when: when(d, m),
  };
}

/** The message's sentences (without the Manage link), per template, from validated data. */
const bodies: Record<TemplateId, (d: NotificationTemplateData, m: MessageContext) => Sentence[]> = {
  'attendee-reminder': (d, m) => [m.sentence(m.text['attendee-reminder'].sms, smsValues(d, m)), ...whereText(d, m), ...roomText(d, m), ...answerText(d, m)],
  'room-opening': (d, m) => {
    // The schema requires roomUrl and roomOpensAt for this template.
    const opensAt = d.roomOpensAt ?? d.startsAt;
    const clock = gsmDate(formatClockTime({ at: opensAt, timeZone: d.eventTimeZone, locale: m.lang }));
    // The room opens at a clock time even for an all-day event: show the reader's clock too.
    const time = withTheirs(m, clock, recipientTime({ ...d, allDay: false }, m, opensAt));
    return [m.sentence(m.text['room-opening'].sms, { ...smsValues(d, m), time, url: d.roomUrl ?? '' })];
  },
  'host-reminder': (d, m) => [m.sentence(m.text['host-reminder'].sms, smsValues(d, m)), ...participantsText(d, m), ...roomText(d, m)],
  'booking-confirmed': (d, m) => [m.sentence(m.text['booking-confirmed'].sms, smsValues(d, m)), ...whereText(d, m), ...roomText(d, m), ...answerText(d, m)],
  'booking-cancelled': (d, m) => [m.sentence(m.text['booking-cancelled'].sms, smsValues(d, m)), ...reasonText(d, m)],
  'event-rescheduled': (d, m) => [
    m.sentence(m.text['event-rescheduled'].sms, { ...smsValues(d, m), was: gsmDate(previousShortWhen(d as EventRescheduledProps)), now: when(d, m) }),
    ...roomText(d, m),
  ],
  'event-cancelled': (d, m) => [m.sentence(m.text['event-cancelled'].sms, smsValues(d, m)), ...reasonText(d, m)],
  'host-added': (d, m) => [m.sentence(m.text['host-added'].sms, smsValues(d, m)), ...participantsText(d, m), ...roomText(d, m)],
  'event-details-changed': (d, m) => [
    m.sentence(m.text['event-details-changed'].sms, { ...smsValues(d, m), changes: changesText(m, (d as EventDetailsChangedProps).detailChanges, (v) => typed(v, smsTypedLimits.location)) }),
  ],
  'confirmation-request': (d, m) => [m.sentence(m.text['confirmation-request'].sms, smsValues(d, m)), ...answerText(d, m)],
  'booking-declined': (d, m) => {
    const name = (d.participantName ?? '').trim() || '—';
    return [m.sentence(m.text['booking-declined'].sms, { ...smsValues(d, m), participantName: typed(name, smsTypedLimits.tenantName) }), ...reasonText(d, m)];
  },
};

/**
 * The sentences as one message: separated by a space, and a full stop after typed text that already ends a
 * sentence dropped ("Reason: Sorry!." → "Reason: Sorry!").
 */
function joinSentences(sentences: Sentence[]): Sentence {
  const out: Sentence = [];
  sentences.forEach((sentence, i) => {
    if (i > 0) out.push(' ');
    sentence.forEach((part, j) => {
      const before = j > 0 ? sentence[j - 1] : undefined;
      if (typeof part === 'string' && part.startsWith('.') && typeof before === 'object' && 'typed' in before && /[.!?]$/.test(before.typed)) {
        out.push(part.slice(1));
      } else {
        out.push(part);
      }
    });
  });
  return out;
}

/**
 * The SMS text of `templateId` for `data` (see the module comment for wording, alphabet and length). Pure:
 * the same data always gives the same text; no clock reads.
 *
 * @param data template data as for the email ({@link ReminderTemplateData}; the notification templates also
 *   need the notification fields, {@link NotificationTemplateData}); validated with the template's schema
 *   first. Its `locale` picks the language (emails/messages/index.ts `messageContext`).
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
  const m = messageLocale(d.locale);
  const manage = d.preferencesUrl ? [m.sentence(m.text.common.smsManage, { url: d.preferencesUrl })] : [];
  const message = joinSentences([...bodies[templateId](d, m), ...manage]);
  const own = sentenceText(message, m.dir);
  // GSM-7 look-alikes for the fixed wording only, and only when the whole message then fits GSM-7.
  const lookalike = sentenceText(
    message.map((p) => (typeof p === 'string' ? gsm7Lookalikes(p, m.language) : p)),
    m.dir,
  );
  return lookalike !== own && countSmsSegments(lookalike).encoding === 'GSM-7' ? lookalike : own;
}
