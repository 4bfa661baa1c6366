/**
 * The mailbox's calendar box (domain/calendar/ics-key-lines.ts): the key lines of a real Punctual invitation (VTIMEZONE's
 * own DTSTART lines skipped), unfolding, component nesting, case and line endings.
 */
import { describe, expect, it } from 'vitest';
import { buildCalendarInvite, type CalendarInviteInput } from './calendar-invite';
import { icsKeyLines } from './ics-key-lines';

const invite: CalendarInviteInput = {
  method: 'REQUEST',
  uid: 'booking-1@punctual.local',
  sequence: 2,
  title: 'Evening Yoga',
  description: null,
  location: null,
  url: null,
  startsAt: new Date('2026-12-01T23:00:00Z'),
  endsAt: new Date('2026-12-02T00:30:00Z'),
  allDay: false,
  timeZone: 'America/New_York',
  organizer: { name: 'Studio', email: 'hi@studio.test' },
  attendee: { name: 'Grace', email: 'grace@example.test' },
  stamp: new Date('2026-11-30T21:00:00Z'),
};

describe('icsKeyLines', () => {
  it('a Punctual invitation: METHOD, UID, SEQUENCE, DTSTART/DTEND with TZID, STATUS, SUMMARY — not the VTIMEZONE DTSTARTs', () => {
    const ics = buildCalendarInvite(invite);
    expect(ics).toMatch(/^DTSTART:19\d{6}T\d{6}\r$/m); // the VTIMEZONE rules have DTSTART lines of their own
    expect(icsKeyLines(ics)).toEqual([
      { name: 'METHOD', line: 'METHOD:REQUEST' },
      { name: 'UID', line: 'UID:booking-1@punctual.local' },
      { name: 'SEQUENCE', line: 'SEQUENCE:2' },
      { name: 'DTSTART', line: 'DTSTART;TZID=America/New_York:20261201T180000' },
      { name: 'DTEND', line: 'DTEND;TZID=America/New_York:20261201T193000' },
      { name: 'STATUS', line: 'STATUS:CONFIRMED' },
      { name: 'SUMMARY', line: 'SUMMARY:Evening Yoga' },
    ]);
  });

  it('an updated invitation with a place and an online room: LOCATION and URL after SUMMARY', () => {
    const lines = icsKeyLines(buildCalendarInvite({ ...invite, sequence: 3, location: 'Garden B', url: 'https://meet.example/r/yoga' }));
    expect(lines.slice(-3)).toEqual([
      { name: 'SUMMARY', line: 'SUMMARY:Evening Yoga' },
      { name: 'LOCATION', line: 'LOCATION:Garden B' },
      { name: 'URL', line: 'URL;VALUE=URI:https://meet.example/r/yoga' },
    ]);
  });

  it('a cancellation: METHOD:CANCEL, the higher SEQUENCE, STATUS:CANCELLED', () => {
    const lines = icsKeyLines(buildCalendarInvite({ ...invite, method: 'CANCEL', sequence: 3 }));
    expect(lines.map((l) => l.line)).toEqual(expect.arrayContaining(['METHOD:CANCEL', 'SEQUENCE:3', 'STATUS:CANCELLED']));
  });

  it('unfolds continuation lines (CRLF or LF + one space or tab) before reading', () => {
    const ics = 'BEGIN:VCALENDAR\r\nMETHOD:REQ\r\n UEST\r\nBEGIN:VEVENT\r\nUID:abc\r\n\tdef\r\nSUMMARY:A long\n  title\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
    expect(icsKeyLines(ics)).toEqual([
      { name: 'METHOD', line: 'METHOD:REQUEST' },
      { name: 'UID', line: 'UID:abcdef' },
      { name: 'SUMMARY', line: 'SUMMARY:A long title' },
    ]);
  });

  it('reads only the first VEVENT, directly: a VALARM inside it and a second VEVENT are ignored', () => {
    const ics = [
      'BEGIN:VCALENDAR',
      'BEGIN:VEVENT',
      'BEGIN:VALARM',
      'SUMMARY:alarm text',
      'END:VALARM',
      'DTSTART:20270101T100000Z',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:second',
      'SUMMARY:second event',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\n');
    expect(icsKeyLines(ics)).toEqual([{ name: 'DTSTART', line: 'DTSTART:20270101T100000Z' }]);
  });

  it('METHOD only at the calendar level; the first occurrence of a property wins; names are case-insensitive', () => {
    const ics = ['begin:vcalendar', 'begin:vevent', 'METHOD:PUBLISH', 'sequence:1', 'SEQUENCE:9', 'end:vevent', 'method:CANCEL', 'END:VCALENDAR'].join('\r\n');
    expect(icsKeyLines(ics)).toEqual([
      { name: 'METHOD', line: 'method:CANCEL' },
      { name: 'SEQUENCE', line: 'sequence:1' },
    ]);
  });

  it('a parameter value with a colon does not confuse the name; text that is no calendar gives nothing', () => {
    const ics = 'BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;TZID="Etc/GMT+5:x":20270101T100000\nEND:VEVENT\nEND:VCALENDAR';
    expect(icsKeyLines(ics)).toEqual([{ name: 'DTSTART', line: 'DTSTART;TZID="Etc/GMT+5:x":20270101T100000' }]);
    expect(icsKeyLines('')).toEqual([]);
    expect(icsKeyLines('Hello: this is a text part\nUID:nope')).toEqual([]);
  });
});
