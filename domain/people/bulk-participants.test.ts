import { describe, expect, it } from 'vitest';
import { bulkNudgeKey, nudgeRefusalText, retryClock, staleSelectionMessage } from './bulk-participants';

describe('bulk participants', () => {
  it('each participant of a bulk nudge has its own key, the same on a repeated request', () => {
    expect(bulkNudgeKey('req-key-1', 'b1')).toBe('bulk:req-key-1:b1');
    expect(bulkNudgeKey('req-key-1', 'b2')).not.toBe(bulkNudgeKey('req-key-1', 'b1'));
  });

  it('retry time is the next whole minute in the event zone (never one that would be refused again)', () => {
    expect(retryClock('2026-12-01T09:01:30Z', 'Europe/Amsterdam')).toBe('10:02');
    expect(retryClock(new Date('2026-12-01T09:01:00Z'), 'Europe/Amsterdam')).toBe('10:01');
    expect(retryClock('2026-12-01T09:01:00.001Z', 'UTC')).toBe('09:02');
  });

  it('words refusals per participant', () => {
    expect(nudgeRefusalText({ code: 'rate_limited', message: 'x', retryAt: '2026-12-01T09:01:30Z' }, 'UTC')).toBe('nudged less than a minute ago — try again at 09:02');
    expect(nudgeRefusalText({ code: 'invalid_state', message: 'this booking is cancelled: nothing to remind' }, 'UTC')).toBe('this booking is cancelled: nothing to remind');
    expect(nudgeRefusalText({ code: 'not_found', message: 'participant x not found' }, 'UTC')).toBe('not a participant of this event');
  });

  it('a stale bulk cancel names every changed participant, who and when, and says nothing was cancelled', () => {
    const at = new Date('2026-12-01T08:02:00Z');
    const m = staleSelectionMessage(
      [
        { name: 'Zoë Adams', by: 'Sam Staff', at, status: 'cancelled' },
        { name: 'Jan Kowalski', by: 'import', at: null, status: 'confirmed' },
      ],
      3,
      'Europe/Amsterdam',
    );
    expect(m).toBe(
      '2 of the 3 selected participants changed since the page showed them, so nothing was cancelled: Zoë Adams (cancelled by Sam Staff at Tue 1 Dec 2026, 09:02 CET); Jan Kowalski (changed by import). The list now shows them as they are: check them and select again.',
    );
    expect(staleSelectionMessage([{ name: 'A', by: 'B', at: null, status: 'confirmed' }], 1, 'UTC')).toMatch(/^The selected participant changed since the page showed it, so nothing was cancelled/);
  });
});
