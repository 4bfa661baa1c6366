import { describe, expect, it } from 'vitest';
import { formatStaffTime, humanizeInstants, splitInstants, staffZoneAbbreviation } from './staff-time';
import { decideSend } from '@/domain/sending/send-decision';
import { planReminders } from '@/domain/scheduling/planning';

const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

describe('formatStaffTime', () => {
  it('writes an instant as wall-clock time in the zone with its abbreviation (the issue’s expiry instant)', () => {
    expect(formatStaffTime('2026-11-29T16:52:00.000Z', 'Europe/Amsterdam')).toBe('Sun 29 Nov 2026, 17:52 CET');
    expect(formatStaffTime(new Date('2026-11-29T16:52:00.000Z'), 'America/New_York')).toBe('Sun 29 Nov 2026, 11:52 EST');
    expect(formatStaffTime('2027-06-15T08:00:05Z', 'Europe/Amsterdam', { seconds: true })).toBe('Tue 15 Jun 2027, 10:00:05 CEST');
  });
  it('names zones without a letter abbreviation by their offset, and never throws', () => {
    expect(staffZoneAbbreviation('2027-06-15T08:00:00Z', 'Asia/Kathmandu')).toBe('UTC+5:45');
    expect(formatStaffTime('not a time', 'Europe/Amsterdam')).toBe('invalid time');
    expect(formatStaffTime('2027-06-15T08:00:00Z', 'Not/AZone')).toBe('invalid time');
  });
});

describe('splitInstants / humanizeInstants', () => {
  it('finds the ISO instants in a text and keeps everything else as it was', () => {
    const text = 'cannot replay: the reminder’s expiry instant 2026-11-29T16:52:00.000Z has passed';
    const pieces = splitInstants(text);
    expect(pieces).toEqual([
      { kind: 'text', text: 'cannot replay: the reminder’s expiry instant ' },
      { kind: 'instant', iso: '2026-11-29T16:52:00.000Z' },
      { kind: 'text', text: ' has passed' },
    ]);
    expect(pieces.map((p) => (p.kind === 'text' ? p.text : p.iso)).join('')).toBe(text);
  });
  it('reads offsets, seconds without fractions and several instants; leaves dates, local times and glued digits alone', () => {
    expect(splitInstants('a 2027-03-01T12:00:05Z b 2027-03-28T11:00+02:00 c').filter((p) => p.kind === 'instant')).toHaveLength(2);
    expect(splitInstants('expired on 2028-08-02').filter((p) => p.kind === 'instant')).toEqual([]);
    expect(splitInstants('at 2027-03-01T12:00 local').filter((p) => p.kind === 'instant')).toEqual([]);
    expect(splitInstants('id x2027-03-01T12:00:00Zq').filter((p) => p.kind === 'instant')).toEqual([]);
    expect(splitInstants('month 13: 2027-13-01T12:00:00Z').filter((p) => p.kind === 'instant')).toEqual([]);
    expect(splitInstants('')).toEqual([]);
  });
  it('humanizeInstants writes each instant in the given zone (seconds only when it has some)', () => {
    expect(humanizeInstants('expiry 2026-11-29T16:52:00.000Z; checked 2026-11-29T17:03:07.120Z', 'Europe/Amsterdam')).toBe(
      'expiry Sun 29 Nov 2026, 17:52 CET; checked Sun 29 Nov 2026, 18:03:07 CET',
    );
    expect(humanizeInstants('the receiver answered HTTP_410 on 2026-11-30T08:15:00.000Z', 'Europe/London')).toBe('the receiver answered HTTP_410 on Mon 30 Nov 2026, 08:15 GMT');
    expect(humanizeInstants('nothing to see', 'UTC')).toBe('nothing to see');
  });
});

describe('reasons written for staff carry no raw ISO instant', () => {
  it('an expired reminder (send decision) names its instants in the event’s zone', () => {
    const d = decideSend(
      { reminder: { status: 'dispatched', scheduleVersion: 1, expiresAt: new Date('2026-11-29T16:52:00.000Z') }, event: { status: 'scheduled', scheduleVersion: 1, timeZone: 'Europe/Amsterdam' }, booking: { status: 'confirmed' }, rule: { active: true } },
      new Date('2026-11-29T17:03:00.000Z'),
    );
    expect(d).toEqual({ action: 'terminate', status: 'expired', reason: 'not sent before its expiry instant Sun 29 Nov, 17:52 CET (checked Sun 29 Nov, 18:03 CET)' });
  });
  it('a reminder planned after its expiry instant says so in the event’s zone', () => {
    const [p] = planReminders({
      event: { startsAt: new Date('2026-11-29T17:00:00Z'), endsAt: new Date('2026-11-29T18:00:00Z'), timeZone: 'Europe/Amsterdam', status: 'scheduled', roomUrl: null, roomOpenLeadMinutes: 0 },
      bookings: [{ id: 'b', role: 'attendee', status: 'confirmed' }],
      rules: [{ id: 'r', anchor: 'start', offset: '-P1D', audience: ['attendee'], channel: 'email', lateSendWindowSeconds: 3600, active: true }],
      now: new Date('2026-11-29T16:00:00Z'),
    });
    expect(p!.status).toBe('expired');
    expect(p!.statusReason).not.toMatch(ISO);
    expect(p!.statusReason).toBe('planned after its expiry instant: due Sat 28 Nov, 18:00 CET, useful until Sat 28 Nov, 19:00 CET, planned Sun 29 Nov, 17:00 CET');
  });
});
