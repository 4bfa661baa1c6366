import { describe, expect, it } from 'vitest';
import {
  dashboardWindows,
  fillChannelOutcomes,
  fillLag,
  fillOutcomes,
  formatLagSeconds,
  formatLagTick,
  hourBuckets,
  isLatePlanned,
  lagTicks,
  summarizeChannelOutcomes,
  summarizeLag,
  summarizeLatePlanned,
  summarizeOutcomes,
} from './dashboard';

describe('dashboardWindows', () => {
  it('today starts at the local midnight of the tenant zone, not UTC midnight', () => {
    // 2027-06-15 00:30 UTC is already 02:30 on the 15th in Amsterdam (CEST, UTC+2).
    const w = dashboardWindows(new Date('2027-06-15T00:30:00Z'), 'Europe/Amsterdam');
    expect(w.todayStart.toISOString()).toBe('2027-06-14T22:00:00.000Z');
    expect(w.today).toBe('2027-06-15');
    // …while in New York (EDT, UTC−4) it is still the evening of the 14th.
    const ny = dashboardWindows(new Date('2027-06-15T00:30:00Z'), 'America/New_York');
    expect(ny.todayStart.toISOString()).toBe('2027-06-14T04:00:00.000Z');
    expect(ny.today).toBe('2027-06-14');
  });
  it('hour and day windows are elapsed time around now', () => {
    const w = dashboardWindows(new Date('2027-03-28T00:30:00Z'), 'Europe/Amsterdam');
    expect(w.in1h.toISOString()).toBe('2027-03-28T01:30:00.000Z');
    expect(w.in24h.toISOString()).toBe('2027-03-29T00:30:00.000Z');
    expect(w.since24h.toISOString()).toBe('2027-03-27T00:30:00.000Z');
  });
  it('on a spring-forward day "today" still starts at the local midnight', () => {
    const w = dashboardWindows(new Date('2027-03-28T12:00:00Z'), 'Europe/Amsterdam');
    expect(w.todayStart.toISOString()).toBe('2027-03-27T23:00:00.000Z');
  });
});

describe('hourBuckets', () => {
  it('24 one-hour buckets ending with the local hour that contains now', () => {
    const b = hourBuckets(new Date('2027-06-15T10:17:05Z'), 'Europe/Amsterdam');
    expect(b).toHaveLength(24);
    expect(b[23]!.start.toISOString()).toBe('2027-06-15T10:00:00.000Z');
    expect(b[23]!.label).toBe('12:00');
    expect(b[0]!.start.toISOString()).toBe('2027-06-14T11:00:00.000Z');
    expect(b[0]!.label).toBe('13:00');
    expect(b.every((x, i) => x.index === i && x.end.getTime() - x.start.getTime() === 3_600_000)).toBe(true);
  });
  it('aligns to local hours in a half-hour zone', () => {
    const b = hourBuckets(new Date('2027-06-15T10:17:00Z'), 'Asia/Kolkata', 3);
    // 10:17 UTC = 15:47 IST: the current local hour started at 15:00 IST = 09:30 UTC.
    expect(b.map((x) => x.start.toISOString())).toEqual(['2027-06-15T07:30:00.000Z', '2027-06-15T08:30:00.000Z', '2027-06-15T09:30:00.000Z']);
    expect(b.map((x) => x.label)).toEqual(['13:00', '14:00', '15:00']);
  });
  it('skips the missing hour on spring-forward and repeats the doubled one on fall-back', () => {
    const spring = hourBuckets(new Date('2027-03-28T02:10:00Z'), 'Europe/Amsterdam', 4);
    expect(spring.map((x) => x.label)).toEqual(['00:00', '01:00', '03:00', '04:00']);
    const fall = hourBuckets(new Date('2027-10-31T02:10:00Z'), 'Europe/Amsterdam', 4);
    expect(fall.map((x) => x.label)).toEqual(['01:00', '02:00', '02:00', '03:00']);
    expect(new Set(fall.map((x) => x.start.getTime())).size).toBe(4);
  });
});

describe('filling empty hours', () => {
  const buckets = hourBuckets(new Date('2027-06-15T10:17:00Z'), 'UTC', 4);
  it('lag: nulls for hours without first attempts; rows outside the window dropped', () => {
    const points = fillLag(buckets, [
      { bucket: 1, p50Seconds: 2, p95Seconds: 9.5, count: 3 },
      { bucket: 7, p50Seconds: 1, p95Seconds: 1, count: 1 },
    ]);
    expect(points.map((p) => [p.label, p.p50Seconds, p.p95Seconds, p.count])).toEqual([
      ['07:00', null, null, 0],
      ['08:00', 2, 9.5, 3],
      ['09:00', null, null, 0],
      ['10:00', null, null, 0],
    ]);
  });
  it('outcomes: zero for every class in every hour, summed per hour', () => {
    const points = fillOutcomes(buckets, [
      { bucket: 0, outcome: 'accepted', count: 4 },
      { bucket: 0, outcome: 'transient', count: 1 },
      { bucket: 3, outcome: 'rejected', count: 2 },
      { bucket: -1, outcome: 'accepted', count: 9 },
    ]);
    expect(points[0]!.counts).toEqual({ accepted: 4, transient: 1, rate_limited: 0, ambiguous: 0, rejected: 0 });
    expect(points[0]!.total).toBe(5);
    expect(points[1]!.total).toBe(0);
    expect(points[3]!.counts.rejected).toBe(2);
    expect(points.reduce((n, p) => n + p.total, 0)).toBe(7);
  });
});

describe('text alternatives', () => {
  const buckets = hourBuckets(new Date('2027-06-15T10:17:00Z'), 'UTC', 3);
  it('formats lags in the unit a person reads', () => {
    expect(formatLagSeconds(0.42)).toBe('0.4 s');
    expect(formatLagSeconds(12.4)).toBe('12 s');
    expect(formatLagSeconds(200)).toBe('3 min 20 s');
    expect(formatLagSeconds(120)).toBe('2 min');
    expect(formatLagSeconds(7500)).toBe('2 h 5 min');
    expect(formatLagSeconds(-1.23)).toBe('−1.2 s');
  });
  it('summarizes the lag chart, or says nothing when it is empty', () => {
    expect(summarizeLag(fillLag(buckets, []), 'CEST')).toBeNull();
    const text = summarizeLag(fillLag(buckets, [
      { bucket: 0, p50Seconds: 1, p95Seconds: 30, count: 2 },
      { bucket: 1, p50Seconds: 0.5, p95Seconds: 2, count: 1 },
    ]), 'UTC');
    expect(text).toBe('3 first attempts in 2 hours. Worst hourly p95: 30 s (hour from 08:00 UTC). Latest hour with sends (09:00): p50 0.5 s, p95 2.0 s.');
  });
  it('summarizes outcomes in vocabulary order, or says nothing when there are none', () => {
    expect(summarizeOutcomes(fillOutcomes(buckets, []))).toBeNull();
    expect(summarizeOutcomes(fillOutcomes(buckets, [
      { bucket: 2, outcome: 'rate_limited', count: 1 },
      { bucket: 0, outcome: 'accepted', count: 10 },
      { bucket: 1, outcome: 'accepted', count: 1 },
    ]))).toBe('12 attempts: 11 accepted, 1 rate limited.');
  });
});

describe('late-planned reminders (issue #12: honest lag)', () => {
  const due = new Date('2027-06-15T10:00:00Z');
  it('a rule reminder planned after its due instant is late-planned; one planned before or at it is not', () => {
    // A booking made at 10:05 for a "1 hour before 11:00" reminder: it goes out at once, but was never ours to send at 10:00.
    expect(isLatePlanned({ kind: 'rule', createdAt: new Date('2027-06-15T10:05:00Z'), dueAt: due })).toBe(true);
    expect(isLatePlanned({ kind: 'rule', createdAt: new Date('2027-06-15T09:00:00Z'), dueAt: due })).toBe(false);
    expect(isLatePlanned({ kind: 'rule', createdAt: due, dueAt: due })).toBe(false);
  });
  it('nudges and notifications are never late-planned: their due instant is the request or the change itself', () => {
    expect(isLatePlanned({ kind: 'nudge', createdAt: new Date('2027-06-15T10:00:00.004Z'), dueAt: due })).toBe(false);
    expect(isLatePlanned({ kind: 'notification', createdAt: new Date('2027-06-15T10:00:02Z'), dueAt: due })).toBe(false);
  });
  it('says how many were left out of the lag and how soon after planning they went out', () => {
    expect(summarizeLatePlanned({ count: 0, p50Seconds: null, p95Seconds: null })).toBeNull();
    expect(summarizeLatePlanned({ count: 5, p50Seconds: 0.31, p95Seconds: 0.9 })).toBe(
      '5 reminders were planned after their due instant (booked late) and are not counted as lag; they went out 0.3 s (median) after they were planned.',
    );
    expect(summarizeLatePlanned({ count: 1, p50Seconds: 1.2, p95Seconds: 1.2 })).toBe(
      '1 reminder was planned after its due instant (booked late) and is not counted as lag; it went out 1.2 s after it was planned.',
    );
  });
});

describe('lag axis ticks', () => {
  it('picks a round step with at most six ticks', () => {
    expect(lagTicks(292)).toEqual([0, 60, 120, 180, 240, 300]);
    expect(lagTicks(0.42)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(lagTicks(12)).toEqual([0, 5, 10, 15]);
    expect(lagTicks(60)).toEqual([0, 15, 30, 45, 60]);
    expect(lagTicks(5 * 3600 + 1)).toEqual([0, 7200, 14400, 21600]);
    expect(lagTicks(0)).toEqual([0, 1]);
    expect(lagTicks(Number.NaN)).toEqual([0, 1]);
  });
  it('labels ticks in one unit', () => {
    expect([0, 0.5, 30, 120, 90, 5400].map(formatLagTick)).toEqual(['0', '0.5 s', '30 s', '2 min', '1.5 min', '1.5 h']);
  });
});

describe('outcomes per channel', () => {
  it('every channel gets its line, zeros where SQL returned nothing', () => {
    const lines = fillChannelOutcomes([
      { channel: 'sms', outcome: 'accepted', count: 2 },
      { channel: 'email', outcome: 'accepted', count: 9 },
      { channel: 'email', outcome: 'transient', count: 1 },
    ]);
    expect(lines.map((l) => l.channel)).toEqual(['email', 'sms', 'webhook']);
    expect(lines[0]).toEqual({ channel: 'email', counts: { accepted: 9, transient: 1, rate_limited: 0, ambiguous: 0, rejected: 0 }, total: 10 });
    expect(lines[1]!.total).toBe(2);
    expect(lines[2]).toEqual({ channel: 'webhook', counts: { accepted: 0, transient: 0, rate_limited: 0, ambiguous: 0, rejected: 0 }, total: 0 });
  });

  it('rows of an unknown channel or outcome are dropped', () => {
    const lines = fillChannelOutcomes([
      { channel: 'fax' as never, outcome: 'accepted', count: 5 },
      { channel: 'email', outcome: 'lost' as never, count: 5 },
    ]);
    expect(lines.every((l) => l.total === 0)).toBe(true);
  });

  it('the summary names every channel, the ones without attempts too', () => {
    const lines = fillChannelOutcomes([
      { channel: 'email', outcome: 'accepted', count: 9 },
      { channel: 'email', outcome: 'transient', count: 1 },
      { channel: 'sms', outcome: 'accepted', count: 1 },
      { channel: 'sms', outcome: 'rate_limited', count: 1 },
    ]);
    expect(summarizeChannelOutcomes(lines)).toBe(
      'By channel: email 10 attempts (9 accepted, 1 transient); SMS 2 attempts (1 accepted, 1 rate limited); webhook no attempts.',
    );
  });

  it('no attempt on any channel → no summary (the page shows its empty state)', () => {
    expect(summarizeChannelOutcomes(fillChannelOutcomes([]))).toBeNull();
  });

  it('one attempt is singular', () => {
    expect(summarizeChannelOutcomes(fillChannelOutcomes([{ channel: 'webhook', outcome: 'rejected', count: 1 }]))).toBe(
      'By channel: email no attempts; SMS no attempts; webhook 1 attempt (1 rejected).',
    );
  });
});
