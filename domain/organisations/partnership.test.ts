import { describe, expect, it } from 'vitest';
import { decidePartnershipStep, describePartnershipState, partnerLabel, proposalSentNotice, proposerSeesSlugOnly } from './partnership';

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

describe('what a proposer sees of the other organisation (no oracle across tenants)', () => {
  it('its own pending or declined proposal by the typed slug; the other side’s proposal and any accepted partnership by name', () => {
    const mine = { status: 'pending' as const, proposedBy: 'host' as const, proposedSlug: 'partner' };
    expect(proposerSeesSlugOnly(mine, 'host')).toBe(true);
    expect(partnerLabel(mine, 'host', 'Partner Collective')).toBe('“partner”');
    expect(partnerLabel({ ...mine, status: 'declined' }, 'host', 'Partner Collective')).toBe('“partner”');
    // The other side sees who asked; once accepted (or ended after that) the proposer sees the name too.
    expect(partnerLabel(mine, 'guest', 'Demo')).toBe('Demo');
    expect(partnerLabel({ ...mine, status: 'active' }, 'host', 'Partner Collective')).toBe('Partner Collective');
    expect(partnerLabel({ ...mine, status: 'ended' }, 'host', 'Partner Collective')).toBe('Partner Collective');
    // Rows from before the typed slug was remembered name the partner, as they always did.
    expect(partnerLabel({ ...mine, proposedSlug: null }, 'host', 'Partner Collective')).toBe('Partner Collective');
  });
  it('the notice names the slug and the rule, not whether an organisation has it', () => {
    expect(proposalSentNotice('partner')).toBe('Proposal sent to “partner”; it shows as pending until they accept.');
  });
});
