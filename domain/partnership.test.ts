import { describe, expect, it } from 'vitest';
import { decidePartnershipStep, describePartnershipState } from './partnership';

describe('decidePartnershipStep', () => {
  it('a proposal is pending until the other side accepts', () => {
    const p = decidePartnershipStep(null, 'host', 'propose', 'Partner');
    expect(p).toEqual({ ok: true, next: { status: 'pending', proposedBy: 'host' }, recorded: 'propose' });
    const pending = { status: 'pending' as const, proposedBy: 'host' as const };
    expect(decidePartnershipStep(pending, 'host', 'accept', 'Partner')).toEqual({ ok: false, code: 'invalid_state', message: 'You proposed this partnership: only Partner can accept it.' });
    expect(decidePartnershipStep(pending, 'guest', 'accept', 'Demo')).toEqual({ ok: true, next: { status: 'active', proposedBy: 'host' }, recorded: 'accept' });
    // The other side proposing as well is its agreement.
    expect(decidePartnershipStep(pending, 'guest', 'propose', 'Demo')).toMatchObject({ ok: true, next: { status: 'active' }, recorded: 'accept' });
    expect(decidePartnershipStep(pending, 'host', 'propose', 'Partner')).toMatchObject({ ok: false, code: 'invalid_state' });
  });
  it('either side declines a pending one and ends an active one; both may be proposed again', () => {
    const pending = { status: 'pending' as const, proposedBy: 'guest' as const };
    expect(decidePartnershipStep(pending, 'guest', 'decline', 'x')).toMatchObject({ ok: true, next: { status: 'declined' } });
    expect(decidePartnershipStep(pending, 'host', 'decline', 'x')).toMatchObject({ ok: true, next: { status: 'declined' } });
    expect(decidePartnershipStep(pending, 'host', 'end', 'x')).toMatchObject({ ok: false, code: 'invalid_state' });
    const active = { status: 'active' as const, proposedBy: null };
    expect(decidePartnershipStep(active, 'guest', 'end', 'x')).toMatchObject({ ok: true, next: { status: 'ended' }, recorded: 'end' });
    expect(decidePartnershipStep(active, 'host', 'end', 'x')).toMatchObject({ ok: true, next: { status: 'ended' } });
    expect(decidePartnershipStep(active, 'host', 'decline', 'x')).toMatchObject({ ok: false, code: 'invalid_state' });
    expect(decidePartnershipStep(active, 'host', 'propose', 'x')).toMatchObject({ ok: false, code: 'invalid_state' });
    expect(decidePartnershipStep({ status: 'ended', proposedBy: 'host' }, 'guest', 'propose', 'x')).toMatchObject({ ok: true, next: { status: 'pending', proposedBy: 'guest' } });
    expect(decidePartnershipStep({ status: 'declined', proposedBy: 'host' }, 'guest', 'accept', 'x')).toMatchObject({ ok: false, code: 'not_found' });
    expect(decidePartnershipStep(null, 'guest', 'end', 'x')).toMatchObject({ ok: false, code: 'not_found' });
  });
  it('describes the state for each side', () => {
    expect(describePartnershipState({ status: 'pending', proposedBy: 'host' }, 'guest', 'Demo')).toBe('Demo asks to book our people as guests');
    expect(describePartnershipState({ status: 'pending', proposedBy: 'host' }, 'host', 'Partner')).toBe('waiting for Partner to accept');
    expect(describePartnershipState({ status: 'pending', proposedBy: 'guest' }, 'host', 'Partner')).toBe('Partner offers to let us book its people as guests');
    expect(describePartnershipState({ status: 'active', proposedBy: null }, 'host', 'Partner')).toBe('we may book Partner’s people as guests');
  });
});
