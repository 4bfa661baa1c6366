/**
 * Registry of the reminder email templates: validation, rendering and preview data by template id.
 *
 * Order of use in the worker (DESIGN §4 invariant 5): `parseTemplateData` BEFORE the delivery claim — an
 * `ok: false` result fails the reminder naming the field —, then `renderReminderEmail` with the parsed
 * data.
 */
import { render } from '@react-email/components';
import { createElement, type ReactElement } from 'react';
import type { z } from 'zod';
import { templateIds, type TemplateId } from '../domain/vocabulary';
import AttendeeReminder, { attendeeReminderDataSchema, attendeeReminderSubject } from './attendee-reminder';
import HostReminder, { hostReminderDataSchema, hostReminderSubject } from './host-reminder';
import RoomOpening, { roomOpeningDataSchema, roomOpeningSubject } from './room-opening';
import type { ReminderTemplateData } from './schema';

export { reminderTemplateDataSchema, type ReminderTemplateData } from './schema';
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
};

function lookup(templateId: string): TemplateDefinition<ReminderTemplateData> | null {
  return Object.hasOwn(templates, templateId) ? templates[templateId as TemplateId] : null;
}

/** True when `value` is a known template id. */
export function isTemplateId(value: string): value is TemplateId {
  return (templateIds as readonly string[]).includes(value);
}

export type ParseTemplateDataResult =
  | { ok: true; data: ReminderTemplateData }
  | { ok: false; field: string; message: string };

/**
 * Validates `data` for `templateId` with that template's zod schema. Never throws.
 *
 * @returns `{ ok: true, data }` with the parsed data (`locale` defaulted to "en", unknown keys dropped), or
 *   `{ ok: false, field, message }` for the FIRST failing field: `field` is its dotted path ("startsAt",
 *   "eventTimeZone"), `message` is human-readable and starts with it ("startsAt: required"). Data that is
 *   not an object gives field "data"; an unknown template id gives field "templateId" (the id may come
 *   from a database row, so it is reported, not thrown).
 */
export function parseTemplateData(templateId: TemplateId, data: unknown): ParseTemplateDataResult {
  const definition = lookup(templateId);
  if (!definition) {
    return { ok: false, field: 'templateId', message: `templateId: unknown template "${String(templateId)}"` };
  }
  const result = definition.schema.safeParse(data);
  if (result.success) return { ok: true, data: result.data };
  const issue = result.error.issues[0];
  if (!issue || issue.path.length === 0) {
    return { ok: false, field: 'data', message: 'data: must be an object with the reminder template fields' };
  }
  const field = issue.path.map(String).join('.');
  return { ok: false, field, message: `${field}: ${issue.message}` };
}

// html-to-text upper-cases headings by default; keep the title as written in the text part.
const plainTextOptions = {
  selectors: ['h1', 'h2', 'h3'].map((selector) => ({ selector, options: { uppercase: false } })),
};

/**
 * Renders a reminder email. Async (React Email renders through a stream).
 *
 * Dates and times in the output are shown in the event's zone (and the recipient's zone when it differs);
 * `data` instants are UTC instants as in {@link ReminderTemplateData}.
 * @returns `subject` (one line), `html` (full XHTML document) and `text` (plain-text part).
 * @throws Error for an unknown template id, or when `data` fails the template's schema (the message names
 *   the first failing field) — callers should have run {@link parseTemplateData} first.
 */
export async function renderReminderEmail(
  templateId: TemplateId,
  data: ReminderTemplateData,
): Promise<{ subject: string; html: string; text: string }> {
  const definition = lookup(templateId);
  if (!definition) throw new Error(`Unknown email template id "${String(templateId)}"`);
  const parsed = parseTemplateData(templateId, data);
  if (!parsed.ok) throw new Error(`Invalid data for email template "${templateId}": ${parsed.message}`);
  const element = createElement(definition.Component, parsed.data);
  const [html, text] = await Promise.all([
    render(element),
    render(element, { plainText: true, htmlToTextOptions: plainTextOptions }),
  ]);
  return { subject: definition.subject(parsed.data), html, text };
}

/**
 * Preview data per template (each template's `PreviewProps`), for the template preview UI and tests.
 * Every entry passes its template's schema.
 */
export const previewData: Record<TemplateId, ReminderTemplateData> = {
  'attendee-reminder': templates['attendee-reminder'].previewProps,
  'room-opening': templates['room-opening'].previewProps,
  'host-reminder': templates['host-reminder'].previewProps,
};
