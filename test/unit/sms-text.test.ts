/**
 * Issue #9: the SMS text of every template (emails/sms.ts) — fixed wording in the GSM 7-bit default alphabet
 * (3GPP TS 23.038, with look-alikes where a language needs them), so that only text people typed (or a language that
 * GSM-7 cannot write, such as Hebrew) can force UCS-2; the
 * Manage link; long titles; validation first. No database.
 */
import { describe, expect, it } from 'vitest';
import { templateIds, type TemplateId } from '@/domain/vocabulary';
import { previewData, type NotificationTemplateData } from '@/emails';
import { renderSmsText } from '@/emails/sms';

/** GSM 03.38 / 3GPP TS 23.038 default alphabet (without ESC) and its extension table (^{}\[~]|€, form feed). */
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '^{}\\[~]|€\f';

/** The characters of `text` outside GSM-7 (basic and extension), as "U+202F" codes. */
function nonGsm7(text: string): string[] {
  return Array.from(text)
    .filter((ch) => !GSM7_BASIC.includes(ch) && !GSM7_EXTENSION.includes(ch))
    .map((ch) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
}

const manageUrl = 'https://punctual.example.com/p/abc123';

describe('the GSM-7 check itself', () => {
  it('accepts GSM-7 and flags what ICU and typography put in text', () => {
    expect(nonGsm7("Café: you're booked - Torstraße [1] €5 @ 10:00")).toEqual([]);
    expect(nonGsm7('9:45\u202fAM \u2013 \u2019 \u2026 \u00b7')).toEqual(['U+202F', 'U+2013', 'U+2019', 'U+2026', 'U+00B7']);
  });
});

describe.each(templateIds)('SMS for %s', (id) => {
  // Preview data has GSM-7 typed text only, so any other character would come from the fixed wording or the
  // date formatting. `en` is CLDR's American English: ICU writes U+202F before "AM" (and U+2009 around range
  // dashes), which the SMS must turn into plain characters.
  it.each(['en', 'en-GB', 'de', 'nl'])('locale %s: fixed wording and dates are GSM-7 only', (locale) => {
    const text = renderSmsText(id, { ...previewData[id], locale, preferencesUrl: manageUrl });
    expect(nonGsm7(text), text).toEqual([]);
    expect(text.startsWith(`${previewData[id].tenantName}: `)).toBe(true);
    expect(text).toContain(previewData[id].eventTitle);
    expect(text).not.toMatch(/undefined|null|NaN|Invalid DateTime|\{|\n/);
  });

  it('with a recipient far away (another date there) still GSM-7, with "your time"', () => {
    const text = renderSmsText(id, { ...previewData[id], recipientTimeZone: 'Pacific/Kiritimati', locale: 'en' });
    expect(nonGsm7(text), text).toEqual([]);
    expect(text).toMatch(/your time\)/);
  });

  it('ends with " Manage: <url>" when preferencesUrl is given, and has no Manage part without it', () => {
    const withLink = renderSmsText(id, { ...previewData[id], preferencesUrl: manageUrl });
    expect(withLink.endsWith(` Manage: ${manageUrl}`)).toBe(true);
    const without = renderSmsText(id, { ...previewData[id], preferencesUrl: null });
    expect(without).not.toContain('Manage');
    expect(withLink).toBe(`${without} Manage: ${manageUrl}`);
  });

  it('a typical event without links fits one GSM-7 message (160 characters)', () => {
    // room-opening needs its room link; the others drop the room link to model an event in a room.
    const roomUrl = id === 'room-opening' ? previewData[id].roomUrl : null;
    const text = renderSmsText(id, { ...previewData[id], preferencesUrl: null, roomUrl });
    expect(text.length, text).toBeLessThanOrEqual(160);
  });

  it('a very long title still renders: cut with "..." and the link kept whole', () => {
    const title = `${'Advanced Python for data engineers, part '.repeat(8)}finale`;
    const text = renderSmsText(id, { ...previewData[id], eventTitle: title, preferencesUrl: manageUrl });
    expect(text).toContain(`${title.slice(0, 57).trimEnd()}...`);
    expect(text).not.toContain(title);
    expect(text.endsWith(` Manage: ${manageUrl}`)).toBe(true);
    expect(nonGsm7(text)).toEqual([]);
  });

  it('validates with the template schema first and names the field', () => {
    const data = { ...previewData[id], startsAt: 'soon' };
    expect(() => renderSmsText(id, data)).toThrow(`Invalid data for SMS template "${id}": startsAt: `);
  });
});

describe('SMS wording', () => {
  it('attendee reminder, exactly', () => {
    expect(renderSmsText('attendee-reminder', previewData['attendee-reminder'])).toBe(
      'Studio Noord: reminder - Intro workshop, Sun 28 Mar, 11:00 CEST (05:00 EDT your time). Where: Studio Noord, Kanaalstraat 12, Amsterdam.',
    );
  });

  it('room opening in American English: plain spaces before AM/PM', () => {
    expect(renderSmsText('room-opening', previewData['room-opening'])).toBe(
      'Studio Noord: the online room for Quarterly planning opens at 9:45 AM EST (3:45 PM CET your time). Join: https://rooms.example.com/r/quarterly-planning',
    );
  });

  it('event rescheduled: the old and the new time in the event zone (issue #9 Lisbon case)', () => {
    const data: NotificationTemplateData = {
      ...(previewData['event-rescheduled'] as NotificationTemplateData),
      startsAt: '2027-07-02T09:00:00.000Z',
      endsAt: '2027-07-02T10:00:00.000Z',
      eventTimeZone: 'Europe/Lisbon',
      previousStartsAt: '2027-07-01T09:00:00.000Z',
      previousEndsAt: '2027-07-01T10:00:00.000Z',
      previousTimeZone: 'Europe/Lisbon',
      previousAllDay: false,
      roomUrl: null,
      preferencesUrl: manageUrl,
    };
    expect(renderSmsText('event-rescheduled', data)).toBe(
      `Acme Events: Python workshop has moved. Was: Thu 1 Jul, 10:00 WEST. Now: Fri 2 Jul, 10:00 WEST (05:00 EDT your time). Manage: ${manageUrl}`,
    );
  });

  it('cancellations carry the reason (one line); none without one', () => {
    const data = { ...(previewData['event-cancelled'] as NotificationTemplateData), reason: 'Our model is ill.\nSorry!' };
    expect(renderSmsText('event-cancelled', { ...data, preferencesUrl: null })).toBe(
      'Studio Noord: Life drawing on Wed 12 May, 19:00 CEST (22:30 IST your time) is cancelled. Reason: Our model is ill. Sorry!',
    );
    expect(renderSmsText('booking-cancelled', { ...(previewData['booking-cancelled'] as NotificationTemplateData), reason: null })).not.toContain(
      'Reason',
    );
  });

  it('hosting: participant count when known', () => {
    const data = previewData['host-added'];
    expect(renderSmsText('host-added', data)).toContain("you're hosting Intro workshop, Sun 28 Mar, 11:00 CEST (14:30 IST your time). 12 participants have booked.");
    expect(renderSmsText('host-added', { ...data, participantCount: null })).not.toContain('participant');
  });

  it('text people typed is kept as typed, even outside GSM-7 (only it can force UCS-2)', () => {
    const text = renderSmsText('booking-confirmed', { ...previewData['booking-confirmed'], eventTitle: 'Anna\u2019s \u201cbig\u201d night' });
    expect(text).toContain('Anna\u2019s \u201cbig\u201d night');
    expect(nonGsm7(text)).toEqual(['U+2019', 'U+201C', 'U+201D']);
  });

  it('a title with line breaks stays on one line', () => {
    const text = renderSmsText('attendee-reminder', { ...previewData['attendee-reminder'], eventTitle: 'Intro\n\nworkshop' });
    expect(text).toContain('reminder - Intro workshop, ');
  });

  it('a reschedule notice without the old time is refused naming the field', () => {
    const data = { ...previewData['event-rescheduled'], previousStartsAt: null };
    expect(() => renderSmsText('event-rescheduled', data)).toThrow('previousStartsAt: required for a reschedule notice');
  });

  it('an unknown template id is refused', () => {
    expect(() => renderSmsText('birthday' as TemplateId, previewData['attendee-reminder'])).toThrow('Unknown SMS template id "birthday"');
  });
});

describe('SMS in the reader\'s language stay GSM-7 where the language allows it', () => {
  // Every Latin-script language shipped: its fixed wording and dates fit GSM-7 through the look-alikes of
  // domain/sending/gsm7-lookalikes.ts (the preview data's typed text is GSM-7).
  describe.each(templateIds)('%s', (id) => {
    it.each(['nl', 'de', 'fr', 'es', 'it', 'pt', 'pt-BR'])('%s: GSM-7 only, in that language', (locale) => {
      const text = renderSmsText(id, { ...previewData[id], locale, preferencesUrl: manageUrl });
      expect(nonGsm7(text), text).toEqual([]);
      expect(text).toContain(previewData[id].eventTitle);
      expect(text).not.toMatch(/your time|Manage:|Where:|reminder -|booked/);
    });
  });

  it('the look-alikes replace only what GSM-7 lacks: Portuguese "inscrição" → "inscricao", French "é" kept', () => {
    const pt = renderSmsText('booking-confirmed', { ...previewData['booking-confirmed'], locale: 'pt-BR' });
    expect(pt).toContain('inscricao confirmada - Intro workshop');
    expect(pt).toContain('Preferencias: ');
    const fr = renderSmsText('booking-confirmed', { ...previewData['booking-confirmed'], locale: 'fr' });
    expect(fr).toContain('Studio Noord : réservation confirmée - Intro workshop');
  });

  it('a message that is UCS-2 anyway keeps the language\'s own spelling, and typed text is never changed', () => {
    // A typed title with a letter outside GSM-7 (and a curly apostrophe): the Portuguese words keep their accents.
    const pt = renderSmsText('booking-confirmed', { ...previewData['booking-confirmed'], locale: 'pt-BR', eventTitle: 'Cerâmica d’autor' });
    expect(pt).toContain('inscrição confirmada - Cerâmica d’autor');
    // Hebrew cannot be GSM-7: the message is UCS-2 and written as it is.
    const he = renderSmsText('booking-confirmed', { ...previewData['booking-confirmed'], locale: 'he' });
    expect(he).toContain('ההרשמה אושרה - ');
    expect(nonGsm7(he).length).toBeGreaterThan(0);
  });

  it('a typed value that already ends a sentence gets no second full stop', () => {
    const text = renderSmsText('event-cancelled', { ...previewData['event-cancelled'], locale: 'nl', reason: 'De docent is ziek.' });
    expect(text).toContain('Reden: De docent is ziek. ');
    expect(text).not.toContain('ziek..');
  });
});
