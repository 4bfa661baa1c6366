/**
 * The calendar feed builder (domain/calendar/calendar-feed.ts): METHOD:PUBLISH, the invitation's UID and SEQUENCE per
 * entry, no ATTENDEE, one VTIMEZONE per zone, alarms only where given (relative triggers, DST-independent), read back
 * with ical.js.
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { alarmOffsets, buildCalendarFeed, type CalendarFeedEntry } from './calendar-feed';

const stamp = new Date('2026-12-01T10:00:00Z');
const entry = (uid: string, startsAt: string, zone: string, sequence = 0): CalendarFeedEntry['entry'] => ({
  uid,
  sequence,
  title: 'Pottery workshop',
  description: null,
  location: 'Room A',
  url: null,
  startsAt: new Date(startsAt),
  endsAt: new Date(new Date(startsAt).getTime() + 7_200_000),
  allDay: false,
  timeZone: zone,
  organizer: { name: 'Test Org', email: 'noreply@punctual.example' },
  stamp,
  cancelled: false,
});

describe('buildCalendarFeed', () => {
  it('PUBLISH, entries by start with UID/SEQUENCE, no ATTENDEE, one VTIMEZONE per zone, alarms as given', () => {
    const text = buildCalendarFeed({
      name: 'Test Org',
      entries: [
        { entry: entry('booking-b@punctual', '2027-03-28T12:00:00Z', 'Europe/Amsterdam', 2), alarmSecondsBefore: [] },
        { entry: entry('booking-a@punctual', '2027-03-27T12:00:00Z', 'Europe/Amsterdam'), alarmSecondsBefore: [86_400, 3600, 3600] },
        { entry: entry('booking-c@punctual', '2027-03-29T12:00:00Z', 'America/New_York'), alarmSecondsBefore: [-1800] },
      ],
    });
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text).toContain('METHOD:PUBLISH\r\n');
    expect(text).toContain('X-WR-CALNAME:Test Org\r\n');
    expect(text).not.toContain('ATTENDEE');
    expect(text.match(/TZID:Europe\/Amsterdam\r\n/g)).toHaveLength(1);
    const cal = new ICAL.Component(ICAL.parse(text));
    const events = cal.getAllSubcomponents('vevent');
    expect(events.map((e) => [e.getFirstPropertyValue('uid'), e.getFirstPropertyValue('sequence')])).toEqual([
      ['booking-a@punctual', 0],
      ['booking-b@punctual', 2],
      ['booking-c@punctual', 0],
    ]);
    expect(events[0].getAllSubcomponents('valarm').map((a) => String(a.getFirstPropertyValue('trigger')))).toEqual(['-P1D', '-PT1H']);
    expect(events[1].getAllSubcomponents('valarm')).toHaveLength(0);
    expect(events[2].getAllSubcomponents('valarm').map((a) => String(a.getFirstPropertyValue('trigger')))).toEqual(['PT30M']);
    expect(events[0].getFirstSubcomponent('valarm')!.getFirstPropertyValue('action')).toBe('DISPLAY');
  });
});

describe('alarmOffsets', () => {
  it('seconds before the start, distinct, largest first; after the start negative (DST night included: elapsed time)', () => {
    const start = new Date('2027-03-28T09:00:00Z'); // Amsterdam switched to summer time at 01:00Z that night
    expect(alarmOffsets(start, [new Date('2027-03-27T09:00:00Z'), new Date('2027-03-28T08:00:00Z'), new Date('2027-03-28T08:00:00.500Z'), new Date('2027-03-28T11:00:00Z')])).toEqual([86_400, 3600, -7200]);
  });
});
