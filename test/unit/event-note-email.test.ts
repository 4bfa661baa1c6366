/**
 * The event's note for participants in a message (template data field `eventNote`, domain/scheduling/event-note.ts):
 * the built-in reminders and booking confirmation show it under the reader's "Please note" in a paragraph of its own,
 * one paragraph per line, and nothing at all — no label, no empty paragraph — when it is empty; an organisation's own
 * text prints it where it says `{eventNote}`, and a paragraph holding only `{eventNote}` disappears when it is empty.
 * The template data must carry it (a string, at most 500 characters): a builder that forgets it fails the schema.
 */
import { describe, expect, it } from 'vitest';
import { parseTemplateData, previewData, renderReminderEmail, type ReminderTemplateData, type TemplateId } from '@/emails';
import { staffTextSms, type StaffText } from '@/emails/staff-text';

const withNote = (template: TemplateId, eventNote: string, locale = 'en') => ({ ...(previewData[template] as ReminderTemplateData), locale, eventNote });
/** The <p> elements of an email's HTML that hold no text (whitespace, comments and isolates only). */
const emptyParagraphs = (html: string) => [...html.matchAll(/<p[^>]*>([\s\S]*?)<\/p>/g)].filter((m) => m[1]!.replace(/<!--.*?-->|<[^>]+>|[\s\u2068\u2069]/g, '') === '');

describe('built-in text', () => {
  it.each<[TemplateId, string, string]>([
    ['attendee-reminder', 'en', 'Please note'],
    ['booking-confirmed', 'nl', 'Let op'],
    ['room-opening', 'de', 'Bitte beachten Sie'],
    ['host-reminder', 'en', 'Note for participants'],
  ])('%s (%s) shows the note under "%s", one paragraph per line', async (template, locale, label) => {
    const r = await renderReminderEmail(template, withNote(template, 'Bring an apron.\n\nCoffee from 10:45.', locale));
    expect(r.text).toMatch(new RegExp(`${label}\\s+Bring an apron\\.\\s+Coffee from 10:45\\.`));
    expect(r.html).toMatch(/<p[^>]*><span dir="auto">Bring an apron\.<\/span><\/p>/);
    expect(emptyParagraphs(r.html)).toEqual([]);
  });

  it.each<TemplateId>(['attendee-reminder', 'booking-confirmed', 'room-opening', 'host-reminder'])('%s without a note: no label, no empty paragraph, nothing of "undefined"', async (template) => {
    for (const empty of ['', '  \n ']) {
      const r = await renderReminderEmail(template, withNote(template, empty));
      expect(r.text).not.toMatch(/Please note|Note for participants|undefined/);
      expect(emptyParagraphs(r.html)).toEqual([]);
      // Exactly the message of an event without a note.
      expect(r.html).toBe((await renderReminderEmail(template, withNote(template, ''))).html);
    }
  });

  it('a cancellation never shows the note', async () => {
    const r = await renderReminderEmail('event-cancelled', withNote('event-cancelled', 'Bring an apron.'));
    expect(r.text).not.toContain('Bring an apron');
  });
});

describe("the organisation's own text", () => {
  const own: StaffText = { version: 2, subject: '{eventTitle} {eventNote}', body: 'See you soon.\n\n{eventNote}\n\n- {eventNote}\n\nBye.', sms: '{tenantName}: {eventTitle} {eventNote} {when}.' };

  it('prints the note where the text puts {eventNote}, its lines kept, never read as Markdown', async () => {
    const r = await renderReminderEmail('attendee-reminder', withNote('attendee-reminder', 'Bring an **apron**\nand [x](javascript:y)'), own);
    expect(r.html).toMatch(/Bring an \*\*apron\*\*<\/span><br\/><span dir="auto">and \[x\]\(javascript:y\)/);
    expect(r.html).not.toContain('<strong>apron');
    expect(r.subject).toBe('Intro workshop Bring an **apron** and [x](javascript:y)');
  });

  it('an empty note leaves no empty paragraph or list item, no double space, no "undefined"', async () => {
    const data = withNote('attendee-reminder', '');
    const r = await renderReminderEmail('attendee-reminder', data, own);
    expect(emptyParagraphs(r.html)).toEqual([]);
    expect(r.html).not.toMatch(/<li[^>]*>\s*<\/li>|<ul[^>]*>\s*<\/ul>/);
    expect(r.html).toMatch(/See you soon\.<\/p>/);
    expect(r.text).not.toMatch(/undefined|\uE000|\uE001/);
    expect(r.subject).toBe('Intro workshop');
    expect(staffTextSms('attendee-reminder', data, own)).toMatch(/^Studio Noord: Intro workshop Sun, Mar 28, 11:00\s?AM CEST\.$/u);
  });
});

describe('template data', () => {
  const base = previewData['attendee-reminder'] as ReminderTemplateData;
  it('must carry the note: a missing one is an error on the field, never "undefined" in a message', () => {
    const { eventNote: _omitted, ...without } = base;
    expect(parseTemplateData('attendee-reminder', without)).toEqual({ ok: false, field: 'eventNote', message: 'eventNote: required' });
    expect(parseTemplateData('attendee-reminder', { ...base, eventNote: null })).toMatchObject({ ok: false, field: 'eventNote' });
  });
  it('at most 500 characters', () => {
    expect(parseTemplateData('attendee-reminder', { ...base, eventNote: 'x'.repeat(500) }).ok).toBe(true);
    expect(parseTemplateData('attendee-reminder', { ...base, eventNote: 'x'.repeat(501) })).toMatchObject({ ok: false, field: 'eventNote' });
  });
});
