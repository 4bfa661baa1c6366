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
import { describeLimit, describeSender, guestLimits, MAX_GUEST_DOMAINS, parseDomainList, type GuestLimit, type SenderDecision } from '../domain/guest-sender';
import { eq } from 'drizzle-orm';
import { AppError, assertId, parseInput } from './errors';
import { assertActorMay, assertVersion, assertVersionIssued, parseVersion } from './versions';

/** A partnership as the guest organisation's admins see and edit it. */
export interface PartnershipView {
  hostTenantId: string;
  hostName: string;
  limit: GuestLimit;
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
    if (!p) throw new AppError('not_found', `partnership with organisation ${hostTenantId} not found`, 'hostTenantId');
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
 * is made"): the decision on the partnership as it is now and its wording (domain/guest-sender.ts describeSender),
 * e.g. "in your own name: Partner Collective lets you write in its name only to its own contacts". Null for a
 * booking that is not an external guest's. The send path decides again before every send.
 */
export async function senderOfNewBooking(db: DbOrTx, booking: Pick<Booking, 'role' | 'guestTenantId' | 'tenantId'>, email: string): Promise<{ decision: SenderDecision; text: string } | null> {
  if (booking.role !== 'external' || !booking.guestTenantId) return null;
  // The booking form's words are about email (the address typed); each send decides again for its own channel and address.
  const decision = await senderOf(db, booking, { channel: 'email', address: email }, false);
  const [g] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, booking.guestTenantId));
  return { decision, text: describeSender(decision, g?.name ?? 'the guest organisation') };
}
