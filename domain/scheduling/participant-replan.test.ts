import { describe, expect, it } from 'vitest';
import { participantReplan, type PlannedRuleReminder, type StoredRuleReminder } from './participant-replan';
import type { ReminderStatus } from '@/domain/vocabulary';

const at = (iso: string) => new Date(iso);
const due = at('2027-03-20T11:00:00Z');
const expiry = at('2027-03-20T13:00:00Z');

function stored(status: ReminderStatus, over: Partial<StoredRuleReminder> = {}): StoredRuleReminder {
  return { id: `r-${status}`, ruleId: 'rule-a', channel: 'email', status, dueAt: due, deferredFrom: null, expiresAt: expiry, ...over };
}
function planned(over: Partial<PlannedRuleReminder> = {}): PlannedRuleReminder {
  return { ruleId: 'rule-a', channel: 'email', dueAt: due, deferredFrom: null, expiresAt: expiry, status: 'scheduled', statusReason: null, ...over };
}
// New York's quiet hours 22:00–08:00 on 20 Mar 2027 (EDT since 14 Mar): 11:00Z is 07:00 there → held until 08:00 EDT = 12:00Z.
const heldInNewYork = planned({ dueAt: at('2027-03-20T12:00:00Z'), deferredFrom: due });

describe('participantReplan', () => {
  it('a waiting reminder whose planned instants moved is re-timed in place (same row, so the same message key)', () => {
    expect(participantReplan([stored('scheduled')], [heldInNewYork])).toEqual([
      {
        kind: 'retime',
        id: 'r-scheduled',
        ruleId: 'rule-a',
        channel: 'email',
        from: { dueAt: due, deferredFrom: null, expiresAt: expiry },
        to: { dueAt: at('2027-03-20T12:00:00Z'), deferredFrom: due, expiresAt: expiry },
      },
    ]);
  });

  it('and back: a hold that no longer applies is lifted', () => {
    const steps = participantReplan([stored('scheduled', { dueAt: at('2027-03-20T12:00:00Z'), deferredFrom: due })], [planned()]);
    expect(steps).toMatchObject([{ kind: 'retime', to: { dueAt: due, deferredFrom: null } }]);
  });

  it('a waiting reminder with the same instants is left alone', () => {
    expect(participantReplan([stored('scheduled')], [planned()])).toEqual([{ kind: 'keep', id: 'r-scheduled', why: 'unchanged' }]);
  });

  it.each([
    ['dispatched', 'handed_over'],
    ['done', 'handed_over'],
    ['superseded', 'ended'],
    ['cancelled', 'ended'],
    ['expired', 'ended'],
    ['failed', 'ended'],
  ] as const)('a %s reminder is never touched, even when the plan moved (%s)', (status, why) => {
    expect(participantReplan([stored(status)], [heldInNewYork])).toEqual([{ kind: 'keep', id: `r-${status}`, why }]);
  });

  it('an ended reminder keeps its business key: the plan is not inserted again', () => {
    // e.g. an SMS reminder cancelled "no mobile number on file"; adding a number later does not resend it.
    expect(participantReplan([stored('cancelled', { channel: 'sms' })], [planned({ channel: 'sms' })])).toEqual([{ kind: 'keep', id: 'r-cancelled', why: 'ended' }]);
  });

  it('a newly possible channel is inserted; a channel no longer planned is left for the send path to end', () => {
    const steps = participantReplan([stored('scheduled', { id: 'sms-1', channel: 'sms' })], [planned(), planned({ ruleId: 'rule-b', dueAt: at('2027-03-19T12:00:00Z') })]);
    expect(steps).toEqual([
      { kind: 'keep', id: 'sms-1', why: 'not_planned' },
      { kind: 'insert', planned: planned() },
      { kind: 'insert', planned: planned({ ruleId: 'rule-b', dueAt: at('2027-03-19T12:00:00Z') }) },
    ]);
  });

  it('a waiting reminder the new plan calls expired is left to the dispatcher', () => {
    expect(participantReplan([stored('scheduled')], [planned({ status: 'expired', statusReason: 'planned after its expiry instant' })])).toEqual([
      { kind: 'keep', id: 'r-scheduled', why: 'expired_by_dispatcher' },
    ]);
  });

  it('nothing stored, nothing planned: no steps', () => {
    expect(participantReplan([], [])).toEqual([]);
  });
});
