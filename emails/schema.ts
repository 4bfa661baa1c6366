/**
 * The data every template renders from: the shared fields ({@link reminderTemplateDataSchema}, all eight
 * templates) and the notification fields on top of them ({@link notificationTemplateDataSchema}, the five
 * notification templates of issue #9). The worker builds this object from the database and validates it
 * with the template's schema (via `parseTemplateData` in emails/index.ts) BEFORE
 * claiming a delivery, so a missing or malformed field fails the reminder instead of reaching an inbox as
 * "undefined" or "Invalid DateTime" (DESIGN §4 invariant 5).
 *
 * Every field is required to be present; "may be absent" is spelled `null`, so a field forgotten by the
 * builder is an error ("endsAt: required"), not a silently empty row.
 */
import { DateTime } from 'luxon';
import { z } from 'zod';
import { isIsoInstant } from '@/domain/format-time';
import { isValidZone } from '@/domain/zones';
import { bookingRoles, preferenceCategories } from '@/domain/vocabulary';
import { EVENT_NOTE_MAX } from '@/domain/scheduling/event-note';
import { eventDetailFields } from '@/domain/scheduling/event-details-change';

/**
 * Message for a wrong-typed field: "required" when it is missing (or null where null is not allowed),
 * else "must be <what>".
 */
function typeError(what: string) {
  return (issue: { input?: unknown }) => (issue.input == null ? 'required' : `must be ${what}`);
}

const nonEmptyText = () =>
  z.string({ error: typeError('a string') }).trim().min(1, 'must not be empty');

/** Field schema: an ISO-8601 instant carrying Z or an offset, e.g. "2027-03-28T09:00:00.000Z". */
export const instant = () =>
  z
    .string({ error: typeError('an ISO-8601 instant string') })
    .refine(isIsoInstant, 'must be an ISO-8601 instant with Z or an offset, e.g. 2027-03-28T09:00:00.000Z');

/** Field schema: an http(s) URL (it becomes a link or button). */
export const httpUrl = () => z.url({ protocol: /^https?$/, error: typeError('an http(s) URL') });

const ianaZone = () =>
  z
    .string({ error: typeError('an IANA time zone name') })
    .refine((zone) => isValidZone(zone), 'must be a valid IANA time zone, e.g. Europe/Amsterdam');

/**
 * The fields, without cross-field checks. Per-template schemas `.extend()` this and then apply
 * {@link checkReminderTemplateData}; use {@link reminderTemplateDataSchema} to validate.
 */
export const reminderTemplateFieldsSchema = z.object({
  tenantName: nonEmptyText(),
  /** May be empty: templates then greet with "Hello,". */
  recipientName: z.string({ error: typeError('a string') }),
  role: z.enum(bookingRoles, { error: typeError(`one of ${bookingRoles.join(', ')}`) }),
  eventTitle: nonEmptyText(),
  /** UTC instant the event starts (for all-day events: any instant on the first day in the event zone). */
  startsAt: instant(),
  /** UTC instant the event ends (exclusive end for all-day events), or null when unknown. */
  endsAt: instant().nullable(),
  allDay: z.boolean({ error: typeError('true or false') }),
  /** IANA zone the event is planned in. */
  eventTimeZone: ianaZone(),
  /** IANA zone of the recipient, or null (an empty string is treated as null). */
  recipientTimeZone: z
    .string({ error: typeError('an IANA time zone name or null') })
    .refine((zone) => zone === '' || isValidZone(zone), 'must be a valid IANA time zone or null')
    .nullable(),
  /**
   * BCP 47 locale of the reader: picks the language of the words (emails/messages/: the tag, its base language,
   * else English — the send path has already applied the organisation's default) and the locale of the dates.
   */
  locale: z.string({ error: typeError('a locale string') }).default('en'),
  location: z.string({ error: typeError('a string or null') }).nullable(),
  notes: z.string({ error: typeError('a string or null') }).nullable(),
  /**
   * The event's note for participants in the reader's language (domain/scheduling/event-note.ts chooseEventNote):
   * plain text, at most 500 characters; the empty string when there is none (never null, so a text that prints
   * `{eventNote}` prints nothing). The built-in text shows it as its own paragraph only when it is not empty.
   */
  eventNote: z.string({ error: typeError('a string') }).max(EVENT_NOTE_MAX, `must be at most ${EVENT_NOTE_MAX} characters`),
  /** Link to the online room (http or https only: it becomes a button). */
  roomUrl: httpUrl().nullable(),
  /** UTC instant the online room opens, or null. */
  roomOpensAt: instant().nullable(),
  participantCount: z
    .number({ error: typeError('a whole number or null') })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .nullable(),
  /**
   * Signed link to the person's channel preferences (issue #9), or null for no link (previews, rows made
   * before preferences existed). When present every template ends with "Choose how {tenantName} reaches
   * you: <link>" (email footer) or " Manage: <link>" (SMS).
   */
  preferencesUrl: httpUrl().nullable(),
  /**
   * Signed one-click unsubscribe link (issue #10 §5), or absent/null for none (essential messages, SMS, previews).
   * Unlike the other fields it may be left out: the send path adds it when it renders the email
   * (server/sending/compose-message.ts `unsubscribeLinkFor`), after the data was validated for the claim. When present
   * the email footer adds "Unsubscribe from {category}" as a link (HTML and text part).
   */
  unsubscribeUrl: httpUrl().nullish(),
  /**
   * Signed action links of the reader's booking ("I'll be there" / "I can't come", server/sending/action-link.ts), or
   * absent/null for none (hosts, a cancelled booking, previews, links not configured). Added by the send path
   * (server/sending/send-checks.ts `messageData`); when present a participant's email shows both as buttons under its
   * first lines and the SMS one short link to the page that offers both.
   */
  confirmUrl: httpUrl().nullish(),
  declineUrl: httpUrl().nullish(),
  /** The preference category the unsubscribe link is for (names the link: "Unsubscribe from reminders"). */
  unsubscribeCategory: z.enum(preferenceCategories, { error: typeError(`one of ${preferenceCategories.join(', ')}`) }).nullish(),
});

/**
 * Cross-field checks shared by all template schemas: `endsAt` must not be before `startsAt`.
 * Only runs once the fields themselves parsed (zod skips refinements after field errors).
 */
export function checkReminderTemplateData(
  data: { startsAt: string; endsAt: string | null },
  ctx: z.RefinementCtx,
): void {
  if (data.endsAt !== null && DateTime.fromISO(data.endsAt) < DateTime.fromISO(data.startsAt)) {
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'must not be before startsAt' });
  }
}

/** Validates reminder template data; see the field comments for each field's contract. */
export const reminderTemplateDataSchema = reminderTemplateFieldsSchema.superRefine(checkReminderTemplateData);

/** Reminder template data after validation (`locale` defaulted to "en"). */
export type ReminderTemplateData = z.infer<typeof reminderTemplateDataSchema>;

/** Field schema: an IANA zone name or null. */
const ianaZoneOrNull = () =>
  z
    .string({ error: typeError('an IANA time zone name or null') })
    .refine((zone) => isValidZone(zone), 'must be a valid IANA time zone, e.g. Europe/Amsterdam, or null')
    .nullable();

/**
 * The notification fields (issue #9: messages about a domain event — booking confirmed or cancelled, event
 * rescheduled or cancelled, added as host): the shared fields plus the event's schedule version, the timing
 * before a reschedule and the reason staff typed for a cancellation. Without cross-field checks; templates
 * `.superRefine()` with {@link checkNotificationTemplateData} (and the reschedule notice also with
 * {@link checkRescheduleTemplateData}).
 *
 * The `previous*` fields describe the event as it was before the change that the notification is about
 * (all null when the notification is not about a timing change).
 */
export const notificationTemplateFieldsSchema = reminderTemplateFieldsSchema.extend({
  /** The event's schedule version the notification was made from (DESIGN §3): 1 for a never-moved event. */
  scheduleVersion: z
    .number({ error: typeError('a whole number of 1 or more') })
    .int('must be a whole number')
    .min(1, 'must be 1 or more'),
  /** UTC instant the event started before the reschedule, or null. Required by event-rescheduled. */
  previousStartsAt: instant().nullable(),
  /** UTC instant the event ended before the reschedule, or null (no change, or the old end was unknown). */
  previousEndsAt: instant().nullable(),
  /** IANA zone the event was planned in before the reschedule, or null. Required by event-rescheduled. */
  previousTimeZone: ianaZoneOrNull(),
  /** Whether the event was all-day before the reschedule, or null. Required by event-rescheduled. */
  previousAllDay: z.boolean({ error: typeError('true, false or null') }).nullable(),
  /** The cancellation reason staff typed (shown as typed, may be several lines), or null when none. */
  reason: z.string({ error: typeError('a string or null') }).nullable(),
  /**
   * The participant a notification to OTHER people is about (booking-declined: who cannot come), as typed on file;
   * null or absent for a notification about the reader's own booking or event.
   */
  participantName: z.string({ error: typeError('a string or null') }).nullish(),
});

/**
 * Cross-field checks for every notification: those of {@link checkReminderTemplateData}, and
 * `previousEndsAt` must not be before `previousStartsAt` when both are given.
 */
export function checkNotificationTemplateData(
  data: { startsAt: string; endsAt: string | null; previousStartsAt: string | null; previousEndsAt: string | null },
  ctx: z.RefinementCtx,
): void {
  checkReminderTemplateData(data, ctx);
  if (
    data.previousStartsAt !== null &&
    data.previousEndsAt !== null &&
    DateTime.fromISO(data.previousEndsAt) < DateTime.fromISO(data.previousStartsAt)
  ) {
    ctx.addIssue({ code: 'custom', path: ['previousEndsAt'], message: 'must not be before previousStartsAt' });
  }
}

/**
 * The reschedule notice states the old time next to the new one, so it needs the old timing: a null
 * `previousStartsAt`, `previousTimeZone` or `previousAllDay` is an error on that field ("previousStartsAt:
 * required for a reschedule notice"). `previousEndsAt` may stay null (the old end was unknown), as `endsAt`
 * may.
 */
export function checkRescheduleTemplateData(
  data: { previousStartsAt: string | null; previousTimeZone: string | null; previousAllDay: boolean | null },
  ctx: z.RefinementCtx,
): void {
  for (const field of ['previousStartsAt', 'previousTimeZone', 'previousAllDay'] as const) {
    if (data[field] === null) {
      ctx.addIssue({ code: 'custom', path: [field], message: 'required for a reschedule notice' });
    }
  }
}

/**
 * One changed detail of a "details changed" notice (domain/scheduling/event-details-change.ts `DetailChange`): which
 * detail, and its text before and after (null = none; at most 2000 characters each, as the event form allows).
 */
export const detailChangeSchema = z.object({
  field: z.enum(eventDetailFields, { error: `must be one of ${eventDetailFields.join(', ')}` }),
  from: z.string({ error: typeError('a string or null') }).max(2000).nullable(),
  to: z.string({ error: typeError('a string or null') }).max(2000).nullable(),
});

/** Validates notification template data; see the field comments for each field's contract. */
export const notificationTemplateDataSchema = notificationTemplateFieldsSchema.superRefine(checkNotificationTemplateData);

/** Notification template data after validation (`locale` defaulted to "en"). */
export type NotificationTemplateData = z.infer<typeof notificationTemplateDataSchema>;

/**
 * Data for any template: reminder data, or notification data (which has the notification fields too). The
 * template's own schema decides which it needs.
 */
export type TemplateData = ReminderTemplateData | NotificationTemplateData;
