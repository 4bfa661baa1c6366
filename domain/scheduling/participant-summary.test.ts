import { describe, expect, it } from 'vitest';
import { participantSummary, problemDeliveryStatuses, problemReminderStatusesWithoutDelivery, sentMessageCount, type SummaryReminder } from './participant-summary';

const r = (
  status: SummaryReminder['status'],
  deliveryStatus: SummaryReminder['deliveryStatus'] = null,
  dueAt = '2026-12-08T08:00:00Z',
  ruleName = '2 hours before',
  scheduleVersion = 2,
  kind: SummaryReminder['kind'] = 'rule',
): SummaryReminder => ({ kind, status, scheduleVersion, dueAt, ruleName, deliveryStatus });

const Z = 'Europe/Amsterdam';

describe('participant summary', () => {
  it.each<[string, SummaryReminder[], string, boolean]>([
    ['nothing planned', [], 'no messages planned', false],
    ['one waiting reminder, in the event zone', [r('scheduled')], 'next: 2 hours before, Tue 8 Dec 09:00', false],
    [
      'sent ones counted, the earliest waiting one is next',
      [
        r('done', 'accepted', '2026-12-07T08:00:00Z', '1 day before'),
        r('done', 'delivered', '2026-12-07T08:00:00Z', '1 day before'),
        r('scheduled', null, '2026-12-08T09:50:00Z', 'Room opens'),
        r('scheduled', null, '2026-12-08T08:00:00Z'),
      ],
      '2 sent · next: 2 hours before, Tue 8 Dec 09:00',
      false,
    ],
    [
      'a superseded version is never next, an older sent one still counts as sent',
      [r('superseded', null, '2026-12-01T08:00:00Z', 'old', 1), r('done', 'accepted', '2026-11-30T08:00:00Z', 'old', 1), r('scheduled')],
      '1 sent · next: 2 hours before, Tue 8 Dec 09:00',
      false,
    ],
    ['a soft bounce counts as sent', [r('done', 'soft_bounced')], '1 sent', false],
    ['a retrying delivery is still next', [r('done', 'retrying')], 'next: 2 hours before, Tue 8 Dec 09:00', false],
    ['unknown outcome needs a person', [r('done', 'unknown'), r('done', 'accepted')], '1 sent · 1 needs a person', true],
    ['two problems: plural', [r('done', 'unknown'), r('done', 'dead')], '2 need a person', true],
    ['failed for good', [r('done', 'bounced'), r('failed'), r('done', 'failed')], '3 failed', true],
    ['expired and suppressed are not problems a person can fix here', [r('expired'), r('done', 'suppressed'), r('cancelled')], 'no messages planned', false],
    [
      'nudges and notifications count too',
      [r('done', 'accepted', '2026-12-01T08:00:00Z', 'Booking confirmed', 2, 'notification'), r('scheduled', null, '2026-12-02T08:00:00Z', 'Manual reminder', 1, 'nudge')],
      '1 sent · next: Manual reminder, Wed 2 Dec 09:00',
      false,
    ],
    // DST: 25 Oct 2026 02:30 happens twice in Amsterdam; the instant decides which.
    ['DST end, first 02:30 (CEST)', [r('scheduled', null, '2026-10-25T00:30:00Z')], 'next: 2 hours before, Sun 25 Oct 02:30', false],
    ['DST end, second 02:30 (CET)', [r('scheduled', null, '2026-10-25T01:30:00Z')], 'next: 2 hours before, Sun 25 Oct 02:30', false],
    ['DST start: 01:30 UTC is 03:30 CEST', [r('scheduled', null, '2026-03-29T01:30:00Z')], 'next: 2 hours before, Sun 29 Mar 03:30', false],
  ])('%s', (_name, reminders, text, problem) => {
    const s = participantSummary(reminders, 2, Z);
    expect(s.text).toBe(text);
    expect(s.problem).toBe(problem);
  });

  it('shows next in another zone when asked, and an unknown zone falls back to UTC', () => {
    expect(participantSummary([r('scheduled')], 2, 'America/New_York').text).toBe('next: 2 hours before, Tue 8 Dec 03:00');
    expect(participantSummary([r('scheduled')], 2, 'Not/AZone').text).toBe('next: 2 hours before, Tue 8 Dec 08:00');
  });

  it('returns the counts and the next one', () => {
    const s = participantSummary([r('done', 'accepted'), r('done', 'dead'), r('scheduled', null, '2026-12-09T08:00:00Z', 'Room opens')], 2, Z);
    expect(s).toMatchObject({ sent: 1, needsPerson: 1, failed: 0, next: { label: 'Room opens', dueAt: '2026-12-09T08:00:00Z' } });
  });
});

describe('the summary rules as data (for the SQL side)', () => {
  it('sentMessageCount adds the counts of sent statuses only', () => {
    expect(sentMessageCount([{ deliveryStatus: 'accepted', count: 3 }, { deliveryStatus: 'delivered', count: 2 }, { deliveryStatus: 'soft_bounced', count: 1 }, { deliveryStatus: 'bounced', count: 5 }, { deliveryStatus: null, count: 7 }])).toBe(6);
  });
  it('the problem lists say what participantSummary calls a problem', () => {
    const one = (status: SummaryReminder['status'], deliveryStatus: SummaryReminder['deliveryStatus']): SummaryReminder => ({ kind: 'rule', status, scheduleVersion: 1, dueAt: '2027-01-01T00:00:00.000Z', ruleName: 'x', deliveryStatus });
    for (const d of problemDeliveryStatuses) expect(participantSummary([one('done', d)], 1, 'UTC').problem).toBe(true);
    for (const s of problemReminderStatusesWithoutDelivery) expect(participantSummary([one(s, null)], 1, 'UTC').problem).toBe(true);
    for (const d of ['accepted', 'delivered', 'soft_bounced', 'claimed', 'sending', 'retrying', 'suppressed', 'expired', 'cancelled', 'superseded'] as const)
      expect(participantSummary([one('done', d)], 1, 'UTC').problem).toBe(false);
    expect(participantSummary([one('failed', 'accepted')], 1, 'UTC').problem).toBe(false); // a delivery decides once there is one
  });
});
