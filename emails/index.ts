/**
 * Registry of the email templates: validation, rendering and preview data by template id. Eight templates:
 * the three reminders (data: {@link ReminderTemplateData}) and the five notifications of issue #9
 * (booking-confirmed, booking-cancelled, event-rescheduled, event-cancelled, host-added, booking-declined; data:
 * {@link NotificationTemplateData}, a superset of the reminder data). The SMS text of every template is in
 * emails/sms.ts. Every word comes from the built-in text in the reader's language (emails/messages/, picked by the
 * data's `locale`).
 *
 * Order of use in the worker (DESIGN §4 invariant 5): `parseTemplateData` BEFORE the delivery claim — an
 * `ok: false` result fails the reminder or notification naming the field —, then `renderReminderEmail` with
 * the parsed data.
 */
import { plainTextSelectors, render } from '@react-email/components';
import { compile } from 'html-to-text';
import { Writable } from 'node:stream';
import { createElement, Suspense, type ReactElement } from 'react';
import type { z } from 'zod';
import { announcementKind, templateIds, type TemplateId } from '@/domain/vocabulary';
import AttendeeReminder, { attendeeReminderDataSchema, attendeeReminderSubject } from './attendee-reminder';
import BookingCancelled, { bookingCancelledDataSchema, bookingCancelledSubject } from './booking-cancelled';
import ConfirmationRequest, { confirmationRequestDataSchema, confirmationRequestSubject } from './confirmation-request';
import BookingDeclined, { bookingDeclinedDataSchema, bookingDeclinedSubject } from './booking-declined';
import BookingConfirmed, { bookingConfirmedDataSchema, bookingConfirmedSubject } from './booking-confirmed';
import EventCancelled, { eventCancelledDataSchema, eventCancelledSubject } from './event-cancelled';
import EventRescheduled, { eventRescheduledDataSchema, eventRescheduledSubject } from './event-rescheduled';
import EventDetailsChanged, { eventDetailsChangedDataSchema, eventDetailsChangedSubject } from './event-details-changed';
import HostAdded, { hostAddedDataSchema, hostAddedSubject } from './host-added';
import HostReminder, { hostReminderDataSchema, hostReminderSubject } from './host-reminder';
import RoomOpening, { roomOpeningDataSchema, roomOpeningSubject } from './room-opening';
import { reminderTemplateDataSchema, type ReminderTemplateData, type TemplateData } from './schema';
import { StaffTextEmail, staffTextSubject, type StaffText } from './staff-text';

export type { StaffText };

export {
  notificationTemplateDataSchema,
  reminderTemplateDataSchema,
  type NotificationTemplateData,
  type ReminderTemplateData,
  type TemplateData,
} from './schema';
export { templateIds, type TemplateId };

interface TemplateDefinition<P extends ReminderTemplateData> {
  /** Validates data for this template (the shared schema, possibly refined). */
  schema: z.ZodType<P>;
  Component: (props: P) => ReactElement;
  /** Subject line, computed from validated data. */
  subject: (data: P) => string;
  previewProps: P;
}

// The registry stores each template at the common data type; this is sound because every call below
// passes data through the template's own schema first, which yields that template's `P`.
function defineTemplate<P extends ReminderTemplateData>(
  definition: TemplateDefinition<P>,
): TemplateDefinition<ReminderTemplateData> {
  return definition as unknown as TemplateDefinition<ReminderTemplateData>;
}

const templates: Record<TemplateId, TemplateDefinition<ReminderTemplateData>> = {
  'attendee-reminder': defineTemplate({
    schema: attendeeReminderDataSchema,
    Component: AttendeeReminder,
    subject: attendeeReminderSubject,
    previewProps: AttendeeReminder.PreviewProps,
  }),
  'room-opening': defineTemplate({
    schema: roomOpeningDataSchema,
    Component: RoomOpening,
    subject: roomOpeningSubject,
    previewProps: RoomOpening.PreviewProps,
  }),
  'host-reminder': defineTemplate({
    schema: hostReminderDataSchema,
    Component: HostReminder,
    subject: hostReminderSubject,
    previewProps: HostReminder.PreviewProps,
  }),
  'booking-confirmed': defineTemplate({
    schema: bookingConfirmedDataSchema,
    Component: BookingConfirmed,
    subject: bookingConfirmedSubject,
    previewProps: BookingConfirmed.PreviewProps,
  }),
  'booking-cancelled': defineTemplate({
    schema: bookingCancelledDataSchema,
    Component: BookingCancelled,
    subject: bookingCancelledSubject,
    previewProps: BookingCancelled.PreviewProps,
  }),
  'event-rescheduled': defineTemplate({
    schema: eventRescheduledDataSchema,
    Component: EventRescheduled,
    subject: eventRescheduledSubject,
    previewProps: EventRescheduled.PreviewProps,
  }),
  'event-cancelled': defineTemplate({
    schema: eventCancelledDataSchema,
    Component: EventCancelled,
    subject: eventCancelledSubject,
    previewProps: EventCancelled.PreviewProps,
  }),
  'host-added': defineTemplate({
    schema: hostAddedDataSchema,
    Component: HostAdded,
    subject: hostAddedSubject,
    previewProps: HostAdded.PreviewProps,
  }),
  'event-details-changed': defineTemplate({
    schema: eventDetailsChangedDataSchema,
    Component: EventDetailsChanged,
    subject: eventDetailsChangedSubject,
    previewProps: EventDetailsChanged.PreviewProps,
  }),
  'confirmation-request': defineTemplate({
    schema: confirmationRequestDataSchema,
    Component: ConfirmationRequest,
    subject: confirmationRequestSubject,
    previewProps: ConfirmationRequest.PreviewProps,
  }),
  'booking-declined': defineTemplate({
    schema: bookingDeclinedDataSchema,
    Component: BookingDeclined,
    subject: bookingDeclinedSubject,
    previewProps: BookingDeclined.PreviewProps,
  }),
};

function lookup(templateId: string): TemplateDefinition<ReminderTemplateData> | null {
  return Object.hasOwn(templates, templateId) ? templates[templateId as TemplateId] : null;
}

/** True when `value` is a known template id. */
export function isTemplateId(value: string): value is TemplateId {
  return (templateIds as readonly string[]).includes(value);
}

export type ParseTemplateDataResult =
  | { ok: true; data: TemplateData }
  | { ok: false; field: string; message: string };

/**
 * Validates `data` for `templateId` with that template's zod schema. Never throws.
 *
 * @returns `{ ok: true, data }` with the parsed data (`locale` defaulted to "en", unknown keys dropped; for a
 *   notification template it satisfies {@link NotificationTemplateData}), or `{ ok: false, field, message }`
 *   for the FIRST failing field: `field` is its dotted path ("startsAt", "eventTimeZone"), `message` is
 *   human-readable and starts with it ("startsAt: required"). Data that is not an object gives field
 *   "data"; an unknown template id gives field "templateId" (the id may come from a database row, so it is
 *   reported, not thrown).
 */
export function parseTemplateData(templateId: TemplateId, data: unknown): ParseTemplateDataResult {
  const definition = lookup(templateId);
  if (!definition) {
    return { ok: false, field: 'templateId', message: `templateId: unknown template "${String(templateId)}"` };
  }
  return parseWith(definition.schema, data);
}

/** `data` through `schema`, as {@link parseTemplateData} reports it. */
function parseWith(schema: z.ZodType<ReminderTemplateData>, data: unknown): ParseTemplateDataResult {
  const result = schema.safeParse(data);
  if (result.success) return { ok: true, data: result.data as TemplateData };
  const issue = result.error.issues[0];
  if (!issue || issue.path.length === 0) {
    return { ok: false, field: 'data', message: 'data: must be an object with the template fields' };
  }
  const field = issue.path.map(String).join('.');
  return { ok: false, field, message: `${field}: ${issue.message}` };
}

/**
 * {@link parseTemplateData} for any message kind a delivery can record: a template id, or an announcement (its data:
 * the shared reminder fields, emails/schema.ts `reminderTemplateDataSchema`). An unknown kind gives field "template".
 * Never throws.
 */
export function parseMessageData(kind: string, data: unknown): ParseTemplateDataResult {
  if (kind === announcementKind) return parseWith(reminderTemplateDataSchema, data);
  if (isTemplateId(kind)) return parseTemplateData(kind, data);
  return { ok: false, field: 'template', message: `template: unknown template "${kind}"` };
}

/**
 * Renders one recipient's email of an announcement: the words staff wrote (`text`: one language's subject, Markdown
 * body, SMS) in the same layout as every message (emails/staff-text.tsx), with the event's details and the footer.
 * @throws Error when `data` fails the shared schema (callers ran {@link parseMessageData} first).
 */
export async function renderAnnouncementEmail(data: TemplateData, text: StaffText): Promise<{ subject: string; html: string; text: string }> {
  const parsed = parseMessageData(announcementKind, data);
  if (!parsed.ok) throw new Error(`Invalid data for an announcement: ${parsed.message}`);
  const html = await renderHtml(createElement(StaffTextEmail, { template: announcementKind, data: parsed.data, text }));
  return { subject: staffTextSubject(announcementKind, parsed.data, text), html, text: htmlToText(html) };
}

// html-to-text upper-cases headings by default; keep the title as written in the text part.
const plainTextOptions = {
  selectors: ['h1', 'h2', 'h3'].map((selector) => ({ selector, options: { uppercase: false } })),
};

/**
 * The text part from the email's HTML: React Email's `toPlainText` (what `render(el, { plainText: true })`
 * runs) with the same options — html-to-text 9.0.5 `{ wordwrap: false, ...options, selectors:
 * [...plainTextSelectors, ...options.selectors] }` — but compiled ONCE: `convert()` compiles its options
 * (selector parsing and a decision tree) on every call, which cost more than the conversion itself.
 */
const htmlToText = compile({
  wordwrap: false,
  ...plainTextOptions,
  selectors: [...plainTextSelectors, ...plainTextOptions.selectors],
});

const XHTML_DOCTYPE =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

// Loaded on first use, as React Email does (a static import of react-dom/server is refused in Next's server
// component graph); kept, because each dynamic `import()` goes through the module loader's hooks (tsx).
let domServer: Promise<typeof import('react-dom/server')> | undefined;

/**
 * The HTML document of `element`, byte for byte what `render(element)` of @react-email/render 2.0.6 returns
 * (Node build): React's streaming render of `<Suspense>{element}</Suspense>` read to the end, its
 * `<!DOCTYPE html>` replaced by the XHTML 1.0 Transitional doctype, not pretty-printed. Done here rather than
 * through `render()` so the React DOM server module is imported once, not per message; where that module has no
 * `renderToPipeableStream` (a non-Node build chosen by a bundler) it is `render()` itself.
 * @throws the first error React reports while rendering.
 */
async function renderHtml(element: ReactElement): Promise<string> {
  const { renderToPipeableStream } = await (domServer ??= import('react-dom/server'));
  // A bundler may hand out another build of react-dom/server (Next's web app): then React Email's own render.
  if (typeof renderToPipeableStream !== 'function') return render(element);
  const markup = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
        callback();
      },
      final(callback) {
        resolve(Buffer.concat(chunks).toString('utf8'));
        callback();
      },
    });
    sink.on('error', reject);
    const stream = renderToPipeableStream(createElement(Suspense, null, element), {
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady() {
        stream.pipe(sink);
      },
      onError(error) {
        reject(error);
      },
    });
  });
  return `${XHTML_DOCTYPE}${markup.replace(/<!DOCTYPE.*?>/, '')}`;
}

/**
 * Renders the email of any template (reminder or notification; the name predates notifications). Async
 * (React Email renders through a stream).
 *
 * Dates and times in the output are shown in the event's zone (and the recipient's zone when it differs);
 * `data` instants are UTC instants as in {@link ReminderTemplateData}.
 * With `staffText` (a published version of the organisation's own text, issue #22 §2) the subject and body are
 * its words, in the same layout (emails/staff-text.tsx); without, Punctual's built-in text.
 * @returns `subject` (one line), `html` (full XHTML document) and `text` (plain-text part).
 * @throws Error for an unknown template id, or when `data` fails the template's schema (the message names
 *   the first failing field) — callers should have run {@link parseTemplateData} first.
 */
export async function renderReminderEmail(
  templateId: TemplateId,
  data: TemplateData,
  staffText?: StaffText | null,
): Promise<{ subject: string; html: string; text: string }> {
  if (!lookup(templateId)) throw new Error(`Unknown email template id "${String(templateId)}"`);
  const parsed = parseTemplateData(templateId, data);
  if (!parsed.ok) throw new Error(`Invalid data for email template "${templateId}": ${parsed.message}`);
  return renderValidatedEmail(templateId, parsed.data, staffText);
}

/**
 * {@link renderReminderEmail} without validating `data` again: for the send path, whose data went through
 * {@link parseMessageData} for this template before the claim (server/sending/send-reminder.ts `judgeReminder`) and
 * then only gained fields the send path itself made (the signed unsubscribe link and its category). Parsing is
 * idempotent for every template schema (no transforms; the one default, `locale`, is filled by the first parse), so
 * the output is the same bytes as {@link renderReminderEmail}'s (test/unit/render-identity.test.ts); skipping the
 * second parse saves its CPU on every message (issue #24 profile: zod ≈ 4–5 % of the worker during a drain).
 * @throws Error for an unknown template id, or what React throws while rendering.
 */
export async function renderValidatedEmail(
  templateId: TemplateId,
  data: TemplateData,
  staffText?: StaffText | null,
): Promise<{ subject: string; html: string; text: string }> {
  const definition = lookup(templateId);
  if (!definition) throw new Error(`Unknown email template id "${String(templateId)}"`);
  const parsed = { data };
  // ONE React render: the text part is derived from the HTML. `render(el, { plainText: true })` was
  // `toPlainText(<React's markup>, options)` over a second render of the same tree; the document here is that
  // markup with its `<!DOCTYPE html>` replaced by the XHTML doctype, and html-to-text skips doctypes, so the
  // text is the same bytes (test/unit/render-identity.test.ts checks both against the two-render goldens).
  if (staffText) {
    const html = await renderHtml(createElement(StaffTextEmail, { template: templateId, data: parsed.data, text: staffText }));
    return { subject: staffTextSubject(templateId, parsed.data, staffText), html, text: htmlToText(html) };
  }
  const html = await renderHtml(createElement(definition.Component, parsed.data));
  const text = htmlToText(html);
  return { subject: definition.subject(parsed.data), html, text };
}

/**
 * Preview data per template (each template's `PreviewProps`), for the template preview UI and tests.
 * Every entry passes its template's schema; the notification entries also carry the notification fields
 * (and a sample `preferencesUrl`, so the preview shows the preferences footer).
 */
export const previewData: Record<TemplateId, TemplateData> = {
  'attendee-reminder': templates['attendee-reminder'].previewProps,
  'room-opening': templates['room-opening'].previewProps,
  'host-reminder': templates['host-reminder'].previewProps,
  'booking-confirmed': templates['booking-confirmed'].previewProps,
  'booking-cancelled': templates['booking-cancelled'].previewProps,
  'event-rescheduled': templates['event-rescheduled'].previewProps,
  'event-cancelled': templates['event-cancelled'].previewProps,
  'host-added': templates['host-added'].previewProps,
  'event-details-changed': templates['event-details-changed'].previewProps,
  'booking-declined': templates['booking-declined'].previewProps,
  'confirmation-request': templates['confirmation-request'].previewProps,
};
