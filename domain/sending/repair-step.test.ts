import { describe, expect, it } from 'vitest';
import { repairStep } from './repair-step';

describe('repairStep', () => {
  it.each([
    ['configuration', 'email', 'e1', '/settings'],
    ['configuration', 'webhook', 'e1', '/notifications'],
    ['configuration', 'sms', null, '/notifications'],
    ['template', 'email', 'e1', '/templates'],
    ['recipient', 'sms', 'e1', '/events/e1'],
  ] as const)('%s on %s → fix at %s first', (owner, channel, eventId, href) => {
    expect(repairStep(owner, channel, eventId)?.href).toBe(href);
  });
  it('a dead letter the provider gave up on, or one without an owner, is replayed first', () => {
    expect(repairStep('provider', 'email', 'e1')).toBeNull();
    expect(repairStep(null, 'email', 'e1')).toBeNull();
    expect(repairStep('recipient', 'email', null)).toBeNull();
  });
});
