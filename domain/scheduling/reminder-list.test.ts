import { describe, expect, it } from 'vitest';
import { describeReminderList, reminderListQuery } from './reminder-list';

const now = new Date('2027-06-10T10:00:00Z');

describe('reminderListQuery', () => {
  it('upcoming in the next hour is the tile "Due in the next hour": waiting, due in [now, now + 1 h), soonest first', () => {
    expect(reminderListQuery('upcoming', '1h', now)).toEqual({
      statuses: ['scheduled', 'dispatched'],
      column: 'due_at',
      from: now,
      to: new Date('2027-06-10T11:00:00Z'),
      toInclusive: false,
      order: 'asc',
    });
    expect(reminderListQuery('upcoming', 'all', now)).toMatchObject({ from: now, to: null });
  });
  it('expired in the last 24 hours is the reminder half of the "Expired" tile: by expiry instant, newest first', () => {
    expect(reminderListQuery('expired', '24h', now)).toEqual({
      statuses: ['expired'],
      column: 'expires_at',
      from: new Date('2027-06-09T10:00:00Z'),
      to: now,
      toInclusive: true,
      order: 'desc',
    });
  });
  it('due means waiting with its due instant already past; ended states read by their last change', () => {
    expect(reminderListQuery('due', '7d', now)).toMatchObject({ statuses: ['scheduled', 'dispatched'], column: 'due_at', from: new Date('2027-06-03T10:00:00Z'), to: now, toInclusive: false });
    expect(reminderListQuery('failed', 'all', now)).toMatchObject({ statuses: ['failed'], column: 'updated_at', from: null, to: now, order: 'desc' });
  });
});

describe('describeReminderList', () => {
  it('says what the list shows in words', () => {
    expect(describeReminderList('upcoming', '1h')).toBe('Messages due in the next hour, soonest first');
    expect(describeReminderList('expired', '24h')).toBe('Messages whose expiry instant passed in the last 24 hours before they could go out, newest first');
    expect(describeReminderList('cancelled', 'all')).toBe('Messages cancelled, newest first');
  });
});
