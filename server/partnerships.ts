/**
 * Guest partnerships as their guest organisation manages them (issue #12): a tenant that lets a host book its
 * people as external guests decides whom of them the host may write to in its name (domain/guest-sender.ts
 * `GuestLimit`); everyone else the host books as its guest is written to in the host's own name. The limit is
 * a versioned record (invariant 11: an edit carries the version its admin saw; a stale save is a 409 that
 * writes nothing) and every change is audited in the guest organisation's log.
 *
 * The send path reads the partnership FOR SHARE right before each attempt (db/queries/guest-partnerships.ts
 * `senderFactsFor`); the edit below updates the row, so it waits for a send being prepared under the old limit,
 * and every attempt prepared after it commits uses the new one. An attempt already handed to the provider is
 * not called back.
 */
import { z } from 'zod';
import type { Db, DbOrTx } from '../db/client';
import { setActor } from '../db/queries/actor';
import { appendAudit } from '../db/queries/audit';
import { senderOf } from '../db/queries/delivery';
import { lockPartnershipOfGuest, partnershipsOfGuest, partnershipsOfHost, updatePartnershipLimit, type PartnershipOfGuest } from '../db/queries/guest-partnerships';
import { tenants, type Booking } from '../db/schema';
import { describeLimit, describeSenderAtBooking, guestLimits, MAX_GUEST_DOMAINS, parseDomainList, type GuestLimit, type SenderDecision } from '../domain/guest-sender';
import { eq } from 'drizzle-orm';
import { decidePartnershipStep, describePartnershipState, partnershipSides, partnershipSteps, type PartnershipSide, type PartnershipStatus, type PartnershipStep } from '../domain/partnership';
import { getTenant, getTenantBySlug } from '../db/queries/scheduling';
import { insertProposedPartnership, lockPartnershipPair, partnershipsInvolving, setPartnershipStatus, type PartnershipPair } from '../db/queries/guest-partnerships';
import { AppError, assertId, parseInput } from './errors';
import { assertActorMay, assertVersion, assertVersionIssued, parseVersion } from './versions';

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
  if (!parsed.ok) throw new AppError('validation', `domains: “${parsed.invalid.slice(0, 80)}” is not a domain name such as partner.example`, 'domains');
  if (parsed.domains.length > MAX_GUEST_DOMAINS) throw new AppError('validation', `domains: at most ${MAX_GUEST_DOMAINS} domains`, 'domains');
  if (v.limit === 'domains' && parsed.domains.length === 0) throw new AppError('validation', 'domains: list at least one domain, or choose another limit', 'domains');
  return db.transaction(async (tx) => {
    await setActor(tx, ctx.actor);
    await assertActorMay(tx, ctx, 'configure');
    const p = await lockPartnershipOfGuest(tx, ctx.tenantId, hostTenantId);
    if (!p || (p.status !== 'active' && p.status !== 'pending')) throw new AppError('not_found', `partnership with organisation ${hostTenantId} not found`, 'hostTenantId');
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
 * is made"): the decision on the partnership as it is now and its wording (domain/guest-sender.ts
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

/** A partnership as one side's admins see it on the settings page. */
export interface AgreementView {
  /** The side this tenant is on: `guest` (its people are booked) or `host` (it books the other's people). */
  side: PartnershipSide;
  otherTenantId: string;
  otherName: string;
  otherSlug: string;
  status: PartnershipStatus;
  proposedBy: PartnershipSide | null;
  /** The state in this side's words (domain/partnership.ts describePartnershipState). */
  description: string;
  /** What this side's admins may do now: `accept` (the other side proposed it), `decline` (pending), `end` (active). */
  steps: PartnershipStep[];
  /** Row version to send with the next step (invariant 11). */
  version: number;
  /** ISO instant (UTC) of the last status change. */
  statusChangedAt: string;
  /** The limit view (guest side, active or pending) for the limit control; null otherwise. */
  limit: PartnershipView | null;
}

function agreementOf(p: PartnershipPair, tenantId: string): AgreementView {
  const side: PartnershipSide = p.guestTenantId === tenantId ? 'guest' : 'host';
  const other = side === 'guest' ? { id: p.hostTenantId, name: p.hostName, slug: p.hostSlug } : { id: p.guestTenantId, name: p.guestName, slug: p.guestSlug };
  const steps: PartnershipStep[] = p.status === 'active' ? ['end'] : p.status === 'pending' ? (p.proposedBy === side ? ['decline'] : ['accept', 'decline']) : [];
  const live = p.status === 'active' || p.status === 'pending';
  return {
    side,
    otherTenantId: other.id,
    otherName: other.name,
    otherSlug: other.slug,
    status: p.status,
    proposedBy: p.proposedBy,
    description: describePartnershipState(p, side, other.name),
    steps,
    version: p.version,
    statusChangedAt: p.statusChangedAt.toISOString(),
    limit:
      side === 'guest' && live
        ? view({ hostTenantId: p.hostTenantId, hostName: p.hostName, hostSlug: p.hostSlug, limit: p.limit, domains: p.domains, status: p.status, proposedBy: p.proposedBy, version: p.version, updatedBy: p.updatedBy, updatedAt: p.updatedAt, createdAt: p.createdAt })
        : null,
  };
}

/** Every partnership `tenantId` is a side of, in any status (settings page), newest status change first. */
export async function readAgreements(db: DbOrTx, tenantId: string): Promise<AgreementView[]> {
  return (await partnershipsInvolving(db, tenantId)).map((p) => agreementOf(p, tenantId));
}

const stepInput = z.object({
  step: z.enum(partnershipSteps, { error: `must be one of ${partnershipSteps.join(', ')}` }),
  /** The other organisation's slug, e.g. `partner`. */
  org: z.string({ error: 'required: the other organisation’s short name (slug)' }).trim().min(1, 'required: the other organisation’s short name (slug)').max(100, 'at most 100 characters'),
  /** The side THIS organisation is on: `host` asks to book the other's people; `guest` lets the other book its people. */
  side: z.enum(partnershipSides, { error: 'must be host (we book their people) or guest (they book our people)' }),
  version: z.number().int().min(1).optional(),
});

/**
 * One agreement step by an admin of this tenant (domain/partnership.ts): `{ step, org, side, version? }` — `propose`
 * with `side: 'host'` asks `org` to let us book its people as guests, with `side: 'guest'` lets `org` book ours; the
 * partnership is `pending` until an admin of `org` accepts (`accept`); either side may `decline` a pending one or
 * `end` an active one. `version` (the row version the admin saw) is required for accept, decline and end (optional
 * for a proposal, checked when given); a stale one is a 409 with `current` that writes nothing.
 * One transaction: the actor re-checked under lock, the row locked, the step, and an audit entry in BOTH
 * organisations' logs (`partnership_propose` | `_accept` | `_decline` | `_end`, with both names, the side that acted
 * and the status before and after).
 * @returns the partnership as this tenant sees it now.
 * @throws AppError validation (field `step`, `org`, `side`, `version`), not_found (no organisation with that slug,
 *   field `org`; nothing to accept/decline/end), invalid_state (e.g. accepting one's own proposal), forbidden,
 *   conflict (stale version).
 */
export async function partnershipStepAction(db: Db, ctx: { tenantId: string; actor: string; actorId: string; now: Date }, input: unknown): Promise<AgreementView> {
  const v = parseInput(stepInput, input);
  if (v.step !== 'propose' && v.version === undefined) parseVersion(input); // throws the standard `version` message
  return db.transaction(async (tx) => {
    await setActor(tx, ctx.actor);
    await assertActorMay(tx, ctx, 'configure');
    const me = await getTenant(tx, ctx.tenantId);
    const other = await getTenantBySlug(tx, v.org.toLowerCase());
    if (!me) throw new AppError('not_found', 'this organisation no longer exists');
    if (!other) throw new AppError('not_found', `org: no organisation has the short name “${v.org.slice(0, 60)}”`, 'org');
    if (other.id === me.id) throw new AppError('validation', 'org: that is this organisation — a partnership is with another one', 'org');
    const [guestId, hostId] = v.side === 'guest' ? [me.id, other.id] : [other.id, me.id];
    let row = await lockPartnershipPair(tx, guestId, hostId);
    let recorded: PartnershipStep;
    const before = row ? row.status : null;
    if (!row && v.step === 'propose' && (await insertProposedPartnership(tx, guestId, hostId, v.side, ctx.now))) {
      recorded = 'propose';
      row = (await lockPartnershipPair(tx, guestId, hostId))!;
    } else {
      row ??= await lockPartnershipPair(tx, guestId, hostId); // a concurrent proposal inserted it: decide on it
      if (row && v.version !== undefined) {
        assertVersionIssued(row, v.version);
        await assertVersion(tx, ctx, row, v.version, { what: `The partnership with ${other.name}`, current: agreementOf(row, me.id) });
      } else if (row && v.step !== 'propose') {
        parseVersion({});
      }
      // A proposal without a version may re-open a declined or ended partnership: it only makes it pending, which
      // lets nobody do anything until the other side accepts (with the version it saw).
      const d = decidePartnershipStep(row, v.side, v.step, other.name);
      if (!d.ok) throw new AppError(d.code, d.message, d.code === 'not_found' ? 'org' : 'step');
      // A proposal that meets the other side's pending one accepts it: that makes the partnership active, so it
      // needs the version the admin saw, like an explicit accept (invariant 11).
      if (d.recorded === 'accept' && v.version === undefined) {
        throw new AppError('conflict', `step: ${other.name} has already proposed this partnership — reload and accept it`, 'step');
      }
      recorded = d.recorded;
      await setPartnershipStatus(tx, guestId, hostId, d.next, ctx.now);
      row = (await lockPartnershipPair(tx, guestId, hostId))!;
    }
    const details = { guest: row.guestName, host: row.hostName, by: me.name, side: v.side, from: before, to: row.status };
    for (const tenantId of [me.id, other.id]) {
      await appendAudit(tx, { tenantId, actor: ctx.actor, action: `partnership_${recorded}`, at: ctx.now, details: { ...details, partner: tenantId === me.id ? other.name : me.name } });
    }
    return agreementOf(row, me.id);
  });
}
