import { describe, expect, it } from 'vitest';
import { decideAfterOutcome, type Outcome } from '@/domain/sending/outcome';
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
  const decide = (outcome: Outcome, o: { failures?: number; deferred?: number; idempotent?: boolean; exp?: Date } = {}) =>
    decideAfterOutcome({
      outcome,
      idempotentProvider: o.idempotent ?? false,
      failuresSoFar: o.failures ?? 0,
      deferredSoFar: o.deferred ?? 0,
      now,
      expiresAt: o.exp ?? expiresAt,
      policy,
      random: 0.5,
    });
  const label = (r: ReturnType<typeof decide>) => (r.status === 'dead' ? `dead:${r.repairOwner}` : r.status === 'failed' ? `failed:suppress=${r.suppress}` : r.status);

  it.each<[string, Outcome, Parameters<typeof decide>[1], string]>([
    ['accepted', { class: 'accepted', providerId: '<x@y>' }, {}, 'accepted'],
    ['SMTP ambiguous → unknown', { class: 'ambiguous', code: 'ETIMEDOUT', message: 't' }, {}, 'unknown'],
    ['idempotent ambiguous → same-key retry', { class: 'ambiguous', code: 'ETIMEDOUT', message: 't' }, { idempotent: true }, 'retrying'],
    ['idempotent ambiguous, budget spent → dead', { class: 'ambiguous', code: 'HTTP_500', message: 't' }, { idempotent: true, failures: 2 }, 'dead:provider'],
    ['invalid recipient → failed and suppressed', { class: 'rejected', kind: 'invalid_recipient', code: '550', message: 'no' }, {}, 'failed:suppress=true'],
    ['permission → dead, configuration', { class: 'rejected', kind: 'permission', code: 'HTTP_401', message: 'no' }, {}, 'dead:configuration'],
    ['validation → dead, template', { class: 'rejected', kind: 'validation', code: 'HTTP_422', message: 'no' }, {}, 'dead:template'],
    ['other rejection → dead, provider', { class: 'rejected', kind: 'other', code: 'HTTP_404', message: 'no' }, {}, 'dead:provider'],
    ['transient → retrying', { class: 'transient', code: 'ESOCKET', message: 'refused' }, {}, 'retrying'],
    ['transient never exhausts the budget (an outage inside the window)', { class: 'transient', code: 'ESOCKET', message: 'refused' }, { failures: 2, deferred: 40 }, 'retrying'],
    ['rate limited with a spent budget still retries', { class: 'rate_limited', code: '429', message: 'slow', retryAfterMs: 60_000 }, { failures: 2 }, 'retrying'],
    ['99 deferrals before → dead', { class: 'rate_limited', code: '429', message: 'slow', retryAfterMs: 1000 }, { deferred: 99 }, 'dead:provider'],
  ])('%s', (_n, outcome, o, expected) => {
    expect(label(decide(outcome, o))).toBe(expected);
  });

  it('only real failures count against the budget', () => {
    expect(decide({ class: 'rate_limited', code: '429', message: 'm', retryAfterMs: 1000 }).countsAsFailure).toBe(false);
    expect(decide({ class: 'transient', code: 'E', message: 'm' }).countsAsFailure).toBe(false);
    expect(decide({ class: 'ambiguous', code: 'HTTP_500', message: 'm' }, { idempotent: true }).countsAsFailure).toBe(true);
  });

  it('deferrals back off up to the cap and keep going until the expiry instant', () => {
    const far = new Date('2027-06-16T07:00:00Z');
    const r = decide({ class: 'transient', code: 'E', message: 'm' }, { deferred: 30, exp: far });
    expect(r.status).toBe('retrying');
    // ceiling capped at min(cap, base·2^(maxAttempts-2)) = 2 s with this policy; draw 0.5 → 1 s
    expect(r.status === 'retrying' && r.nextAttemptAt.getTime() - now.getTime()).toBe(1000);
  });

  it('backs off with jitter and uses Retry-After when given', () => {
    const r1 = decide({ class: 'transient', code: 'E', message: 'm' }, { deferred: 1 });
    expect(r1.status === 'retrying' && r1.nextAttemptAt.toISOString()).toBe('2027-06-15T07:00:01.000Z');
    const r2 = decide({ class: 'rate_limited', code: '429', message: 'm', retryAfterMs: 60_000 });
    expect(r2.status === 'retrying' && r2.nextAttemptAt.toISOString()).toBe('2027-06-15T07:01:00.000Z');
  });

  it('a retry that would not land before the expiry instant expires instead', () => {
    expect(decide({ class: 'rate_limited', code: '429', message: 'm', retryAfterMs: 3_600_000 }).status).toBe('expired');
  });
});
