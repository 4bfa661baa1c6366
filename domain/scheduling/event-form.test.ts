import { describe, expect, it } from 'vitest';
import { formFromTiming, suggestZone, timingFromForm } from './event-form';

describe('event form wall-clock → instants', () => {
  it('a local time in the event zone (summer time in Amsterdam is UTC+2)', () => {
    const t = timingFromForm({ start: '2027-06-15T10:00', end: '2027-06-15T11:30', timeZone: 'Europe/Amsterdam', allDay: false });
    expect(t.startsAt.toISOString()).toBe('2027-06-15T08:00:00.000Z');
    expect(t.endsAt.toISOString()).toBe('2027-06-15T09:30:00.000Z');
  });
  it('a nonexistent spring-forward time moves forward by the gap; an ambiguous one takes the earlier instant', () => {
    expect(timingFromForm({ start: '2027-03-14T02:30', end: '2027-03-14T04:00', timeZone: 'America/New_York', allDay: false }).startsAt.toISOString()).toBe('2027-03-14T07:30:00.000Z');
    expect(timingFromForm({ start: '2027-11-07T01:30', end: '2027-11-07T03:00', timeZone: 'America/New_York', allDay: false }).startsAt.toISOString()).toBe('2027-11-07T05:30:00.000Z');
  });
  it('all-day: local midnights, the last day inclusive', () => {
    const t = timingFromForm({ start: '2027-10-18', end: '2027-10-19', timeZone: 'Europe/Berlin', allDay: true });
    expect(t.startsAt.toISOString()).toBe('2027-10-17T22:00:00.000Z');
    expect(t.endsAt.toISOString()).toBe('2027-10-19T22:00:00.000Z');
    expect(formFromTiming(t)).toEqual({ start: '2027-10-18', end: '2027-10-19', timeZone: 'Europe/Berlin', allDay: true });
  });
  it('round-trips a timed event', () => {
    const f = { start: '2027-01-05T18:45', end: '2027-01-05T20:00', timeZone: 'Asia/Kolkata', allDay: false };
    expect(formFromTiming(timingFromForm(f))).toEqual(f);
  });
  it.each([
    [{ start: '2027-06-15', end: '2027-06-15T11:00' }, 'start'],
    [{ start: '2027-02-30T10:00', end: '2027-03-01T10:00' }, 'start'],
    [{ start: '2027-06-15T10:00', end: '2027-06-15T09:00' }, 'end'],
    [{ start: '2027-06-15T10:00', end: 'tomorrow' }, 'end'],
    [{ start: '0000-01-01T10:00', end: '0000-01-01T11:00' }, 'start'],
    [{ start: '2027-03-10T10:00:99', end: '2027-03-10T11:00' }, 'start'],
    [{ start: '2027-03-10T10:00', end: '9999-12-31T11:00' }, 'end'],
  ])('%o is refused naming %s', (f, field) => {
    expect(() => timingFromForm({ ...f, timeZone: 'UTC', allDay: false })).toThrow(expect.objectContaining({ field }));
  });
  it('a city name is refused with the zone it probably means', () => {
    expect(() => timingFromForm({ start: '2027-06-15T10:00', end: '2027-06-15T11:00', timeZone: 'Tokyo', allDay: false })).toThrow(/did you mean Asia\/Tokyo\?/);
    expect(suggestZone('new york')).toBe('America/New_York');
    expect(suggestZone('Nowhere')).toBeNull();
  });
  it('an unknown zone is refused naming timeZone', () => {
    expect(() => timingFromForm({ start: '2027-06-15T10:00', end: '2027-06-15T11:00', timeZone: 'Mars/Olympus', allDay: false })).toThrow(expect.objectContaining({ field: 'timeZone' }));
  });
});
