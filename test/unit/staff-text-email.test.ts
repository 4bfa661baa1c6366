/**
 * An organisation's own text rendered (emails/staff-text.tsx, issue #22 §2): the Markdown subset becomes paragraphs,
 * lists, bold, italic and http(s) links in the usual layout; what people typed (an event title) is never read as
 * Markdown; a link target that is not http(s) and raw HTML never become markup; subject and SMS are plain text.
 */
import { describe, expect, it } from 'vitest';
import { previewData, renderReminderEmail, type ReminderTemplateData } from '@/emails';
import { staffTextSms, staffTextSubject, type StaffText } from '@/emails/staff-text';

const data = { ...(previewData['attendee-reminder'] as ReminderTemplateData), locale: 'de', eventTitle: '**Sale** [x](javascript:alert(1))' };
const text: StaffText = {
  version: 2,
  subject: 'Erinnerung: {eventTitle}',
  body: 'Guten Tag,\nbis bald.\n\n**{eventTitle}** beginnt *{when}*.\n\n- Schürze\n- [Lageplan](https://example.com/plan)\n\n[Böse](javascript:alert(1)) <b>roh</b>',
  sms: '{tenantName}: {eventTitle}, {when}.',
};

describe('staff text email', () => {
  it('renders the Markdown subset, keeps typed text literal, and never writes a non-http link or raw HTML', async () => {
    const r = await renderReminderEmail('attendee-reminder', data, text);
    expect(r.subject).toBe('Erinnerung: **Sale** [x](javascript:alert(1))');
    expect(r.html).toMatch(/<strong><span dir="auto">\*\*Sale\*\* \[x\]\(javascript:alert\(1\)\)<\/span><\/strong>/);
    expect(r.html).toContain('<em>So., 28. März, 11:00 MESZ</em>');
    expect(r.html).toMatch(/<ul[^>]*><li>Schürze<\/li><li><a href="https:\/\/example.com\/plan"[^>]*>Lageplan<\/a><\/li><\/ul>/);
    expect(r.html).toMatch(/Guten Tag,<br\/>bis bald\./);
    expect(r.html).not.toContain('href="javascript');
    expect(r.html).toContain('&lt;b&gt;roh&lt;/b&gt;');
    expect(r.text).toContain('Guten Tag Ana de Vries,');
    expect(r.text).not.toMatch(/\uE000|\uE001|undefined|Invalid DateTime/);
  });

  it('the room link variable is a link target in room-opening; the SMS adds the preferences link like the built-in one', async () => {
    const room = { ...(previewData['room-opening'] as ReminderTemplateData), locale: 'en' };
    const own: StaffText = { version: 1, subject: 'Room open at {time}', body: '[Join here]({url}) from {time}.', sms: '{tenantName}: join {url}' };
    const r = await renderReminderEmail('room-opening', room, own);
    expect(r.html).toContain(`<a href="${room.roomUrl}"`);
    expect(staffTextSubject('room-opening', room, own)).toMatch(/^Room open at \d/);
    expect(staffTextSms('room-opening', room, own)).toBe(`${room.tenantName}: join ${room.roomUrl}`);
    expect(staffTextSms('room-opening', { ...room, preferencesUrl: 'https://p.test/x' }, own)).toBe(`${room.tenantName}: join ${room.roomUrl} Manage: https://p.test/x`);
  });

  it('dates in an own SMS stay GSM-7: ICU\'s narrow no-break space before "AM" becomes a plain space (one such character would make it UCS-2)', async () => {
    const { countSmsSegments } = await import('@/domain/sending/sms-segments');
    const en = { ...(previewData['attendee-reminder'] as ReminderTemplateData), locale: 'en-US' };
    const own: StaffText = { version: 1, subject: 'x', body: 'x', sms: '{tenantName}: see you {when}.' };
    const sms = staffTextSms('attendee-reminder', en, own);
    expect(sms).toMatch(/ (AM|PM)/);
    expect(sms).not.toMatch(/[\u00a0\u2009\u202f]/);
    expect(countSmsSegments(sms).encoding).toBe('GSM-7');
  });
});
