/**
 * The add-participant form's rules (name, address, role, zone, mobile number, language), as one zod schema. Pure:
 * no I/O. Used by server/scheduling/staff-actions.ts `addBookingAction` (one person from the event page) and by
 * domain/people/participant-csv.ts (each row of a CSV import), so both accept and refuse the same values with the same words.
 */
import { z } from 'zod';
import { canonicalLocale } from '@/domain/locales';
import { parsePhone } from '@/domain/phone';
import { refuseBidiControls } from '@/domain/text';
import { bookingRoles } from '@/domain/vocabulary';

export const bookingFormSchema = z.object({
  // eslint-disable-next-line no-control-regex
  name: z.string().trim().min(1, 'required').max(200).regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain line breaks or control characters').check(refuseBidiControls),
  email: z.email({ message: 'must be an email address' }).max(254, 'at most 254 characters (RFC 5321)'),
  role: z.enum(bookingRoles),
  timeZone: z
    .string()
    .nullish()
    .transform((v) => (v ? v : null)),
  /** Mobile number for SMS (any common notation; stored in E.164); empty keeps a known person's number. */
  phone: z
    .string()
    .nullish()
    .transform((v, ctx) => {
      if (!v || !v.trim()) return null;
      const r = parsePhone(v);
      if (!r.ok) ctx.addIssue({ code: 'custom', message: r.message });
      return r.ok ? r.e164 : null;
    }),
  /** For `external`: the slug of the guest's own tenant. */
  guestTenant: z
    .string()
    .nullish()
    .transform((v) => (v ? v : null)),
  /** BCP 47 tag of the language their messages follow (dates and times); empty keeps a known person's. */
  locale: z
    .string()
    .nullish()
    .transform((v, ctx) => {
      if (!v || !v.trim()) return null;
      const tag = canonicalLocale(v);
      if (!tag) ctx.addIssue({ code: 'custom', message: 'must be a language tag such as en, de or pt-BR' });
      return tag;
    }),
});
export type BookingForm = z.input<typeof bookingFormSchema>;
