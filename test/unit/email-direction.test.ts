/**
 * Issue 8 §5: the words of an email follow the reader — direction and locale in the rendered templates
 * (real React Email render, no database).
 */
import { describe, expect, it } from 'vitest';
import { templateIds } from '@/domain/vocabulary';
import { previewData, renderReminderEmail, type ReminderTemplateData } from '@/emails';

const hebrewTitle = 'סדנת מבוא.';
const FSI = '\u2068';
const PDI = '\u2069';

function openingTag(html: string, tag: string): string {
  const m = new RegExp(`<${tag}\\b[^>]*>`).exec(html);
  if (!m) throw new Error(`no <${tag}> in the HTML`);
  return m[0];
}

describe('text people typed keeps its own direction', () => {
  const data: ReminderTemplateData = { ...previewData['attendee-reminder'], eventTitle: hebrewTitle, locale: 'en-GB' };

  it('a Hebrew title ending in "." is its own dir="auto" element, full stop inside it', async () => {
    const { html } = await renderReminderEmail('attendee-reminder', data);
    // The heading is the title alone: the h1 itself carries dir="auto" and ends with the title's full stop.
    expect(html).toMatch(new RegExp(`<h1[^>]*\\bdir="auto"[^>]*>${hebrewTitle.replace('.', '\\.')}</h1>`));
    // Inside the English intro sentence the title is a dir="auto" span, isolated, the full stop within.
    expect(html).toContain(`Reminder: <span dir="auto">${FSI}${hebrewTitle}${PDI}</span> starts`);
    // The message itself stays left to right for an English reader.
    expect(openingTag(html, 'html')).toContain('dir="ltr"');
  });

  it.each(templateIds)('%s wraps the title, the name and the place in dir="auto"', async (templateId) => {
    const d = { ...previewData[templateId], eventTitle: hebrewTitle, recipientName: 'דנה', location: 'תל אביב' };
    const { html } = await renderReminderEmail(templateId, d);
    expect(html).toContain(`<span dir="auto">${FSI}${hebrewTitle}${PDI}</span>`);
    expect(html).toContain(`Hello <span dir="auto">${FSI}דנה${PDI}</span>,`);
    // A details-changed notice names the place in its change row ("Room A → Garden B", each typed value isolated).
    if (templateId === 'event-details-changed') expect(html).toContain(`<span dir="auto">Garden B</span>`);
    else expect(html).toMatch(/<p[^>]*dir="auto"[^>]*>תל אביב<\/p>/);
  });

  it('subject and plain-text part keep the title whole with Unicode isolates, no markup', async () => {
    const { subject, text } = await renderReminderEmail('attendee-reminder', data);
    expect(subject).toBe(`Reminder: ${FSI}${hebrewTitle}${PDI} \u2014 Sun 28 Mar, 11:00 CEST`);
    expect(text).toContain(`Reminder: ${FSI}${hebrewTitle}${PDI} starts Sun 28 Mar, 11:00 CEST.`);
    expect(text.split('\n')[0]).toBe(hebrewTitle);
    expect(text).not.toMatch(/<|dir=|&lt;/);
  });

  it('a left-to-right title in a left-to-right message is left as typed (no isolates)', async () => {
    const { subject, text } = await renderReminderEmail('attendee-reminder', previewData['attendee-reminder']);
    expect(subject).toBe('Reminder: Intro workshop \u2014 Sun 28 Mar, 11:00 CEST');
    expect(text).not.toMatch(/[\u2068\u2069]/);
  });
});

describe('a message in a right-to-left language is right to left', () => {
  // `lang` and `dir` follow the language the text is written in: Hebrew is shipped; Arabic and Persian are not yet,
  // so such a reader (with no organisation default in the data) reads English text, left to right, English dates.
  it.each([
    ['he', 'he', 'rtl'],
    ['he-IL', 'he-IL', 'rtl'],
    ['ar', 'en', 'ltr'],
    ['fa', 'en', 'ltr'],
    ['en-GB', 'en-GB', 'ltr'],
    ['de', 'de', 'ltr'],
    ['not a locale', 'en', 'ltr'],
  ])('%s → lang="%s" dir="%s" on html, body and the container', async (locale, lang, dir) => {
    const { html } = await renderReminderEmail('attendee-reminder', { ...previewData['attendee-reminder'], locale });
    expect(openingTag(html, 'html')).toContain(`dir="${dir}"`);
    expect(openingTag(html, 'html')).toContain(`lang="${lang}"`);
    expect(openingTag(html, 'body')).toContain(`dir="${dir}"`);
    expect(html).toMatch(new RegExp(`<table[^>]*dir="${dir}" lang="${lang}"`));
  });

  it('a he message: right to left, Hebrew dates, typed text still dir="auto"', async () => {
    const d = { ...previewData['attendee-reminder'], locale: 'he', eventTitle: hebrewTitle };
    const { html, text } = await renderReminderEmail('attendee-reminder', d);
    expect(openingTag(html, 'html')).toContain('dir="rtl"');
    expect(html).toContain(`<span dir="auto">${FSI}${hebrewTitle}${PDI}</span>`);
    // The date line is the runtime's Hebrew CLDR long date.
    const day = new Intl.DateTimeFormat('he', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Amsterdam' }).format(
      new Date('2027-03-28T09:00:00Z'),
    );
    expect(text).toContain(day);
  });
});

describe('dates in the email follow the reader', () => {
  it('a de reader reads the issue\'s exact line', async () => {
    const d: ReminderTemplateData = {
      ...previewData['attendee-reminder'],
      startsAt: '2027-06-15T08:00:00.000Z',
      endsAt: '2027-06-15T09:00:00.000Z',
      eventTimeZone: 'Europe/Berlin',
      recipientTimeZone: null,
      locale: 'de',
    };
    const { text, html } = await renderReminderEmail('attendee-reminder', d);
    expect(text).toContain('Dienstag, 15. Juni 2027, 10:00–11:00 MESZ');
    expect(html).toContain('Dienstag, 15. Juni 2027, 10:00–11:00 MESZ');
  });
});
