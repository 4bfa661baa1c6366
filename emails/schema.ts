/**
 * The data every reminder template renders from. The worker builds this object from the database and
 * validates it with {@link reminderTemplateDataSchema} (via `parseTemplateData` in emails/index.ts) BEFORE
 * claiming a delivery, so a missing or malformed field fails the reminder instead of reaching an inbox as
 * "undefined" or "Invalid DateTime" (DESIGN §4 invariant 5).
 *
 * Every field is required to be present; "may be absent" is spelled `null`, so a field forgotten by the
 * builder is an error ("endsAt: required"), not a silently empty row.
 */
import { DateTime } from 'luxon';
import { z } from 'zod';
import { isIsoInstant } from '../domain/format-time';
import { isValidZone } from '../domain/zones';
import { bookingRoles } from '../domain/vocabulary';

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
  /** BCP 47 locale for date names; unsupported locales render as "en". */
  locale: z.string({ error: typeError('a locale string') }).default('en'),
  location: z.string({ error: typeError('a string or null') }).nullable(),
  notes: z.string({ error: typeError('a string or null') }).nullable(),
  /** Link to the online room (http or https only: it becomes a button). */
  roomUrl: httpUrl().nullable(),
  /** UTC instant the online room opens, or null. */
  roomOpensAt: instant().nullable(),
  participantCount: z
    .number({ error: typeError('a whole number or null') })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .nullable(),
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
