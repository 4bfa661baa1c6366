/**
 * The booking action links' use-cases (app/a/[token]/route.ts): read what a token names for the GET page, and act on
 * a POST through the one attendance use-case (./attendance.ts `answerBooking`, source `link`). The token is the
 * credential (server/sending/action-link.ts); a GET never writes.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { bookings, contacts, events, tenants } from '@/db/schema';
import { formatShortWhen } from '@/domain/format-time';
import { actionLinkAnswers, type ActionLinkAnswer, type ActionLinkSubject, type AttendanceState } from '@/domain/scheduling/attendance';
import { catalogs } from '@/emails/messages';
import { pageLanguageFor } from '@/emails/messages/page-language';
import type { PageLanguage } from '@/emails/messages/page-text';
import { AppError } from '@/server/platform/errors';
import { signActionToken, verifyActionToken } from '@/server/sending/action-link';
import { answerBooking, type AnswerBookingResult } from './attendance';
import type { ActionPageSubject } from './action-page';

/** What a valid token leads to: the page's subject, the token's answer, the booking's state, and the other answer's token. */
export interface ActionView {
  subject: ActionPageSubject;
  link: ActionLinkSubject;
  bookingStatus: 'confirmed' | 'cancelled';
  attendance: AttendanceState;
  eventStatus: 'scheduled' | 'cancelled';
  /** A token for the other answer (same booking and expiry), signed with `secrets[0]`. */
  otherToken: string;
}

/**
 * Verifies `token` and reads what it names. Writes nothing.
 * @throws AppError validation naming `token` (details `{ expired: true, expiredAt }` when expired) for a bad or expired
 *   token; not_found when the booking is gone.
 */
export async function readActionView(db: Db, token: string, secrets: readonly string[], now: Date): Promise<ActionView> {
  const v = await verifyActionToken(token, secrets, now);
  if (!v) throw new AppError('validation', 'token: this link is not valid', 'token');
  if ('error' in v) throw new AppError('validation', 'token: this link has expired', 'token', { expired: true, expiredAt: v.expiredAt.toISOString() });
  const [row] = await db
    .select({ booking: bookings, contact: contacts, event: events, tenant: tenants })
    .from(bookings)
    .innerJoin(contacts, eq(contacts.id, bookings.contactId))
    .innerJoin(events, eq(events.id, bookings.eventId))
    .innerJoin(tenants, eq(tenants.id, bookings.tenantId))
    .where(and(eq(bookings.tenantId, v.tenantId), eq(bookings.id, v.bookingId)));
  if (!row) throw new AppError('not_found', 'This booking is no longer on file.', 'token');
  const page = pageLanguageFor(row.contact.locale, row.tenant.locale);
  const other: ActionLinkAnswer = actionLinkAnswers.find((a) => a !== v.answer)!;
  return {
    subject: {
      contactName: row.contact.name,
      tenantName: row.tenant.name,
      eventTitle: row.event.title,
      when: whenOf(row.event, page),
      page,
    },
    link: v,
    bookingStatus: row.booking.status,
    attendance: row.booking.attendance,
    eventStatus: row.event.status,
    otherToken: await signActionToken({ ...v, answer: other }, secrets[0]),
  };
}

/** The event's start in its own zone, in the page language (the catalog's "all day" words for an all-day event). */
function whenOf(e: { startsAt: Date; timeZone: string; allDay: boolean }, page: PageLanguage): string {
  const common = catalogs[page.language as keyof typeof catalogs].common;
  return formatShortWhen({ at: e.startsAt, timeZone: e.timeZone, locale: page.lang, allDay: e.allDay, words: { allDay: common.allDay, yourTime: common.yourTime } });
}

/**
 * Acts on a POST: verifies `token` and records its answer ("declined" with the optional typed `reason`) through
 * `answerBooking` with source `link` and actor `recipient <email>`. Returns the view (read after) and what happened.
 * @throws as {@link readActionView}.
 */
export async function answerByToken(
  db: Db,
  token: string,
  secrets: readonly string[],
  input: { reason?: string | null; now: Date },
): Promise<{ view: ActionView; result: AnswerBookingResult }> {
  const before = await readActionView(db, token, secrets, input.now);
  const [c] = await db.select({ email: contacts.email }).from(contacts).innerJoin(bookings, eq(bookings.contactId, contacts.id)).where(eq(bookings.id, before.link.bookingId));
  const result = await answerBooking(db, {
    tenantId: before.link.tenantId,
    bookingId: before.link.bookingId,
    answer: before.link.answer,
    source: 'link',
    actor: c ? `recipient ${c.email}` : 'participant',
    reason: before.link.answer === 'declined' ? (input.reason ?? null) : null,
    now: input.now,
  });
  return { view: before, result };
}
