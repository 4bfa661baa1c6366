/**
 * The text editor's live preview and "send a test to me": an unsaved draft of an organisation's text (subject,
 * Markdown body, SMS text) rendered exactly as the send path renders a published version — `renderReminderEmail`
 * with the text (emails/index.ts → emails/staff-text.tsx) and `staffTextSms` (server/sending/compose-message.ts uses
 * the same two) — for a real booking of the organisation (its event, its person's name; the message's language is
 * the draft's) or, without one, the kind's sample data (the template's preview props, the organisation's name).
 *
 * The draft is checked first, as a save checks it (server/messages/message-texts.ts assertValidText): a draft that
 * fails is the same 400 with `errors`. Nothing is stored by a preview.
 *
 * Links: the preview carries a preferences link of the real length (what most of an SMS is), signed with a throwaway
 * key — never the person's real link, which is a credential for their preferences and must not reach a staff
 * member's inbox with a test.
 */
import { z } from 'zod';
import type { Db, DbOrTx } from '@/db/client';
import { previewParticipants } from '@/db/queries/messages/preview-participants';
import { loadBookingContext } from '@/db/queries/sending/delivery';
import { getTenant } from '@/db/queries/scheduling/scheduling';
import { countSmsSegments, type SmsSegmentCount } from '@/domain/sending/sms-segments';
import { isUuid } from '@/domain/ids';
import type { BookingRole, TemplateId } from '@/domain/vocabulary';
import { parseTemplateData, previewData, renderReminderEmail } from '@/emails';
import { staffTextSms } from '@/emails/staff-text';
import { assertValidText, smsSegmentLimitOf, draftTextShape, textKeySchema } from '@/server/messages/message-texts';
import { requestTestMessage, type TestMessageView } from '@/server/organisations/org-settings';
import { AppError, parseInput } from '@/server/platform/errors';
import { preferencesUrl, signPreferenceToken } from '@/server/sending/preference-link';
import { buildTemplateData } from '@/server/sending/send-checks';

/** The rendered draft: email subject, HTML document and text part; SMS text and what it costs. */
export interface TextPreview {
  subject: string;
  html: string;
  text: string;
  sms: string;
  smsSegments: { segments: number; encoding: SmsSegmentCount['encoding']; characters: number };
  /** Whose data filled it: the booking's person and event, or null for the sample data. */
  participant: { bookingId: string; contactName: string; eventTitle: string } | null;
}

const previewSchema = textKeySchema.extend(draftTextShape).extend({
  bookingId: z.string().nullish(),
});

/** The roles whose bookings a kind is written to (the chooser lists only those). */
export function previewRoles(kind: TemplateId): readonly BookingRole[] {
  return kind === 'host-reminder' || kind === 'host-added' || kind === 'booking-declined' ? ['host'] : ['attendee', 'external'];
}

/** Up to 8 real bookings of the organisation a draft of `kind` can be previewed with (server side of the chooser). */
export async function previewChoices(db: DbOrTx, tenantId: string, kind: TemplateId, now: Date) {
  return previewParticipants(db, tenantId, { roles: previewRoles(kind), needsRoom: kind === 'room-opening', now, limit: 8 });
}

// The throwaway key of the sample preferences link (it only has to be as long as a real one).
const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';
async function sampleLink(): Promise<string> {
  return preferencesUrl(process.env.PUNCTUAL_PUBLIC_URL ?? 'https://punctual.example', await signPreferenceToken({ tenantId: SAMPLE_ID, contactId: SAMPLE_ID }, 'preview-only'));
}

/** The template data the draft is rendered with: the booking's (in the draft's language) or the kind's sample. */
async function dataFor(db: DbOrTx, tenantId: string, kind: TemplateId, locale: string, bookingId: string | null | undefined) {
  const link = await sampleLink();
  const sample = previewData[kind];
  if (bookingId) {
    const ctx = isUuid(bookingId) ? await loadBookingContext(db, tenantId, bookingId) : null;
    if (!ctx) throw new AppError('not_found', 'bookingId: no such participant in your organisation', 'bookingId');
    // A real booking has no change to tell of: a notification's change (previous start, reason) is the sample's.
    const data = { ...sample, ...buildTemplateData(ctx), locale, preferencesUrl: link };
    const parsed = parseTemplateData(kind, data);
    if (!parsed.ok) throw new AppError('unprocessable', `this participant's event cannot fill this message — ${parsed.message}`, 'bookingId');
    return { data: parsed.data, participant: { bookingId: ctx.booking.id, contactName: ctx.contact.name, eventTitle: ctx.event.title } };
  }
  const tenant = await getTenant(db, tenantId);
  const parsed = parseTemplateData(kind, { ...sample, tenantName: tenant?.name ?? sample.tenantName, locale, preferencesUrl: link });
  if (!parsed.ok) throw new Error(`the sample data of ${kind} does not pass its schema: ${parsed.message}`);
  return { data: parsed.data, participant: null };
}

/**
 * Renders the draft `{ kind, locale, subject, body, sms, bookingId? }` (module comment). Reads only.
 * @throws AppError validation (the draft's check, with `errors`; or a malformed request naming the field),
 *   not_found (bookingId of no booking of this organisation), unprocessable (that booking's event cannot fill the
 *   message, e.g. a room-opening without a room).
 */
export async function previewText(db: DbOrTx, tenantId: string, input: unknown): Promise<TextPreview> {
  const v = parseInput(previewSchema, input);
  const kind = v.kind as TemplateId;
  const draft = { subject: v.subject, body: v.body, sms: v.sms };
  assertValidText(kind, v.locale, draft, await smsSegmentLimitOf(db, tenantId));
  const { data, participant } = await dataFor(db, tenantId, kind, v.locale, v.bookingId);
  const text = { version: 0, ...draft };
  const email = await renderReminderEmail(kind, data, text);
  const sms = staffTextSms(kind, data, text);
  const count = countSmsSegments(sms);
  return { ...email, sms, smsSegments: { segments: count.segments, encoding: count.encoding, characters: [...sms].length }, participant };
}

/**
 * "Send a test to me": the previewed draft (same input as {@link previewText}) as an email to the signed-in staff
 * member's own address, through the settings page's test message (server/organisations/org-settings.ts
 * requestTestMessage: admins only, one per 10 s, a worker sends it through the organisation's provider and records
 * its answer). No delivery, no participant: only the staff member gets it.
 * @returns the pending test message (poll GET /api/settings/test-message/:id).
 * @throws as {@link previewText}; AppError forbidden, rate_limited as requestTestMessage.
 */
export async function sendTextTest(db: Db, ctx: { tenantId: string; actor: string; actorId?: string; now: Date }, input: unknown): Promise<TestMessageView> {
  const v = parseInput(previewSchema, input);
  const p = await previewText(db, ctx.tenantId, input);
  return requestTestMessage(db, ctx, { to: ctx.actor }, { content: { subject: p.subject, html: p.html, text: p.text }, about: { kind: v.kind, locale: v.locale } });
}
