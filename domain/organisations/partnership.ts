/**
 * Guest partnerships that both sides agree to (issue #13). A partnership "guest organisation G lets host H book
 * its people as guests" is proposed by an admin of either side — H asks ("let us book your people"), or G offers
 * ("you may book our people") — and is `pending` until an admin of the OTHER side accepts it (`active`). Either
 * side may decline a pending one (the proposer withdrawing it, or the other side refusing) → `declined`, or end an
 * active one → `ended`. A declined or ended partnership may be proposed again. Only `active` counts anywhere a
 * partnership is read for booking or sending. Pure: no I/O, no clock.
 */

export const partnershipStatuses = ['pending', 'active', 'declined', 'ended'] as const;
export type PartnershipStatus = (typeof partnershipStatuses)[number];
/** The side an admin acts for: `guest` (their people are booked) or `host` (books the other's people). */
export const partnershipSides = ['guest', 'host'] as const;
export type PartnershipSide = (typeof partnershipSides)[number];
export const partnershipSteps = ['propose', 'accept', 'decline', 'end'] as const;
export type PartnershipStep = (typeof partnershipSteps)[number];

export interface PartnershipState {
  status: PartnershipStatus;
  /** Who proposed it; null for partnerships from before issue #13 (made on both sides' behalf). */
  proposedBy: PartnershipSide | null;
}

type StepDecision =
  | { ok: true; next: PartnershipState; /** The audit action: a proposal met by the other side's is an acceptance. */ recorded: PartnershipStep }
  | { ok: false; code: 'not_found' | 'invalid_state'; message: string };

/**
 * What `step`, taken by an admin of `side`, does to the partnership `current` (null = none yet). `other` is the
 * other organisation's name, for the refusal sentences. Proposing while the other side's proposal is pending
 * accepts it (both agree).
 */
export function decidePartnershipStep(current: PartnershipState | null, side: PartnershipSide, step: PartnershipStep, other: string): StepDecision {
  const live = current && (current.status === 'pending' || current.status === 'active') ? current : null;
  const refuse = (message: string): StepDecision => ({ ok: false, code: 'invalid_state', message });
  switch (step) {
    case 'propose':
      if (!live) return { ok: true, next: { status: 'pending', proposedBy: side }, recorded: 'propose' };
      if (live.status === 'active') return refuse(`The partnership with ${other} is already active.`);
      if (live.proposedBy === side) return refuse(`You already proposed this partnership: it waits for ${other} to accept it.`);
      return { ok: true, next: { status: 'active', proposedBy: live.proposedBy }, recorded: 'accept' };
    case 'accept':
      if (!live) return { ok: false, code: 'not_found', message: `${other} has proposed no partnership to accept.` };
      if (live.status === 'active') return refuse(`The partnership with ${other} is already active.`);
      if (live.proposedBy === side) return refuse(`You proposed this partnership: only ${other} can accept it.`);
      return { ok: true, next: { status: 'active', proposedBy: live.proposedBy }, recorded: 'accept' };
    case 'decline':
      if (!live) return { ok: false, code: 'not_found', message: `There is no pending partnership with ${other} to decline.` };
      if (live.status === 'active') return refuse(`The partnership with ${other} is active: end it instead.`);
      return { ok: true, next: { status: 'declined', proposedBy: live.proposedBy }, recorded: 'decline' };
    case 'end':
      if (!live || live.status !== 'active') return { ok: false, code: live ? 'invalid_state' : 'not_found', message: live ? `The partnership with ${other} is not active yet: decline it instead.` : `There is no active partnership with ${other} to end.` };
      return { ok: true, next: { status: 'ended', proposedBy: live.proposedBy }, recorded: 'end' };
  }
}

/** The partnership's state in the words of `side`'s admins, e.g. "waiting for Partner Collective to accept". */
export function describePartnershipState(s: PartnershipState, side: PartnershipSide, other: string): string {
  if (s.status === 'active') return side === 'guest' ? `${other} may book our people as guests` : `we may book ${other}’s people as guests`;
  if (s.status === 'pending') return s.proposedBy === side ? `waiting for ${other} to accept` : side === 'guest' ? `${other} asks to book our people as guests` : `${other} offers to let us book its people as guests`;
  return s.status === 'declined' ? 'declined' : 'ended';
}

/**
 * Whether `side`'s admins see the other organisation only by the short name (slug) they typed — no oracle across
 * tenants: a proposal this side made answers, lists and audits exactly like one to a slug no organisation has, until
 * the other side accepts it. So while a proposal of this side is pending (or declined, which a proposal to nobody
 * can be too: withdrawn) and it remembers the typed slug, the other side's name stays hidden. A partnership the
 * other side proposed, or one that was ever accepted (active, ended), names the other organisation.
 */
export function proposerSeesSlugOnly(s: PartnershipState & { proposedSlug: string | null }, side: PartnershipSide): boolean {
  return s.proposedSlug !== null && s.proposedBy === side && (s.status === 'pending' || s.status === 'declined');
}

/** The other organisation as `side`'s admins may see it: its name, or “slug” while {@link proposerSeesSlugOnly}. */
export function partnerLabel(s: PartnershipState & { proposedSlug: string | null }, side: PartnershipSide, otherName: string): string {
  return proposerSeesSlugOnly(s, side) ? `“${s.proposedSlug}”` : otherName;
}

/** What the proposer's admin is told after a proposal — word for word the same whether or not an organisation has the slug. */
export function proposalSentNotice(slug: string): string {
  return `Proposal sent to “${slug}”; it shows as pending until they accept.`;
}
