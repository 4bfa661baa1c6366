import { describe, expect, it } from 'vitest';
import { describeSuppression } from './suppression';

describe('describeSuppression', () => {
  const s = { tenantId: 'guest', reason: 'complained', source: 'added by admin@guest: private note', createdAt: new Date('2027-01-01T00:00:00Z') };
  it('another tenant’s entry reveals nothing but the owner', () => {
    const text = describeSuppression(s, 'host', 'Partner Collective');
    expect(text).toBe("address suppressed by the guest's own organisation (Partner Collective)");
    expect(text).not.toContain('complained');
    expect(text).not.toContain('private');
  });
  it('the own tenant’s entry is described in full', () => {
    expect(describeSuppression(s, 'guest', 'x')).toBe('address suppressed (complained, added by admin@guest: private note) since 2027-01-01T00:00:00.000Z');
  });
});
