import { describe, expect, it } from 'vitest';
import { describeRule } from './describe-rule';

describe('describeRule', () => {
  it.each([
    [{ anchor: 'start', offset: '-P1D', audience: ['attendee', 'external'], lateSendWindowSeconds: 3600 }, '1 day before start, same local time, to attendees and external guests by the channels each prefers; skipped if more than 1 hour late'],
    [{ anchor: 'start', offset: '-PT2H', audience: ['attendee'], lateSendWindowSeconds: 900 }, '2 hours before start (elapsed time), to attendees by the channels each prefers; skipped if more than 15 minutes late'],
    [{ anchor: 'room_open', offset: 'PT0S', audience: ['external', 'attendee'], lateSendWindowSeconds: 600 }, 'when the room opens, to attendees and external guests by the channels each prefers; skipped if more than 10 minutes late'],
    [{ anchor: 'end', offset: 'PT30M', audience: ['host', 'attendee', 'external'], lateSendWindowSeconds: 86400 }, '30 minutes after end (elapsed time), to attendees, external guests and hosts by the channels each prefers; skipped if more than 1 day late'],
    [{ anchor: 'start', offset: '-P1DT2H', audience: ['host'], lateSendWindowSeconds: 5400 }, '1 day 2 hours before start, to hosts by the channels each prefers; skipped if more than 1 hour 30 minutes late'],
  ] as const)('%j', (rule, sentence) => {
    expect(describeRule({ ...rule, channel: 'email' })).toBe(sentence);
  });
  it('with quiet hours: the reminder waits for their end if that is before the late-send window closes', () => {
    const rule = { anchor: 'start', offset: '-P1D', audience: ['attendee'], channel: 'email', lateSendWindowSeconds: 3600 } as const;
    expect(describeRule(rule, { quietHours: true })).toBe(
      '1 day before start, same local time, to attendees by the channels each prefers; skipped if more than 1 hour late; participants with quiet hours get it when their quiet hours end if that is before the late-send window closes, else at its due time',
    );
    expect(describeRule(rule, { quietHours: false })).toBe('1 day before start, same local time, to attendees by the channels each prefers; skipped if more than 1 hour late');
  });
});
