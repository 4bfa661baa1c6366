import { describe, expect, it } from 'vitest';
import { endKeepingLength } from './keep-length';

describe('endKeepingLength', () => {
  it.each([
    ['2027-03-10T10:00', '2027-03-12T14:30', '2027-03-10T12:00', '2027-03-12T16:30'],
    // Over midnight, and into the next month.
    ['2027-03-31T22:00', '2027-04-01T23:00', '2027-04-01T01:00', '2027-04-02T02:00'],
    // Across the spring DST change the wall-clock length stays (the zone is applied when the form is saved).
    ['2027-03-27T10:00', '2027-03-28T10:00', '2027-03-27T12:00', '2027-03-28T12:00'],
    // All-day: the number of days stays.
    ['2027-06-01', '2027-06-10', '2027-06-03', '2027-06-12'],
    // Moving earlier.
    ['2027-06-10T09:00', '2027-06-09T08:15', '2027-06-10T09:45', '2027-06-09T09:00'],
  ])('start %s → %s: end %s becomes %s', (a, b, end, expected) => {
    expect(endKeepingLength(a, b, end)).toBe(expected);
  });
  it('is null for an unreadable value or an end before the start', () => {
    expect(endKeepingLength('', '2027-06-10T09:00', '2027-06-10T10:00')).toBeNull();
    expect(endKeepingLength('2027-06-10T09:00', '2027-13-10T09:00', '2027-06-10T10:00')).toBeNull();
    expect(endKeepingLength('2027-06-10T09:00', '2027-06-11T09:00', '2027-06-10T08:00')).toBeNull();
  });
});
