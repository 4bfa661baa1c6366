/**
 * The "Message participants" dialog's live view (nothing is stored): for an audience, how many of the event's people
 * it reaches on which channel (and who opted out of announcements, or cannot be reached), and — once the words check
 * out — what one real recipient would get: the email (subject and HTML, in their language, with the event's details)
 * and the SMS text. Uses the same recipient choice and rendering as the send path (domain/messages/announcements.ts,
 * emails/ renderAnnouncementEmail), without the person's signed links.
 */
import type { DbOrTx } from '@/db/client';
import { bookingsWithContacts } from '@/db/queries/notifications/notify';
import { loadBookingContext } from '@/db/queries/sending/delivery';
import type { AnnouncementRow } from '@/db/schema';
import { announcementRecipients, audienceSchema, checkAnnouncementTexts, countAudience, smsWordsOf, type AudienceCount } from '@/domain/messages/announcements';
import { parseMessageData, renderAnnouncementEmail } from '@/emails';
import { catalogLocales } from '@/emails/messages';
import { staffTextSms } from '@/emails/staff-text';
import { smsSegmentLimitOf } from '@/server/messages/message-texts';
import { AppError, assertId, fromZodError } from '@/server/platform/errors';
import { buildTemplateData, messageLanguageOf } from '@/server/sending/send-checks';

/** One person the audience reaches (at most {@link MAX_LISTED} are listed). */
interface PreviewRecipient {
  bookingId: string;
  name: string;
  channels: string[];
  optedOut: boolean;
}

export interface AnnouncementPreview {
  count: AudienceCount;
  recipients: PreviewRecipient[];
  /** Why there is no rendered preview yet: the first problem of the words (field-named), or null. */
  textProblem: { field: string; message: string } | null;
  /** What `recipient` gets, or null (no words yet, or nobody in the audience). */
  preview: { bookingId: string; name: string; language: string; subject: string; html: string; sms: string } | null;
}

const MAX_LISTED = 200;

/**
 * The dialog's live view for event `eventId` (module comment). Input `{ audience, texts?, bookingId? }`: `bookingId`
 * chooses whose message is shown (default: the first recipient).
 * @throws AppError validation (400: the audience, naming the field), not_found (404: the event or booking).
 */
export async function previewAnnouncement(db: DbOrTx, ctx: { tenantId: string }, eventId: string, input: unknown): Promise<AnnouncementPreview> {
  assertId(eventId, 'eventId', 'event');
  const body = (input ?? {}) as Record<string, unknown>;
  const a = audienceSchema.safeParse(body.audience);
  if (!a.success) {
    const e = fromZodError(a.error);
    const field = e.field ? `audience.${e.field}` : 'audience';
    throw new AppError('validation', `${field}: ${e.message.replace(/^[^:]*: /, '')}`, field);
  }
  const people = await bookingsWithContacts(db, ctx.tenantId, eventId);
  const chosen = announcementRecipients(people, a.data);
  const recipients = chosen.recipients.slice(0, MAX_LISTED).map((r) => ({ bookingId: r.bookingId, name: r.name, channels: r.channels, optedOut: r.optedOut }));
  const base = { count: countAudience(chosen), recipients };
  const t = checkAnnouncementTexts(body.texts, catalogLocales, await smsSegmentLimitOf(db, ctx.tenantId));
  if (!t.ok) return { ...base, textProblem: { field: t.field, message: t.message }, preview: null };
  const wanted = typeof body.bookingId === 'string' ? body.bookingId : chosen.recipients[0]?.bookingId;
  if (!wanted) return { ...base, textProblem: null, preview: null };
  assertId(wanted, 'bookingId', 'participant');
  const context = await loadBookingContext(db, ctx.tenantId, wanted);
  if (!context || context.event.id !== eventId) throw new AppError('not_found', `participant ${wanted} not found`, 'bookingId');
  const world = { ...context, announcement: { texts: t.texts } as AnnouncementRow };
  const language = messageLanguageOf(world).locale;
  const words = t.texts[language];
  const parsed = parseMessageData('announcement', buildTemplateData(world));
  if (!parsed.ok) return { ...base, textProblem: { field: parsed.field, message: `the event's data cannot be shown: ${parsed.message}` }, preview: null };
  const text = { version: 1, subject: words.subject, body: words.body, sms: smsWordsOf(words) };
  const email = await renderAnnouncementEmail(parsed.data, text);
  return {
    ...base,
    textProblem: null,
    preview: { bookingId: wanted, name: context.contact.name, language, subject: email.subject, html: email.html, sms: staffTextSms('announcement', parsed.data, text) },
  };
}
