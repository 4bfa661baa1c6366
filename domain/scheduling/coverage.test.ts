import { describe, expect, it } from 'vitest';
import { eventCoverage, type CoverageReminder } from './coverage';

const r = (status: CoverageReminder['status'], deliveryStatus: CoverageReminder['deliveryStatus'] = null, scheduleVersion = 2, kind: CoverageReminder['kind'] = 'rule'): CoverageReminder => ({ kind, scheduleVersion, status, deliveryStatus });

describe('event coverage', () => {
  it('counts only current-version rule reminders that were not cancelled or superseded', () => {
    const c = eventCoverage(
      [
        r('superseded', null, 1),
        r('done', 'accepted', 1), // old version, already sent: not part of the current expectation
        r('cancelled'),
        r('done', 'accepted'),
        r('done', 'delivered'),
        r('expired'),
        r('done', 'expired'),
        r('failed'),
        r('done', 'dead'),
        r('done', 'unknown'),
        r('done', 'suppressed'),
        r('scheduled'),
        r('done', 'retrying'),
        r('done', 'accepted', 2, 'nudge'),
        r('done', 'accepted', 2, 'notification'), // a booking-change notification: counted apart
      ],
      2,
    );
    expect(c).toEqual({ expected: 10, sent: 2, delivered: 1, expired: 2, failed: 2, unknown: 1, suppressed: 1, waiting: 2, nudges: 1, notifications: 1, announcements: 0 });
  });
  it('a cancelled booking expects nothing, even reminders that had expired or gone out before it was cancelled', () => {
    const c = eventCoverage([{ ...r('expired'), bookingCancelled: true }, { ...r('done', 'accepted'), bookingCancelled: true }, r('scheduled')], 2);
    expect([c.expected, c.expired, c.sent, c.waiting]).toEqual([1, 0, 0, 1]);
  });
  it('an event with no bookings expects nothing', () => {
    expect(eventCoverage([], 1).expected).toBe(0);
  });
  it('counts grouped entries as many times as their count (the database groups them), and a count of 0 not at all', () => {
    const one = [r('done', 'accepted'), r('done', 'accepted'), r('done', 'accepted'), r('scheduled'), r('done', 'accepted', 2, 'nudge'), r('done', 'accepted', 2, 'nudge')];
    const grouped = [{ ...r('done', 'accepted'), count: 3 }, { ...r('scheduled'), count: 1 }, { ...r('done', 'accepted', 2, 'nudge'), count: 2 }, { ...r('failed'), count: 0 }];
    expect(eventCoverage(grouped, 2)).toEqual(eventCoverage(one, 2));
    expect(eventCoverage(grouped, 2)).toMatchObject({ expected: 4, sent: 3, waiting: 1, nudges: 2, failed: 0 });
  });
});
