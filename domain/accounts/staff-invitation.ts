/**
 * Adding staff is an invitation (no oracle across tenants): an admin of one organisation learns nothing of whether an
 * address has an account with another. The answer, the Staff page's list and the audit entry are the same in both
 * cases; only the person, by email, is told which case is theirs — a link to choose a password and join, or that their
 * address already has a Punctual account with another organisation and cannot join with it. Pure: no I/O, no clock.
 */

/** How long an invitation (and its link) stays open: 7 days. */
const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const invitationStatuses = ['pending', 'accepted', 'cancelled', 'replaced'] as const;
type InvitationStatus = (typeof invitationStatuses)[number];

/** When an invitation made at `now` expires. */
export function invitationExpiry(now: Date): Date {
  return new Date(now.getTime() + INVITATION_TTL_MS);
}

/** Whether an invitation can still be accepted at `now` (pending and not expired). */
export function invitationOpen(i: { status: InvitationStatus; expiresAt: Date }, now: Date): boolean {
  return i.status === 'pending' && i.expiresAt.getTime() > now.getTime();
}

/** The admin's answer after inviting `email` — word for word the same whatever the address is. */
export function invitationSentNotice(email: string): string {
  return `Invitation sent to ${email}. They join once they accept it (within 7 days); until then it shows below as invited.`;
}

/** The Staff page's words for a pending invitation (the same for every address). */
export const INVITED_STATE = 'Invited — waiting for them to accept';

/** The refusal for an address that is already a member of THIS organisation (no other organisation's information in it). */
export function alreadyMemberMessage(email: string): string {
  return `email: ${email} is already a member of this organisation`;
}

/** The accept page's answer to a link that cannot be used (used, replaced, cancelled, expired or never issued — not told apart). */
export const INVITATION_UNUSABLE_MESSAGE = 'This invitation has been used, cancelled or has expired — ask an admin of the organisation to invite you again.';
