import { describe, expect, it } from 'vitest';
import { alreadyMemberMessage, invitationExpiry, invitationOpen, invitationSentNotice } from './staff-invitation';

const now = new Date('2027-03-01T10:00:00Z');

describe('staff invitations', () => {
  it('stay open seven days while pending', () => {
    const expiresAt = invitationExpiry(now);
    expect(expiresAt.toISOString()).toBe('2027-03-08T10:00:00.000Z');
    expect(invitationOpen({ status: 'pending', expiresAt }, now)).toBe(true);
    expect(invitationOpen({ status: 'pending', expiresAt }, expiresAt)).toBe(false);
    expect(invitationOpen({ status: 'cancelled', expiresAt }, now)).toBe(false);
    expect(invitationOpen({ status: 'accepted', expiresAt }, now)).toBe(false);
  });
  it('the admin’s answer names the address and the rule, nothing about accounts elsewhere', () => {
    expect(invitationSentNotice('a@b.example')).toBe('Invitation sent to a@b.example. They join once they accept it (within 7 days); until then it shows below as invited.');
    expect(alreadyMemberMessage('a@b.example')).toBe('email: a@b.example is already a member of this organisation');
  });
});
