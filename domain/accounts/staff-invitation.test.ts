import { describe, expect, it } from 'vitest';
import { alreadyMemberMessage, alreadyRegisteredEmail, invitationEmail, invitationExpiry, invitationOpen, invitationSentNotice } from './staff-invitation';

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
  it('the person with no account gets the link; the person with one elsewhere is told, without a link', () => {
    const base = { personName: 'Rae', orgName: 'Acme', invitedBy: 'Ada Admin', expiresAt: invitationExpiry(now), zone: 'Europe/London' };
    const invite = invitationEmail({ ...base, role: 'staff', url: 'https://punctual.example/accept-invitation?token=abc' });
    expect(invite.text).toContain('https://punctual.example/accept-invitation?token=abc');
    expect(invite.text).toContain('as staff');
    const told = alreadyRegisteredEmail(base);
    expect(told.subject).toBe(invite.subject);
    expect(told.text).toContain('already has a Punctual account with another organisation');
    expect(told.text).toContain('invite another address');
    expect(told.text).not.toMatch(/https?:/);
  });
});
