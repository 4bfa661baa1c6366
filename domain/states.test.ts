import { describe, expect, it } from 'vitest';
import { decideAfterOutcome, type Outcome } from './outcome';
import { deliveryFromStates, deliveryTransitions, reminderFromStates, reminderTransitions } from './states';
import { deliveryStatuses, reminderStatuses } from './vocabulary';

describe('transition tables', () => {
  it('cover every status', () => {
    expect(Object.keys(reminderTransitions).sort()).toEqual([...reminderStatuses].sort());
    expect(Object.keys(deliveryTransitions).sort()).toEqual([...deliveryStatuses].sort());
  });
  it.each([
    ['sending', ['claimed', 'retrying']],
    ['accepted', ['sending', 'unknown']],
    ['unknown', ['sending']],
    ['suppressed', ['claimed', 'retrying']],
  ] as const)('delivery may enter %s only from %j', (to, from) => {
    expect(deliveryFromStates(to).sort()).toEqual([...from].sort());
  });
  it('nothing leaves a finished reminder', () => {
    for (const s of ['done', 'superseded', 'cancelled', 'expired', 'failed'] as const) expect(reminderTransitions[s]).toEqual([]);
    expect(reminderFromStates('dispatched')).toEqual(['scheduled']);
  });
  it('an accepted delivery can never be sent again', () => {
    expect(deliveryTransitions.accepted).not.toContain('sending');
    expect(deliveryTransitions.unknown).not.toContain('sending');
  });
});

describe('decideAfterOutcome', () => {
  const policy = { baseMs: 1000, capMs: 60_000, maxAttempts: 3 };
  const now = new Date('2027-06-15T07:00:00Z');
  const expiresAt = new Date('2027-06-15T08:00:00Z');
  const decide = (outcome: Outcome, attemptNo = 1, exp = expiresAt) => decideAfterOutcome({ outcome, attemptNo, now, expiresAt: exp, policy, random: 0.5 });

  it.each<[string, Outcome, number, string]>([
    ['accepted', { class: 'accepted', providerId: '<x@y>' }, 1, 'accepted'],
    ['ambiguous → unknown', { class: 'ambiguous', code: 'ETIMEDOUT', message: 't' }, 1, 'unknown'],
    ['rejected → failed', { class: 'rejected', kind: 'invalid_recipient', code: '550', message: 'no' }, 1, 'failed'],
    ['transient → retrying', { class: 'transient', code: 'ESOCKET', message: 'refused' }, 1, 'retrying'],
    ['transient, budget spent → dead', { class: 'transient', code: 'ESOCKET', message: 'refused' }, 3, 'dead'],
    ['rate limited honours Retry-After', { class: 'rate_limited', code: '429', message: 'slow', retryAfterMs: 60_000 }, 1, 'retrying'],
  ])('%s', (_n, outcome, attemptNo, status) => {
    expect(decide(outcome, attemptNo).status).toBe(status);
  });

  it('backs off with jitter and uses Retry-After when given', () => {
    const r1 = decide({ class: 'transient', code: 'E', message: 'm' }, 2);
    expect(r1.status === 'retrying' && r1.nextAttemptAt.toISOString()).toBe('2027-06-15T07:00:01.000Z');
    const r2 = decide({ class: 'rate_limited', code: '429', message: 'm', retryAfterMs: 60_000 });
    expect(r2.status === 'retrying' && r2.nextAttemptAt.toISOString()).toBe('2027-06-15T07:01:00.000Z');
  });

  it('a retry that would not land before the expiry instant expires instead', () => {
    const r = decide({ class: 'rate_limited', code: '429', message: 'm', retryAfterMs: 3_600_000 });
    expect(r.status).toBe('expired');
  });
});
