/**
 * iTIP REPLY parsing and the matching rule (domain/calendar/itip-reply.ts), table-driven, no database: the fixtures
 * written from Outlook's, Google Calendar's and Apple Calendar's published formats (test/fixtures/itip/README.md)
 * are read for their calendar part, and every rule of `matchReply` has a row that would fail without it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { bookingIdFromUid, matchReply, parseItipReply, ReplyParseError, type ParsedReply, type ReplyBooking } from './itip-reply';

const ID = '7f3c2a9e-5b14-4d6a-8e21-c04b9d3f6a58';
const fixture = (f: string) => readFileSync(path.join(import.meta.dirname, '../../test/fixtures/itip', f));
async function calendarOf(f: string): Promise<string> {
  const mail = await simpleParser(fixture(f));
  return mail.attachments.find((a) => a.contentType === 'text/calendar')!.content.toString('utf8');
}

describe('parseItipReply on real-format replies', () => {
  it.each([
    ['outlook-declined.eml', 'ana.lopez@example.org', 'DECLINED'],
    ['google-accepted.eml', 'ana.lopez@example.org', 'ACCEPTED'],
    ['apple-tentative.eml', 'ana.lopez@example.org', 'TENTATIVE'],
  ])('%s → METHOD REPLY, the booking UID, SEQUENCE 0, one attendee (lowercased) with its PARTSTAT', async (file, email, partstat) => {
    const r = parseItipReply(await calendarOf(file));
    expect(r).toMatchObject({ method: 'REPLY', uid: `booking-${ID}@punctual`, sequence: 0, recurrenceId: false });
    expect(r.attendees).toEqual([{ email, partstat }]);
  });

  it('refuses text that is not iCalendar, and a calendar without a VEVENT', () => {
    expect(() => parseItipReply('hello')).toThrow(ReplyParseError);
    expect(() => parseItipReply('BEGIN:VCALENDAR\r\nMETHOD:REPLY\r\nEND:VCALENDAR\r\n')).toThrow(/no VEVENT/);
  });
});

describe('bookingIdFromUid', () => {
  it.each([
    [`booking-${ID}@punctual`, ID],
    [`BOOKING-${ID.toUpperCase()}@Punctual`, ID],
    [`booking-${ID}@punctual.local`, null],
    [`event-${ID}@punctual`, null],
    ['040000008200E00074C5B7101A82E008', null],
    [null, null],
  ])('%s → %s', (uid, id) => expect(bookingIdFromUid(uid)).toBe(id));
});

describe('matchReply', () => {
  const reply = (p: Partial<ParsedReply> = {}): ParsedReply => ({
    method: 'REPLY',
    uid: `booking-${ID}@punctual`,
    sequence: 1,
    attendees: [{ email: 'ana.lopez@example.org', partstat: 'DECLINED' }],
    recurrenceId: false,
    prodId: null,
    ...p,
  });
  const booking: ReplyBooking = { id: ID, email: 'Ana.Lopez@Example.org', status: 'confirmed', lastSentSequence: 1 };

  it.each<[string, ParsedReply, ReplyBooking | null, string]>([
    ['the booking’s own address (case differs), same SEQUENCE, DECLINED → apply declined', reply(), booking, 'apply:declined'],
    ['ACCEPTED → apply confirmed', reply({ attendees: [{ email: 'ana.lopez@example.org', partstat: 'ACCEPTED' }] }), booking, 'apply:confirmed'],
    ['TENTATIVE → apply tentative', reply({ attendees: [{ email: 'ana.lopez@example.org', partstat: 'TENTATIVE' }] }), booking, 'apply:tentative'],
    ['a newer SEQUENCE than the last sent still counts', reply({ sequence: 4 }), booking, 'apply:declined'],
    ['an older SEQUENCE → ignored', reply({ sequence: 0 }), booking, 'ignored:older than the last sent'],
    ['another address → unmatched', reply({ attendees: [{ email: 'someone@else.example', partstat: 'DECLINED' }] }), booking, "unmatched:not the booking's address"],
    ['an unknown booking → unmatched', reply(), null, 'unmatched:names no booking'],
    ['a UID that is not a booking UID → unmatched', reply({ uid: 'abc@example.org' }), booking, 'unmatched:names no booking'],
    ['a UID naming another booking → unmatched', reply({ uid: 'booking-00000000-0000-4000-8000-000000000000@punctual' }), booking, 'unmatched:names no booking'],
    ['METHOD REQUEST (a forwarded invitation) → ignored', reply({ method: 'REQUEST' }), booking, 'ignored:not REPLY'],
    ['two ATTENDEEs → ignored', reply({ attendees: [{ email: 'ana.lopez@example.org', partstat: 'DECLINED' }, { email: 'b@example.org', partstat: 'ACCEPTED' }] }), booking, 'ignored:exactly one'],
    ['one occurrence (RECURRENCE-ID) → ignored', reply({ recurrenceId: true }), booking, 'ignored:RECURRENCE-ID'],
    ['PARTSTAT NEEDS-ACTION → ignored', reply({ attendees: [{ email: 'ana.lopez@example.org', partstat: 'NEEDS-ACTION' }] }), booking, 'ignored:not an answer'],
    ['a cancelled booking → ignored', reply(), { ...booking, status: 'cancelled' }, 'ignored:already cancelled'],
  ])('%s', (_name, r, b, expected) => {
    const d = matchReply(r, b);
    const [outcome, detail] = expected.split(':');
    expect(d.outcome).toBe(outcome);
    if (d.outcome === 'apply') expect(d.answer).toBe(detail);
    else expect(d.reason).toContain(detail);
  });
});
