import { describe, expect, it } from 'vitest';
import {
  classifyTwilioError,
  decideReportTransition,
  foldReports,
  MAX_SMS_PARTS,
  parseRfc3339Instant,
  reportSeverity,
  reportTimeProblem,
  stateOfKind,
  type ReportFact,
} from './report-state';
import { countSmsSegments } from '@/domain/sending/sms-segments';
import { deliveryTransitions } from '@/domain/states';
import { deliveryStatuses, reportKinds } from '@/domain/vocabulary';

const at = (iso: string) => new Date(iso);
const r = (kind: ReportFact['kind'], iso: string, more: Partial<ReportFact> = {}): ReportFact => ({ kind, occurredAt: at(iso), ...more });

/** Every ordering of `xs` (small lists only). */
function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

describe('severity and kinds', () => {
  it('accepted < delivered < soft_bounced < bounced = failed < complained', () => {
    expect(reportSeverity.accepted).toBeLessThan(reportSeverity.delivered);
    expect(reportSeverity.delivered).toBeLessThan(reportSeverity.soft_bounced);
    expect(reportSeverity.soft_bounced).toBeLessThan(reportSeverity.bounced);
    expect(reportSeverity.bounced).toBe(reportSeverity.failed);
    expect(reportSeverity.bounced).toBeLessThan(reportSeverity.complained);
  });
  it('every report kind is mapped; queued, sent and deferred change no state', () => {
    expect(Object.keys(stateOfKind).sort()).toEqual([...reportKinds].sort());
    for (const k of ['queued', 'sent', 'deferred'] as const) expect(stateOfKind[k]).toBeNull();
  });
  it('every report state is a delivery status the transition table can reach from accepted or a milder report state', () => {
    for (const s of ['delivered', 'soft_bounced', 'bounced', 'failed', 'complained'] as const) {
      expect(deliveryStatuses).toContain(s);
      expect(deliveryTransitions.accepted).toContain(s);
    }
  });
});

describe('foldReports', () => {
  it('no reports, or only queued/sent/deferred → accepted, no reason', () => {
    expect(foldReports([])).toEqual({ state: 'accepted', reason: null, decidedAt: null });
    expect(foldReports([r('sent', '2027-03-01T12:00:01Z'), r('deferred', '2027-03-01T12:01:00Z'), r('queued', '2027-03-01T12:00:00Z')]).state).toBe('accepted');
  });

  it.each([
    [['delivered'], 'delivered'],
    [['soft_bounce'], 'soft_bounced'],
    [['hard_bounce'], 'bounced'],
    [['complaint'], 'complained'],
    [['undelivered'], 'failed'],
    [['failed'], 'failed'],
    [['delivered', 'soft_bounce'], 'soft_bounced'],
    [['delivered', 'hard_bounce'], 'bounced'],
    [['soft_bounce', 'hard_bounce'], 'bounced'],
    [['hard_bounce', 'complaint'], 'complained'],
    [['delivered', 'complaint', 'sent', 'deferred'], 'complained'],
    [['delivered', 'undelivered'], 'failed'],
  ] as const)('%j → %s, in every arrival order', (kinds, expected) => {
    const facts = kinds.map((k, i) => r(k, `2027-03-01T12:0${i}:00Z`));
    const results = permutations(facts).map((p) => foldReports(p));
    for (const x of results) expect(x).toEqual(results[0]);
    expect(results[0].state).toBe(expected);
  });

  it('the issue scenario: complained (12:05) and delivered (12:00:03), in either order, twice → complained, decided at 12:05', () => {
    const complained = r('complaint', '2027-03-01T12:05:00Z', { detail: 'abuse report from the recipient mailbox' });
    const delivered = r('delivered', '2027-03-01T12:00:03Z');
    for (const list of [[complained, delivered], [delivered, complained], [complained, delivered, complained]]) {
      const f = foldReports(list);
      expect(f.state).toBe('complained');
      expect(f.decidedAt?.toISOString()).toBe('2027-03-01T12:05:00.000Z');
      expect(f.reason).toBe('complaint at 2027-03-01T12:05:00.000Z: abuse report from the recipient mailbox');
    }
  });

  it('two reports of the same severity: the earliest event decides, whatever arrived first', () => {
    const a = r('hard_bounce', '2027-08-02T10:00:00Z', { detail: '550 5.1.1 no such user' });
    const b = r('hard_bounce', '2027-08-02T11:00:00Z', { detail: '550 mailbox disabled' });
    expect(foldReports([b, a])).toEqual(foldReports([a, b]));
    expect(foldReports([b, a]).reason).toContain('550 5.1.1 no such user');
  });

  it('an error code and detail both appear in the reason (the code once)', () => {
    expect(foldReports([r('undelivered', '2027-06-01T12:00:00Z', { errorCode: '30005', detail: 'Unknown destination handset' })]).reason).toBe(
      'undelivered at 2027-06-01T12:00:00.000Z: error 30005: Unknown destination handset',
    );
    expect(foldReports([r('hard_bounce', '2027-06-01T12:00:00Z', { errorCode: '5.1.1', detail: '550 5.1.1 unknown user' })]).reason).toBe(
      'hard bounce at 2027-06-01T12:00:00.000Z: 550 5.1.1 unknown user',
    );
  });

  describe('multi-part SMS', () => {
    const part = (kind: ReportFact['kind'], i: number, n: number, iso = '2027-06-01T12:00:00Z', more: Partial<ReportFact> = {}) => r(kind, iso, { partIndex: i, partCount: n, ...more });

    it('every part delivered → delivered', () => {
      const f = foldReports([part('delivered', 0, 2, '2027-06-01T12:00:05Z'), part('delivered', 1, 2, '2027-06-01T12:00:09Z')]);
      expect(f).toEqual({ state: 'delivered', reason: 'all 2 parts delivered by 2027-06-01T12:00:09.000Z', decidedAt: at('2027-06-01T12:00:09Z') });
    });

    it('one of two parts delivered, the other not reported yet → still accepted', () => {
      expect(foldReports([part('delivered', 0, 2), part('sent', 1, 2)]).state).toBe('accepted');
    });

    it('part 0 delivered, part 1 undelivered → failed, reason partial, in either order', () => {
      const facts = [part('delivered', 0, 2, '2027-06-01T12:00:05Z'), part('undelivered', 1, 2, '2027-06-01T12:00:07Z', { errorCode: '30003' })];
      for (const p of permutations(facts)) {
        const f = foldReports(p);
        expect(f.state).toBe('failed');
        expect(f.reason).toMatch(/^partial: /);
        expect(f.reason).toBe('partial: part 2 of 2 undelivered (error 30003); 1 of 2 delivered');
      }
    });

    it('every part undelivered → failed with the error, not partial', () => {
      const f = foldReports([part('undelivered', 0, 2, '2027-06-01T12:00:05Z', { errorCode: '30005' }), part('failed', 1, 2, '2027-06-01T12:00:06Z', { errorCode: '30005' })]);
      expect(f.state).toBe('failed');
      expect(f.reason).not.toMatch(/partial/);
      expect(f.reason).toContain('error 30005');
    });

    it('a part failed and the others not reported → failed (it can no longer be delivered whole)', () => {
      expect(foldReports([part('undelivered', 2, 3, '2027-06-01T12:00:05Z', { errorCode: '30003' })]).state).toBe('failed');
    });

    it('a part reported twice (sent, then delivered) counts once, by its most severe report', () => {
      expect(foldReports([part('sent', 0, 2), part('delivered', 0, 2), part('delivered', 1, 2)]).state).toBe('delivered');
    });

    it('a whole-message complaint-level state beats the parts; a whole-message delivered does not hide a failed part', () => {
      expect(foldReports([r('delivered', '2027-06-01T12:00:00Z'), part('delivered', 0, 2), part('undelivered', 1, 2)]).reason).toMatch(/^partial/);
    });

    describe('part reports that disagree on the number of parts', () => {
      it('part 0 says 9999 parts, part 1 says 2, both delivered → delivered as 2 parts (not accepted forever), in either order', () => {
        const facts = [part('delivered', 0, 9999, '2027-06-01T12:00:05Z'), part('delivered', 1, 2, '2027-06-01T12:00:09Z')];
        for (const p of permutations(facts)) {
          expect(foldReports(p)).toEqual({ state: 'delivered', reason: 'all 2 parts delivered by 2027-06-01T12:00:09.000Z', decidedAt: at('2027-06-01T12:00:09Z') });
        }
      });

      it('part 0 says 10, part 1 says 2 (both possible counts): the smallest count above every reported index → 2', () => {
        expect(foldReports([part('delivered', 0, 10), part('delivered', 1, 2)]).state).toBe('delivered');
      });

      it('a count contradicted by a reported index is not used: part 0 says 2, part 2 says 3 → 3 parts, part 1 still awaited', () => {
        expect(foldReports([part('delivered', 0, 2), part('delivered', 2, 3)]).state).toBe('accepted');
        const all = [part('delivered', 0, 2), part('delivered', 2, 3), part('delivered', 1, 3, '2027-06-01T12:00:30Z')];
        for (const p of permutations(all)) expect(foldReports(p).reason).toBe('all 3 parts delivered by 2027-06-01T12:00:30.000Z');
      });

      it('a later part beyond the smaller count still counts: 0 (says 3) and 1 (says 2) delivered, then 2 (says 3) undelivered → failed, partial of 3', () => {
        const facts = [part('delivered', 0, 3), part('delivered', 1, 2), part('undelivered', 2, 3, '2027-06-01T12:01:00Z', { errorCode: '30003' })];
        for (const p of permutations(facts)) {
          expect(foldReports(p)).toMatchObject({ state: 'failed', reason: 'partial: part 3 of 3 undelivered (error 30003); 2 of 3 delivered' });
        }
      });

      it(`a lone count above ${MAX_SMS_PARTS} is impossible and not used: the reported indices decide`, () => {
        expect(foldReports([part('delivered', 0, 9999)]).state).toBe('delivered');
        expect(foldReports([part('delivered', 0, 9999), part('delivered', 1, 9999)]).reason).toBe('all 2 parts delivered by 2027-06-01T12:00:00.000Z');
      });
    });
  });
});

describe('MAX_SMS_PARTS (the most parts one SMS can be sent as)', () => {
  it('is the parts of the longest body Twilio takes (1600 UTF-16 units, error 21617) at its worst: 800 emoji → 25 UCS-2 parts', () => {
    expect(countSmsSegments('😀'.repeat(800)).segments).toBe(MAX_SMS_PARTS);
    expect(countSmsSegments('é'.repeat(1600)).segments).toBeLessThanOrEqual(MAX_SMS_PARTS);
    expect(countSmsSegments('Ж'.repeat(1600)).segments).toBeLessThanOrEqual(MAX_SMS_PARTS);
    expect(countSmsSegments('x😀'.repeat(533)).segments).toBeLessThanOrEqual(MAX_SMS_PARTS);
    expect(countSmsSegments('{'.repeat(800)).segments).toBeLessThanOrEqual(MAX_SMS_PARTS);
  });
});

describe('report event times', () => {
  const now = at('2027-03-01T12:06:00Z');
  it.each([
    ['2027-03-01T12:05:00Z', '2027-03-01T12:05:00.000Z'],
    ['2027-03-01T12:05:00.123Z', '2027-03-01T12:05:00.123Z'],
    ['2027-03-01T12:05:00.123456Z', '2027-03-01T12:05:00.123Z'],
    ['2027-03-01t12:05:00z', '2027-03-01T12:05:00.000Z'],
    ['2027-03-01T13:05:00+01:00', '2027-03-01T12:05:00.000Z'],
    ['2027-03-01T07:35:00-04:30', '2027-03-01T12:05:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['2027-03-01T00:30:00+14:00', '2027-02-28T10:30:00.000Z'],
  ])('%s is the RFC 3339 instant %s', (v, iso) => {
    expect(parseRfc3339Instant(v)?.toISOString()).toBe(iso);
  });

  it.each([
    '-010000-01-01T00:00:00Z', // an expanded year (ECMAScript), not RFC 3339
    '+275760-09-13T00:00:00Z',
    '2027-02-30T12:00:00Z', // no such day (Date.parse makes it 03-02)
    '2027-02-29T12:00:00Z',
    '2027-13-01T12:00:00Z',
    '2027-03-01T24:00:00Z',
    '2027-03-01T12:60:00Z',
    '2027-03-01T12:05:60Z', // a leap second: JavaScript time cannot hold it
    '2027-03-01T12:05:00+24:00',
    '2027-03-01T12:05:00+01:60',
    '2027-03-01T12:05:00', // no offset: a local time, not an instant
    '2027-03-01T12:05Z', // seconds are required
    '2027-03-01 12:05:00Z',
    '2027-03-01T12:05:00.Z',
    '2027-03-01T12:05:00+0100',
    ' 2027-03-01T12:05:00Z',
    '2027-03-01T12:05:00Z\n',
    '1741176300',
    'yesterday',
    '',
  ])('%j is not an RFC 3339 date-time', (v) => {
    expect(parseRfc3339Instant(v)).toBeNull();
  });

  it('a report time is from 2000-01-01 to one day after now', () => {
    expect(reportTimeProblem(at('2000-01-01T00:00:00Z'), now)).toBeNull();
    expect(reportTimeProblem(at('2027-03-02T12:06:00Z'), now)).toBeNull();
    expect(reportTimeProblem(at('1999-12-31T23:59:59.999Z'), now)).toBe('is before 2000-01-01T00:00:00Z');
    expect(reportTimeProblem(at('2027-03-02T12:06:00.001Z'), now)).toBe('is more than a day after now (2027-03-01T12:06:00.000Z)');
    expect(reportTimeProblem(at('9999-12-31T23:59:59Z'), now)).toMatch(/more than a day after now/);
    expect(reportTimeProblem(new Date(Number.NaN), now)).toBe('is not a time');
  });
});

describe('decideReportTransition', () => {
  const fold = (state: 'accepted' | 'delivered' | 'soft_bounced' | 'bounced' | 'failed' | 'complained') => ({ state, reason: state === 'accepted' ? null : `${state} reported`, decidedAt: state === 'accepted' ? null : at('2027-03-01T12:05:00Z') });

  it.each([
    ['accepted', 'delivered', 'move'],
    ['accepted', 'complained', 'move'],
    ['delivered', 'complained', 'move'],
    ['soft_bounced', 'bounced', 'move'],
    ['bounced', 'complained', 'move'],
    ['complained', 'complained', 'refresh'],
    ['delivered', 'delivered', 'refresh'],
    ['accepted', 'accepted', 'none'],
    ['complained', 'delivered', 'none'],
    ['bounced', 'soft_bounced', 'none'],
    ['bounced', 'failed', 'none'],
    ['suppressed', 'complained', 'none'],
    ['sending', 'delivered', 'none'],
    ['dead', 'delivered', 'none'],
    ['retrying', 'bounced', 'none'],
  ] as const)('%s + fold %s → %s', (current, state, action) => {
    expect(decideReportTransition(current, fold(state), true).action).toBe(action);
  });

  it('unknown → the fold state, at least accepted (a report proves it went out)', () => {
    expect(decideReportTransition('unknown', fold('delivered'), false)).toMatchObject({ action: 'move', to: 'delivered' });
    expect(decideReportTransition('unknown', fold('accepted'), false)).toMatchObject({ action: 'move', to: 'accepted', reason: expect.stringContaining('delivery report') });
  });

  it('a delivery that failed at send time keeps its own reason; one failed by reports refreshes it', () => {
    expect(decideReportTransition('failed', fold('failed'), false).action).toBe('none');
    expect(decideReportTransition('failed', fold('failed'), true).action).toBe('refresh');
  });

  it('every move it proposes is allowed by the transition table', () => {
    for (const current of deliveryStatuses) {
      for (const s of ['accepted', 'delivered', 'soft_bounced', 'bounced', 'failed', 'complained'] as const) {
        const d = decideReportTransition(current, fold(s), true);
        if (d.action === 'move') expect(deliveryTransitions[current]).toContain(d.to);
      }
    }
  });
});

describe('classifyTwilioError', () => {
  it.each([
    ['21610', 'unsubscribed'],
    ['21211', 'invalid_number'],
    ['21614', 'invalid_number'],
    ['30005', 'invalid_number'],
    ['30006', 'invalid_number'],
    [30005, 'invalid_number'],
    ['30003', null],
    ['30007', null],
    ['30008', null],
    ['', null],
    [null, null],
    [undefined, null],
  ] as const)('%s → %s', (code, suppress) => {
    expect(classifyTwilioError(code).suppress).toBe(suppress);
  });
  it('knows the words for the common codes', () => {
    expect(classifyTwilioError('21610').description).toContain('unsubscribed');
    expect(classifyTwilioError('99999').description).toBeNull();
  });
});
