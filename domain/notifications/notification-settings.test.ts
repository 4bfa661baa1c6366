import { describe, expect, it } from 'vitest';
import { defaultPolicy, emptyPolicy } from './notification-policy';
import { policyChanges, webhookSwitch } from './notification-settings';

describe('policyChanges', () => {
  it('nothing for the same policy', () => {
    expect(policyChanges(defaultPolicy, structuredClone(defaultPolicy))).toEqual({});
  });
  it('each changed cell as <type>.<role> or <type>.template, from → to', () => {
    const after = structuredClone(emptyPolicy);
    after.event_cancelled.host = true;
    after.booking_confirmed.template = 'other';
    expect(policyChanges(emptyPolicy, after)).toEqual({
      'booking_confirmed.template': { from: 'booking-confirmed', to: 'other' },
      'event_cancelled.host': { from: false, to: true },
    });
  });
});

describe('webhookSwitch', () => {
  const at = new Date('2027-06-01T09:30:00Z');
  const off410 = { url: 'https://h.example/p', enabled: false, disabledReason: 'the receiver answered 410', disabledAt: at };
  it('switching on clears the reason', () => {
    expect(webhookSwitch(off410, { enabled: true, url: off410.url })).toEqual({ disabledReason: null, disabledAt: null });
  });
  it('left off keeps the 410 reason and instant', () => {
    expect(webhookSwitch(off410, { enabled: false, url: off410.url })).toEqual({ disabledReason: 'the receiver answered 410', disabledAt: at });
  });
  it('switched off by a person: no warning (the audit log has it)', () => {
    expect(webhookSwitch({ ...off410, enabled: true, disabledReason: null, disabledAt: null }, { enabled: false, url: off410.url })).toEqual({ disabledReason: null, disabledAt: null });
  });
  it('the endpoint removed: the warning goes with it', () => {
    expect(webhookSwitch(off410, { enabled: false, url: null })).toEqual({ disabledReason: null, disabledAt: null });
  });
  it('never saved and off: nothing to say', () => {
    expect(webhookSwitch(null, { enabled: false, url: null })).toEqual({ disabledReason: null, disabledAt: null });
  });
});
