/**
 * Guest partnerships as their guest organisation manages them (issue #12): a tenant that lets a host book its
 * people as external guests decides whom of them the host may write to in its name (domain/organisations/guest-sender.ts
 * `GuestLimit`); everyone else the host books as its guest is written to in the host's own name. The limit is
 * a versioned record (invariant 11: an edit carries the version its admin saw; a stale save is a 409 that
 * writes nothing) and every change is audited in the guest organisation's log.
 *
 * The send path reads the partnership FOR SHARE right before each attempt (db/queries/organisations/guest-partnerships.ts
 * `senderFactsFor`); the edit below updates the row, so it waits for a send being prepared under the old limit,
 * and every attempt prepared after it commits uses the new one. An attempt already handed to the provider is
 * not called back.
 */
import { z } from 'zod';
import type { Db, DbOrTx, Tx } from '@/db/client';
import { actorDisplayName, setActor } from '@/db/queries/platform/actor';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { senderOf } from '@/db/queries/sending/delivery';
import { lockPartnershipOfGuest, partnershipsOfGuest, partnershipsOfHost, updatePartnershipLimit, type PartnershipOfGuest } from '@/db/queries/organisations/guest-partnerships';
import { tenants, type Booking } from '@/db/schema';
import { describeLimit, describeSenderAtBooking, guestLimits, MAX_GUEST_DOMAINS, parseDomainList, type GuestLimit, type SenderDecision } from '@/domain/organisations/guest-sender';
import { eq } from 'drizzle-orm';
import {
  decidePartnershipStep,
  describePartnershipState,
  partnerLabel,
  partnershipSides,
  partnershipSteps,
  proposerSeesSlugOnly,
  type PartnershipSide,
  type PartnershipState,
  type PartnershipStatus,
  type PartnershipStep,
} from '@/domain/organisations/partnership';
import { TENANT_SLUG_PATTERN, TENANT_SLUG_RULE } from '@/domain/organisations/tenant-setup';
import { getTenant, getTenantBySlug } from '@/db/queries/scheduling/scheduling';
import {
  insertProposedPartnership,
  insertUnmatchedProposal,
  lockPartnershipPair,
  lockUnmatchedProposal,
  partnershipsInvolving,
  setPartnershipStatus,
  setUnmatchedProposalStatus,
  unmatchedProposalsOf,
  type PartnershipPair,
  type UnmatchedProposal,
} from '@/db/queries/organisations/guest-partnerships';
import { AppError, assertId, parseInput } from '@/server/platform/errors';
import { assertActorMay, assertVersion, assertVersionIssued, parseVersion } from '@/server/platform/versions';
import { showBidiControls } from '@/domain/text';

/** A partnership as the guest organisation's admins see and edit it. */
export interface PartnershipView {
  hostTenantId: string;
  hostName: string;
  limit: GuestLimit;
  /** `active`, or `pending` (not agreed yet: it lets the host do nothing until it is, issue #13). */
  status: PartnershipStatus;
  /** Listed domains (lower-case ASCII), kept when another limit is chosen so switching back restores them. */
  domains: string[];
  /** Row version to send with the next edit (invariant 11). */
  version: number;
  /** The limit in words, e.g. "only people in our contacts". */
  description: string;
  updatedBy: string | null;
  /** ISO instants (UTC): the last change of the limit (= creation while `version` is 1), and the partnership's start. */
  updatedAt: string;
  createdAt: string;
}

function view(p: PartnershipOfGuest): PartnershipView {
  return {
    hostTenantId: p.hostTenantId,
    hostName: p.hostName,
    limit: p.limit,
    status: p.status,
    domains: p.domains,
    version: p.version,
    description: describeLimit({ limit: p.limit, domains: p.domains }),
    updatedBy: p.updatedBy,
    updatedAt: p.updatedAt.toISOString(),
    createdAt: p.createdAt.toISOString(),
  };
}

/** The partnerships of `guestTenantId` (the hosts that may book its people as guests), by host name. */
export async function readPartnerships(db: DbOrTx, guestTenantId: string): Promise<PartnershipView[]> {
  return (await partnershipsOfGuest(db, guestTenantId)).map(view);
}

/** The organisations `hostTenantId` may book people of as guests, with their limit in the host's words (its read-only view). */
export async function readGuestOrganisations(db: DbOrTx, hostTenantId: string): Promise<{ name: string; slug: string; description: string }[]> {
  return (await partnershipsOfHost(db, hostTenantId)).map((p) => ({ name: p.guestName, slug: p.guestSlug, description: describeLimit({ limit: p.limit, domains: p.domains }, 'host') }));
}

const limitInput = z.object({
  limit: z.enum(guestLimits, { error: `must be one of ${guestLimits.join(', ')}` }),
  /** Domains as typed (one string separated by commas, spaces or new lines) or as a list; omitted = none. */
  domains: z.union([z.string().max(20_000, 'at most 20,000 characters'), z.array(z.string().max(300, 'at most 300 characters each')).max(MAX_GUEST_DOMAINS * 2)]).optional(),
});

/**
 * A guest organisation's admin sets whom `hostTenantId` may write to in its name: `{ limit, domains?, version }`.
 * `domains` is required (at least one) for `domains`, kept as given otherwise; at most MAX_GUEST_DOMAINS.
 * Audited (`partnership_update`, before and after) in the guest organisation's log. An unchanged limit writes
 * nothing and is not audited.
 * @returns the partnership as stored now.
 * @throws AppError not_found (no such partnership of this tenant, field `hostTenantId`), validation (field
 *   `limit`, `domains` naming the entry that is not a domain, `version`), forbidden (the actor is no longer an
 *   admin, checked under the lock a demotion takes), conflict (stale version, with `current`; nothing written).
 */
export async function setGuestLimitAction(
  db: Db,
  ctx: { tenantId: string; actor: string; actorId: string; now: Date },
  hostTenantId: string,
  input: unknown,
): Promise<PartnershipView> {
  assertId(hostTenantId, 'hostTenantId', 'partnership with organisation');
  const seen = parseVersion(input);
  const v = parseInput(limitInput, input);
  const parsed = parseDomainList(v.domains ?? []);
  if (!parsed.ok) throw new AppError('validation', `domains: “${showBidiControls(parsed.invalid.slice(0, 80))}” is not a domain name such as partner.example`, 'domains');
  if (parsed.domains.length > MAX_GUEST_DOMAINS) throw new AppError('validation', `domains: at most ${MAX_GUEST_DOMAINS} domains`, 'domains');
  if (v.limit === 'domains' && parsed.domains.length === 0) throw new AppError('validation', 'domains: list at least one domain, or choose another limit', 'domains');
  return db.transaction(async (tx) => {
    await setActor(tx, ctx.actor);
    await assertActorMay(tx, ctx, 'configure');
    const p = await lockPartnershipOfGuest(tx, ctx.tenantId, hostTenantId);
    // Its own offer that the host has not accepted yet is known to this side only by the typed slug (no oracle across
    // tenants): it has no limit to edit until the host accepts.
    if (!p || (p.status !== 'active' && p.status !== 'pending') || proposerSeesSlugOnly(p, 'guest')) throw new AppError('not_found', `partnership with organisation ${hostTenantId} not found`, 'hostTenantId');
    assertVersionIssued(p, seen);
    await assertVersion(tx, ctx, p, seen, { what: `The partnership with ${p.hostName}`, current: view(p) });
    const same = p.limit === v.limit && p.domains.length === parsed.domains.length && p.domains.every((d, i) => d === parsed.domains[i]);
    if (same) return view(p);
    const row = await updatePartnershipLimit(tx, ctx.tenantId, hostTenantId, { limit: v.limit, domains: parsed.domains }, ctx.now);
    await appendAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: 'partnership_update',
      at: ctx.now,
      details: { partner: p.hostName, from: { limit: p.limit, domains: p.domains }, to: { limit: v.limit, domains: parsed.domains } },
    });
    return view({ ...p, limit: row.guestLimit, domains: row.allowedDomains, version: row.version, updatedBy: row.updatedBy, updatedAt: row.updatedAt });
  });
}

/**
 * Whose name messages to a just-made booking go out in, for the host's staff (issue #12, "applied when the booking
 * is made"): the decision on the partnership as it is now and its wording (domain/organisations/guest-sender.ts
 * describeSenderAtBooking), e.g. "in your own name: Partner Collective does not let you write in its name" — under a
 * contacts-only limit the rule, never whether this address is one of the guest organisation's contacts. Null for a
 * booking that is not an external guest's. The send path decides again before every send.
 */
export async function senderOfNewBooking(db: DbOrTx, booking: Pick<Booking, 'role' | 'guestTenantId' | 'tenantId'>, email: string): Promise<{ decision: SenderDecision; text: string } | null> {
  if (booking.role !== 'external' || !booking.guestTenantId) return null;
  // The booking form's words are about email (the address typed); each send decides again for its own channel and address.
  const decision = await senderOf(db, booking, { channel: 'email', address: email }, false);
  const [g] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, booking.guestTenantId));
  return { decision, text: describeSenderAtBooking(decision, g?.name ?? 'the guest organisation') };
}

// =============================================================== agreement: both sides agree (issue #13)
//
// No oracle across tenants: a proposal answers, lists and audits the same whether the typed short name (slug) belongs
// to an organisation or not. A proposal to an existing organisation remembers the typed slug (guest_partnerships
// .proposed_slug) and its proposer sees it by that slug until the other side accepts (domain/organisations/partnership.ts
// proposerSeesSlugOnly); a proposal to a slug nobody has is stored for its proposer only
// (unmatched_partnership_proposals) and is never matched to an organisation — not even one created with that slug
// later, which learns nothing of it (it can propose to the proposer itself). Steps on a slug with no partnership this
// organisation can see answer in the typed slug's words too.

/** A partnership as one side's admins see it on the settings page. */
export interface AgreementView {
  /** Unique among this tenant's agreements (a list key): the side and the other tenant's id, or the typed slug. */
  key: string;
  /** The side this tenant is on: `guest` (its people are booked) or `host` (it books the other's people). */
  side: PartnershipSide;
  /** The other tenant's id; null while this side knows it only by the slug it typed (its own proposal, not accepted). */
  otherTenantId: string | null;
  /** The other organisation's name, or the slug this side typed while its proposal is not accepted. */
  otherName: string;
  otherSlug: string;
  status: PartnershipStatus;
  proposedBy: PartnershipSide | null;
  /** The state in this side's words (domain/organisations/partnership.ts describePartnershipState). */
  description: string;
  /** What this side's admins may do now: `accept` (the other side proposed it), `decline` (pending), `end` (active). */
  steps: PartnershipStep[];
  /** Row version to send with the next step (invariant 11). */
  version: number;
  /** ISO instant (UTC) of the last status change. */
  statusChangedAt: string;
  /** The limit view (guest side, active or pending — not its own offer before it is accepted) for the limit control; null otherwise. */
  limit: PartnershipView | null;
}

function stepsOf(s: PartnershipState, side: PartnershipSide): PartnershipStep[] {
  return s.status === 'active' ? ['end'] : s.status === 'pending' ? (s.proposedBy === side ? ['decline'] : ['accept', 'decline']) : [];
}

function agreementOf(p: PartnershipPair, tenantId: string): AgreementView {
  const side: PartnershipSide = p.guestTenantId === tenantId ? 'guest' : 'host';
  const other = side === 'guest' ? { id: p.hostTenantId, name: p.hostName, slug: p.hostSlug } : { id: p.guestTenantId, name: p.guestName, slug: p.guestSlug };
  if (proposerSeesSlugOnly(p, side)) return slugOnlyAgreement({ slug: p.proposedSlug!, side, status: p.status, version: p.version, statusChangedAt: p.statusChangedAt });
  const live = p.status === 'active' || p.status === 'pending';
  return {
    key: `${side}:${other.id}`,
    side,
    otherTenantId: other.id,
    otherName: other.name,
    otherSlug: other.slug,
    status: p.status,
    proposedBy: p.proposedBy,
    description: describePartnershipState(p, side, other.name),
    steps: stepsOf(p, side),
    version: p.version,
    statusChangedAt: p.statusChangedAt.toISOString(),
    limit:
      side === 'guest' && live
        ? view({ hostTenantId: p.hostTenantId, hostName: p.hostName, hostSlug: p.hostSlug, limit: p.limit, domains: p.domains, status: p.status, proposedBy: p.proposedBy, proposedSlug: p.proposedSlug, version: p.version, updatedBy: p.updatedBy, updatedAt: p.updatedAt, createdAt: p.createdAt })
        : null,
  };
}

/**
 * This side's own proposal known only by the slug it typed — built from nothing but what the proposer chose (slug,
 * side) and the row's status, version and time, so a proposal to an organisation and one to nobody read alike.
 */
function slugOnlyAgreement(p: { slug: string; side: PartnershipSide; status: PartnershipStatus; version: number; statusChangedAt: Date }): AgreementView {
  const state: PartnershipState = { status: p.status, proposedBy: p.side };
  return {
    key: `${p.side}:slug:${p.slug}`,
    side: p.side,
    otherTenantId: null,
    otherName: p.slug,
    otherSlug: p.slug,
    status: p.status,
    proposedBy: p.side,
    description: describePartnershipState(state, p.side, `“${p.slug}”`),
    steps: stepsOf(state, p.side),
    version: p.version,
    statusChangedAt: p.statusChangedAt.toISOString(),
    limit: null,
  };
}

function unmatchedAgreement(u: UnmatchedProposal): AgreementView {
  return slugOnlyAgreement({ slug: u.slug, side: u.side, status: u.status, version: u.version, statusChangedAt: u.statusChangedAt });
}

/**
 * Every partnership `tenantId` is a side of, in any status, and its proposals to slugs nobody had (settings page),
 * newest status change first.
 */
export async function readAgreements(db: DbOrTx, tenantId: string): Promise<AgreementView[]> {
  const pairs = (await partnershipsInvolving(db, tenantId)).map((p) => ({ at: p.statusChangedAt.getTime(), a: agreementOf(p, tenantId) }));
  const unmatched = (await unmatchedProposalsOf(db, tenantId)).map((u) => ({ at: u.statusChangedAt.getTime(), a: unmatchedAgreement(u) }));
  return [...pairs, ...unmatched].sort((x, y) => y.at - x.at || (x.a.key < y.a.key ? -1 : x.a.key > y.a.key ? 1 : 0)).map((x) => x.a);
}

const stepInput = z.object({
  step: z.enum(partnershipSteps, { error: `must be one of ${partnershipSteps.join(', ')}` }),
  /** The other organisation's slug, e.g. `partner`. */
  org: z
    .string({ error: 'required: the other organisation’s short name (slug)' })
    .trim()
    .min(1, 'required: the other organisation’s short name (slug)')
    .max(100, 'at most 100 characters')
    .transform((s) => s.toLowerCase())
    .refine((s) => TENANT_SLUG_PATTERN.test(s), `not a short name: use ${TENANT_SLUG_RULE}, starting with a letter or digit, at most 63 characters`),
  /** The side THIS organisation is on: `host` asks to book the other's people; `guest` lets the other book its people. */
  side: z.enum(partnershipSides, { error: 'must be host (we book their people) or guest (they book our people)' }),
  version: z.number().int().min(1).optional(),
});

/**
 * One agreement step by an admin of this tenant (domain/organisations/partnership.ts): `{ step, org, side, version? }` — `propose`
 * with `side: 'host'` asks `org` to let us book its people as guests, with `side: 'guest'` lets `org` book ours; the
 * partnership is `pending` until an admin of `org` accepts (`accept`); either side may `decline` a pending one or
 * `end` an active one. `version` (the row version the admin saw) is required for accept, decline and end (optional
 * for a proposal, checked when given); a stale one is a 409 with `current` that writes nothing.
 *
 * No oracle across tenants (section comment above): a proposal to a slug that no organisation has is stored and
 * answered exactly like one to an organisation that has not answered yet — the same status, the same body (the
 * partnership by the typed slug), the same audit entry in this organisation's log (`partner` and `org` the typed
 * slug). The other organisation's name reaches this side only when it accepts (or proposes itself).
 *
 * One transaction: the actor re-checked under lock, the row locked, the step, and an audit entry in this
 * organisation's log and — for a partnership with an organisation — in the other's (`partnership_propose` | `_accept`
 * | `_decline` | `_end`, with both names, the side that acted and the status before and after).
 * @returns the partnership as this tenant sees it now.
 * @throws AppError validation (field `step`, `org` — not a slug, or this organisation's own — `side`, `version`),
 *   not_found (nothing to accept/decline/end, field `org`), invalid_state (e.g. accepting one's own proposal),
 *   forbidden, conflict (stale version).
 */
export async function partnershipStepAction(db: Db, ctx: { tenantId: string; actor: string; actorId: string; now: Date }, input: unknown): Promise<AgreementView> {
  const v = parseInput(stepInput, input);
  if (v.step !== 'propose' && v.version === undefined) parseVersion(input); // throws the standard `version` message
  const slug = v.org;
  return db.transaction(async (tx) => {
    await setActor(tx, ctx.actor);
    await assertActorMay(tx, ctx, 'configure');
    const me = await getTenant(tx, ctx.tenantId);
    if (!me) throw new AppError('not_found', 'this organisation no longer exists');
    if (slug === me.slug) throw new AppError('validation', 'org: that is this organisation — a partnership is with another one', 'org');
    const other = await getTenantBySlug(tx, slug);
    const pair = other ? (v.side === 'guest' ? { guestId: me.id, hostId: other.id } : { guestId: other.id, hostId: me.id }) : null;
    const existing = pair ? await lockPartnershipPair(tx, pair.guestId, pair.hostId) : null;
    // A partnership with that organisation decides; else this side's earlier proposal to the slug (stored unmatched,
    // and it stays so even if an organisation took the slug since); else a new proposal — to the organisation if
    // there is one, else unmatched. The answers differ only where this side already knows the other (it proposed to
    // us, or accepted once).
    if (!existing) {
      const unmatched = await lockUnmatchedProposal(tx, me.id, slug, v.side);
      if (unmatched || !other) return unmatchedStep(tx, ctx, me, slug, v, unmatched);
    }
    return pairStep(tx, ctx, me, other!, pair!, slug, v, existing);
  });
}

type StepInput = z.output<typeof stepInput>;
type Ctx = { tenantId: string; actor: string; actorId: string; now: Date };
type TenantRow = NonNullable<Awaited<ReturnType<typeof getTenant>>>;

/** This side's audit details for a step on a partnership it knows only by the typed slug: the same keys and words either way. */
function slugOnlyDetails(by: string, slug: string, side: PartnershipSide, from: PartnershipStatus | null, to: PartnershipStatus) {
  return { partner: slug, org: slug, by, side, from, to };
}

/**
 * A stale version on a partnership this side knows only by its slug: the 409 names who changed it only when it was
 * one of this organisation's staff — an admin of the other organisation (declining) is "the other organisation".
 */
async function assertSlugOnlyVersion(tx: Tx, ctx: Ctx, row: { version: number; updatedBy: string | null; updatedAt: Date }, seen: number, slug: string, current: AgreementView): Promise<void> {
  if (row.version === seen) return;
  const ours = row.updatedBy ? (await actorDisplayName(tx, ctx.tenantId, row.updatedBy)) !== row.updatedBy : false;
  await assertVersion(tx, ctx, { ...row, updatedBy: ours ? row.updatedBy : 'the other organisation' }, seen, { what: `The partnership with “${slug}”`, current });
}

/** A step on this side's proposal to a slug no organisation had (`row` null: none yet). */
async function unmatchedStep(tx: Tx, ctx: Ctx, me: TenantRow, slug: string, v: StepInput, row: UnmatchedProposal | null): Promise<AgreementView> {
  const label = `“${slug}”`;
  if (row && v.version !== undefined) {
    assertVersionIssued(row, v.version);
    await assertSlugOnlyVersion(tx, ctx, row, v.version, slug, unmatchedAgreement(row));
  }
  const before = row ? row.status : null;
  const d = decidePartnershipStep(row ? { status: row.status, proposedBy: v.side } : null, v.side, v.step, label);
  if (!d.ok) throw new AppError(d.code, d.message, d.code === 'not_found' ? 'org' : 'step');
  if (row) await setUnmatchedProposalStatus(tx, me.id, slug, v.side, d.next.status, ctx.now);
  else if (!(await insertUnmatchedProposal(tx, me.id, slug, v.side, ctx.now))) throw new AppError('conflict', `step: the partnership with ${label} was just proposed by someone else — reload the page`, 'step');
  const now = (await lockUnmatchedProposal(tx, me.id, slug, v.side))!;
  await appendAudit(tx, { tenantId: me.id, actor: ctx.actor, action: `partnership_${d.recorded}`, at: ctx.now, details: slugOnlyDetails(me.name, slug, v.side, before, now.status) });
  return unmatchedAgreement(now);
}

/** A step on the partnership between this tenant and `other` (`existing` null: none yet). */
async function pairStep(
  tx: Tx,
  ctx: Ctx,
  me: TenantRow,
  other: TenantRow,
  pair: { guestId: string; hostId: string },
  slug: string,
  v: StepInput,
  existing: PartnershipPair | null,
): Promise<AgreementView> {
  const { guestId, hostId } = pair;
  let row = existing;
  let recorded: PartnershipStep;
  const before = row ? row.status : null;
  // What this side may call the other: the typed slug until the other side accepts (no oracle across tenants).
  const labelOf = (r: PartnershipPair | null) => (r ? partnerLabel(r, v.side, other.name) : `“${slug}”`);
  if (!row && v.step === 'propose' && (await insertProposedPartnership(tx, guestId, hostId, v.side, slug, ctx.now))) {
    recorded = 'propose';
    row = (await lockPartnershipPair(tx, guestId, hostId))!;
  } else {
    row ??= await lockPartnershipPair(tx, guestId, hostId); // a concurrent proposal inserted it: decide on it
    if (row && v.version !== undefined) {
      assertVersionIssued(row, v.version);
      if (proposerSeesSlugOnly(row, v.side)) await assertSlugOnlyVersion(tx, ctx, row, v.version, row.proposedSlug!, agreementOf(row, me.id));
      else await assertVersion(tx, ctx, row, v.version, { what: `The partnership with ${other.name}`, current: agreementOf(row, me.id) });
    } else if (row && v.step !== 'propose') {
      parseVersion({});
    }
    // A proposal without a version may re-open a declined or ended partnership: it only makes it pending, which
    // lets nobody do anything until the other side accepts (with the version it saw).
    const d = decidePartnershipStep(row, v.side, v.step, labelOf(row));
    if (!d.ok) throw new AppError(d.code, d.message, d.code === 'not_found' ? 'org' : 'step');
    // A proposal that meets the other side's pending one accepts it: that makes the partnership active, so it
    // needs the version the admin saw, like an explicit accept (invariant 11).
    if (d.recorded === 'accept' && v.version === undefined) {
      throw new AppError('conflict', `step: ${labelOf(row)} has already proposed this partnership — reload and accept it`, 'step');
    }
    recorded = d.recorded;
    await setPartnershipStatus(tx, guestId, hostId, { ...d.next, ...(recorded === 'propose' ? { proposedSlug: slug } : {}) }, ctx.now);
    row = (await lockPartnershipPair(tx, guestId, hostId))!;
  }
  const details = { guest: row.guestName, host: row.hostName, by: me.name, side: v.side, from: before, to: row.status };
  for (const tenantId of [me.id, other.id]) {
    // Each side's entry names the other as that side may see it: the proposer's, by the typed slug until accepted.
    // When the other side acted (declined it), the proposer's entry names neither its organisation nor its admin.
    const side: PartnershipSide = tenantId === row.guestTenantId ? 'guest' : 'host';
    if (proposerSeesSlugOnly(row, side)) {
      const slugOf = row.proposedSlug!;
      const ours = tenantId === me.id;
      await appendAudit(tx, { tenantId, actor: ours ? ctx.actor : slugOf, action: `partnership_${recorded}`, at: ctx.now, details: slugOnlyDetails(ours ? me.name : slugOf, slugOf, v.side, before, row.status) });
    } else {
      await appendAudit(tx, { tenantId, actor: ctx.actor, action: `partnership_${recorded}`, at: ctx.now, details: { ...details, partner: tenantId === me.id ? other.name : me.name } });
    }
  }
  return agreementOf(row, me.id);
}
