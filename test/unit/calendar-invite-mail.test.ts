/**
 * How an invitation rides in an email (issue #9 §6): nodemailer's `icalEvent` option, fed as channels/smtp.ts feeds it
 * (`{ method, filename, content }`), gives a `text/calendar; method=…` alternative beside text and HTML plus an
 * `application/ics` attachment — the shape Gmail and Outlook turn into an invitation card (RFC 6047 §2.4: the
 * MIME `method` equals the body's METHOD). Composed with nodemailer's MailComposer as channels/smtp.ts does; no
 * network.
 */
import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { describe, expect, it } from 'vitest';
import { buildCalendarInvite, calendarInviteFilename, type CalendarInviteInput } from '@/domain/calendar/calendar-invite';

const input: CalendarInviteInput = {
  method: 'REQUEST',
  uid: 'booking-1@punctual.local',
  sequence: 0,
  title: 'Pottery workshop 🏺 陶芸',
  description: null,
  location: null,
  url: null,
  startsAt: new Date('2027-07-01T09:00:00Z'),
  endsAt: new Date('2027-07-01T10:00:00Z'),
  allDay: false,
  timeZone: 'Europe/Lisbon',
  organizer: { name: 'Acme Events', email: 'events@acme.example' },
  attendee: { name: 'Ana Silva', email: 'ana@example.com' },
  stamp: new Date('2027-06-15T12:00:00Z'),
};

async function compose(ics: string, method: 'REQUEST' | 'CANCEL'): Promise<string> {
  const composer = new MailComposer({
    from: 'Acme Events <events@acme.example>',
    to: 'ana@example.com',
    subject: 'Your booking',
    text: 'See you there.',
    html: '<p>See you there.</p>',
    icalEvent: { method, filename: calendarInviteFilename(method), content: ics },
  });
  const buf = await new Promise<Buffer>((resolve, reject) => composer.compile().build((err, b) => (err ? reject(err) : resolve(b))));
  return buf.toString('utf8');
}

describe('nodemailer icalEvent', () => {
  it.each(['REQUEST', 'CANCEL'] as const)('%s: text/calendar alternative with the method, plus the .ics attachment, byte-identical', async (method) => {
    const ics = buildCalendarInvite({ ...input, method, sequence: method === 'CANCEL' ? 1 : 0 });
    const raw = await compose(ics, method);

    // multipart/mixed [ multipart/alternative [ text/plain, text/html, text/calendar ], application/ics ]
    expect(raw).toMatch(/^Content-Type: multipart\/mixed;/m);
    expect(raw).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(raw).toMatch(new RegExp(`^Content-Type: text/calendar; charset=utf-8; method=${method}\\r$`, 'm'));
    const filename = method === 'CANCEL' ? 'cancel.ics' : 'invite.ics';
    expect(raw).toMatch(new RegExp(`^Content-Type: application/ics; name=${filename.replace('.', '\\.')}\\r$`, 'm'));
    expect(raw).toMatch(new RegExp(`^Content-Disposition: attachment; filename=${filename.replace('.', '\\.')}\\r$`, 'm'));

    const parsed = await simpleParser(raw);
    const attachment = parsed.attachments.find((a) => a.filename === filename);
    expect(attachment).toBeDefined();
    expect(attachment!.content.toString('utf8')).toBe(ics);
    // mailparser exposes the text/calendar alternative as an attachment too (no filename, content type with method).
    const alternative = parsed.attachments.find((a) => a.contentType === 'text/calendar');
    expect(alternative).toBeDefined();
    expect(alternative!.content.toString('utf8')).toBe(ics);
    expect(parsed.text?.trim()).toBe('See you there.');
  });
});
