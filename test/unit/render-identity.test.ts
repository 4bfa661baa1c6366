/**
 * The email renderer writes the same bytes as before the speed-up of issue #11 (one React render with the text
 * part derived from the HTML, cached formatters): for every template × en/en-US/de/nl/ar × six zone situations
 * (test/unit/render-cases.ts) the subject, the SMS text, and the SHA-256 of the HTML and of the text part equal
 * the goldens written from the old two-render path (test/fixtures/render-golden.json, committed before the
 * change). The old path itself is kept below as the reference, so a difference shows as a readable diff.
 */
import { render } from '@react-email/components';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import type { TemplateId } from '@/domain/vocabulary';
import { parseMessageData, parseTemplateData, renderReminderEmail, renderValidatedEmail, type TemplateData } from '@/emails';
import AttendeeReminder from '@/emails/attendee-reminder';
import BookingCancelled from '@/emails/booking-cancelled';
import BookingConfirmed from '@/emails/booking-confirmed';
import BookingDeclined from '@/emails/booking-declined';
import ConfirmationRequest from '@/emails/confirmation-request';
import EventCancelled from '@/emails/event-cancelled';
import EventRescheduled from '@/emails/event-rescheduled';
import EventDetailsChanged from '@/emails/event-details-changed';
import HostAdded from '@/emails/host-added';
import HostReminder from '@/emails/host-reminder';
import RoomOpening from '@/emails/room-opening';
import { renderSmsText } from '@/emails/sms';
import { renderCases } from './render-cases';
import { readGoldens, sha256 } from './render-golden';

// The renderer before issue #11: two React renders of the same element, the second with `plainText: true`.
const components: Record<TemplateId, (props: never) => ReturnType<typeof AttendeeReminder>> = {
  'attendee-reminder': AttendeeReminder,
  'room-opening': RoomOpening,
  'host-reminder': HostReminder,
  'booking-confirmed': BookingConfirmed,
  'booking-cancelled': BookingCancelled,
  'event-rescheduled': EventRescheduled,
  'event-cancelled': EventCancelled,
  'host-added': HostAdded,
  'event-details-changed': EventDetailsChanged,
  'booking-declined': BookingDeclined,
  'confirmation-request': ConfirmationRequest,
};
const plainTextOptions = {
  selectors: ['h1', 'h2', 'h3'].map((selector) => ({ selector, options: { uppercase: false } })),
};
async function referenceRender(template: TemplateId, data: TemplateData): Promise<{ html: string; text: string }> {
  const parsed = parseTemplateData(template, data);
  if (!parsed.ok) throw new Error(parsed.message);
  const element = createElement(components[template] as (p: TemplateData) => ReturnType<typeof AttendeeReminder>, parsed.data);
  const [html, text] = await Promise.all([
    render(element),
    render(element, { plainText: true, htmlToTextOptions: plainTextOptions }),
  ]);
  return { html, text };
}

const cases = renderCases();
const goldens = readGoldens();

describe('email rendering is byte-identical to the two-render path', () => {
  it('has a golden for every case', () => {
    expect(Object.keys(goldens).sort()).toEqual(cases.map((c) => c.id).sort());
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const r = await renderReminderEmail(c.template, c.data);
    const g = goldens[c.id]!;
    expect(r.subject).toBe(g.subject);
    expect(renderSmsText(c.template, c.data)).toBe(g.sms);
    if (sha256(r.html) !== g.html || sha256(r.text) !== g.text) {
      // Show the difference against the old path rather than two hashes.
      const ref = await referenceRender(c.template, c.data);
      expect(r.html).toBe(ref.html);
      expect(r.text).toBe(ref.text);
    }
    expect(sha256(r.html)).toBe(g.html);
    expect(sha256(r.text)).toBe(g.text);
  });

  it.each(cases.map((c) => [c.id, c] as const))("the send path's render of already-parsed data (no second parse) gives the same bytes: %s", async (_id, c) => {
    // What the worker does (server/sending/compose-message.ts): parse once before the claim, then render the parsed
    // data without parsing again. The raw case data may lack defaults (locale) the parse fills in.
    const parsed = parseMessageData(c.template, c.data);
    if (!parsed.ok) throw new Error(parsed.message);
    const r = await renderValidatedEmail(c.template, parsed.data);
    const g = goldens[c.id]!;
    expect(r.subject).toBe(g.subject);
    expect(sha256(r.html)).toBe(g.html);
    expect(sha256(r.text)).toBe(g.text);
  });

  it('the kept reference path still matches the goldens (so the goldens are the two-render output)', async () => {
    for (const c of cases.filter((_, i) => i % 7 === 0)) {
      const ref = await referenceRender(c.template, c.data);
      expect(sha256(ref.html), c.id).toBe(goldens[c.id]!.html);
      expect(sha256(ref.text), c.id).toBe(goldens[c.id]!.text);
    }
  });
});
