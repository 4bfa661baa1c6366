/**
 * Input schemas (zod) of the scheduling use-cases: event creation and timing, a booking and its contact, and
 * the zone and phone fields other forms reuse. Validated with `parseInput` (server/platform/errors.ts), which
 * throws AppError('validation', field).
 */
import { z } from 'zod';
import { bookingRoles } from '@/domain/vocabulary';
import { isValidZone, suggestZone } from '@/domain/zones';
import { parsePhone } from '@/domain/phone';
import { refuseBidiControls } from '@/domain/text';

/** An IANA zone this runtime accepts (current names and old aliases, stored as given; domain/zones.ts). */
export const zone = z.string().superRefine((v, ctx) => {
  if (isValidZone(v)) return;
  const guess = suggestZone(v);
  ctx.addIssue({ code: 'custom', message: `must be an IANA time zone such as Europe/Amsterdam${guess ? ` — did you mean ${guess}?` : ''}` });
});
/** A mobile number in international form (libphonenumber-js validity, domain/phone.ts) → E.164; '' → null. */
export const phoneField = z.string().transform((v, ctx) => {
  if (v.trim() === '') return null;
  const r = parsePhone(v);
  if (!r.ok) {
    ctx.addIssue({ code: 'custom', message: r.message });
    return z.NEVER;
  }
  return r.e164;
});
const instant = z.coerce.date().refine((d) => !Number.isNaN(d.getTime()), { message: 'must be an ISO-8601 instant' });

/** An event's timing: start and end instants (ISO-8601; end not before start), IANA zone, all-day flag, room-open lead (minutes, 0–1440; null = the tenant's). */
export const eventTimingSchema = z
  .object({
    startsAt: instant,
    endsAt: instant,
    timeZone: zone,
    allDay: z.boolean().default(false),
    roomOpenLeadMinutes: z.number().int().min(0).max(24 * 60).nullish(),
  })
  .refine((v) => v.endsAt.getTime() >= v.startsAt.getTime(), { message: 'must not be before startsAt', path: ['endsAt'] });

/** A new event: title (required), description, location, http(s) room URL, external UID, note for participants, and its timing; bidi controls refused in typed text. */
export const createEventSchema = z
  .object({
    title: z.string().trim().min(1, 'required').check(refuseBidiControls),
    description: z.string().check(refuseBidiControls).nullish(),
    location: z.string().check(refuseBidiControls).nullish(),
    roomUrl: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL such as https://meet.example/room' }).max(2000).check(refuseBidiControls).nullish(),
    externalUid: z.string().min(1).nullish(),
    /** The note for participants per language, already checked (domain/scheduling/event-note.ts checkEventNote); null = none. */
    eventNote: z.record(z.string(), z.string()).nullish(),
  })
  .and(eventTimingSchema);
/** `createEvent`'s input, before validation. */
export type CreateEventInput = z.input<typeof createEventSchema>;

/** A booking: the event, the person's role, their contact details (used only for a NEW contact), and for an external guest their own tenant. */
export const addBookingSchema = z.object({
  eventId: z.uuid(),
  role: z.enum(bookingRoles),
  contact: z.object({
    email: z.email(),
    /** The name of a NEW contact ('' when omitted); a known person keeps theirs (domain/scheduling/contact-kept.ts). */
    name: z.string().trim().check(refuseBidiControls).optional(),
    // No default: a known person keeps their language unless one is given (upsertContact inserts 'en' for a new one).
    locale: z.string().min(2).optional(),
    timeZone: zone.nullish(),
    /** Mobile number for SMS of a NEW contact, stored in E.164 ('' or null: none); a known person keeps theirs. */
    phone: phoneField.nullish(),
  }),
  guestTenantId: z.uuid().nullish(),
});
/** `addBooking`'s input, before validation. */
export type AddBookingInput = z.input<typeof addBookingSchema>;
