/**
 * SQL of guest partnerships (issue #12): what the send path needs to decide whose name a message to an external
 * guest goes out in (domain/organisations/guest-sender.ts), and the guest organisation's view and edit of its partnerships.
 */
import { and, asc, eq, inArray, isNotNull, not, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '@/db/client';
import { guestPartnerships, tenants, unmatchedPartnershipProposals, type GuestPartnership } from '@/db/schema';
import type { GuestLimit, PartnershipLimit } from '@/domain/organisations/guest-sender';
import type { PartnershipSide, PartnershipStatus } from '@/domain/organisations/partnership';
import { parsePhone } from '@/domain/phone';
import type { Channel } from '@/domain/vocabulary';

/** A partnership's limit plus whether the guest organisation knows the person's address (a contact of its own). */
interface SenderFacts {
  partnership: PartnershipLimit | null;
  knownToGuest: boolean;
}

/**
 * The partnership `guestTenantId` → `hostTenantId` and whether the guest tenant has a contact with the address a
 * message is sent to, in one statement: on `email` a contact with that email address (case-insensitive, the
 * `contacts_tenant_email_uq` index); on `sms` a contact whose mobile number is the same E.164 number (the address
 * is normalised with domain/phone.ts; contacts' numbers are stored in E.164 by every writer); on `webhook` never
 * (no person's address). `lock`: FOR SHARE on the partnership row, inside the send path's transaction — an admin
 * narrowing the limit (which updates the row) waits for a send being prepared under the old limit, and every
 * send prepared after the change sees it. A partnership that is not `active` (pending, declined, ended: issue #13)
 * counts as none.
 */
export async function senderFactsFor(
  db: DbOrTx,
  guestTenantId: string,
  hostTenantId: string,
  to: { channel: Channel; address: string | null },
  lock: boolean,
): Promise<SenderFacts> {
  const address = to.address?.trim() || null;
  let known = sql<boolean>`false`;
  if (address && to.channel === 'email') {
    known = sql<boolean>`exists (select 1 from contacts c where c.tenant_id = ${guestPartnerships.guestTenantId} and lower(c.email) = lower(${address}))`;
  } else if (address && to.channel === 'sms') {
    const p = parsePhone(address);
    const e164 = p.ok ? p.e164 : address;
    known = sql<boolean>`exists (select 1 from contacts c where c.tenant_id = ${guestPartnerships.guestTenantId} and c.phone = ${e164})`;
  }
  const q = db
    .select({ limit: guestPartnerships.guestLimit, domains: guestPartnerships.allowedDomains, known })
    .from(guestPartnerships)
    // Only an agreed (`active`) partnership lets the host write in the guest organisation's name (issue #13).
    .where(and(eq(guestPartnerships.guestTenantId, guestTenantId), eq(guestPartnerships.hostTenantId, hostTenantId), eq(guestPartnerships.status, 'active')));
  const [row] = lock ? await q.for('share') : await q;
  if (!row) return { partnership: null, knownToGuest: false };
  return { partnership: { limit: row.limit, domains: row.domains }, knownToGuest: row.known };
}

/** A partnership as its guest organisation's admins see it: the host's name and the limit with its row version. */
export interface PartnershipOfGuest {
  hostTenantId: string;
  hostName: string;
  hostSlug: string;
  limit: GuestLimit;
  domains: string[];
  status: PartnershipStatus;
  proposedBy: PartnershipSide | null;
  /** The slug its proposer typed (migration 0026). */
  proposedSlug: string | null;
  version: number;
  updatedBy: string | null;
  updatedAt: Date;
  createdAt: Date;
}

const ofGuestColumns = {
  hostTenantId: guestPartnerships.hostTenantId,
  hostName: tenants.name,
  hostSlug: tenants.slug,
  limit: guestPartnerships.guestLimit,
  domains: guestPartnerships.allowedDomains,
  status: guestPartnerships.status,
  proposedBy: guestPartnerships.proposedBy,
  proposedSlug: guestPartnerships.proposedSlug,
  version: guestPartnerships.version,
  updatedBy: guestPartnerships.updatedBy,
  updatedAt: guestPartnerships.updatedAt,
  createdAt: guestPartnerships.createdAt,
};

/**
 * The host tenants that may book `guestTenantId`'s people as guests (`active`), or are agreeing to (`pending`), by host
 * name — except its own offers not accepted yet (remembered by the typed slug, migration 0026): the guest organisation
 * does not learn a host's name before that host accepts (no oracle across tenants).
 */
export async function partnershipsOfGuest(db: DbOrTx, guestTenantId: string): Promise<PartnershipOfGuest[]> {
  return db
    .select(ofGuestColumns)
    .from(guestPartnerships)
    .innerJoin(tenants, eq(tenants.id, guestPartnerships.hostTenantId))
    .where(
      and(
        eq(guestPartnerships.guestTenantId, guestTenantId),
        inArray(guestPartnerships.status, ['active', 'pending']),
        not(and(eq(guestPartnerships.status, 'pending'), eq(guestPartnerships.proposedBy, 'guest'), isNotNull(guestPartnerships.proposedSlug))!),
      ),
    )
    .orderBy(asc(tenants.name), asc(tenants.id));
}

/** One partnership of `guestTenantId` with host `hostTenantId`, locked FOR UPDATE (the edit's row lock), or null. */
export async function lockPartnershipOfGuest(db: DbOrTx, guestTenantId: string, hostTenantId: string): Promise<PartnershipOfGuest | null> {
  const [row] = await db
    .select(ofGuestColumns)
    .from(guestPartnerships)
    .innerJoin(tenants, eq(tenants.id, guestPartnerships.hostTenantId))
    .where(and(eq(guestPartnerships.guestTenantId, guestTenantId), eq(guestPartnerships.hostTenantId, hostTenantId)))
    .for('update', { of: guestPartnerships });
  return row ?? null;
}

/** Writes a partnership's limit (the row-version trigger bumps `version` and sets `updated_by`). */
export async function updatePartnershipLimit(
  db: DbOrTx,
  guestTenantId: string,
  hostTenantId: string,
  limit: PartnershipLimit,
  now: Date,
): Promise<GuestPartnership> {
  const [row] = await db
    .update(guestPartnerships)
    .set({ guestLimit: limit.limit, allowedDomains: [...limit.domains], updatedAt: now })
    .where(and(eq(guestPartnerships.guestTenantId, guestTenantId), eq(guestPartnerships.hostTenantId, hostTenantId)))
    .returning();
  return row;
}

/** The guest organisations `hostTenantId` may book people of (`active` partnerships), with their limits (the host's read-only view), by name. */
export async function partnershipsOfHost(db: DbOrTx, hostTenantId: string): Promise<{ guestName: string; guestSlug: string; limit: GuestLimit; domains: string[] }[]> {
  return db
    .select({ guestName: tenants.name, guestSlug: tenants.slug, limit: guestPartnerships.guestLimit, domains: guestPartnerships.allowedDomains })
    .from(guestPartnerships)
    .innerJoin(tenants, eq(tenants.id, guestPartnerships.guestTenantId))
    .where(and(eq(guestPartnerships.hostTenantId, hostTenantId), eq(guestPartnerships.status, 'active')))
    .orderBy(asc(tenants.name), asc(tenants.id));
}

// ------------------------------------------------------------------------------ agreement (issue #13)

const guestOrg = alias(tenants, 'guest_org');
const hostOrg = alias(tenants, 'host_org');

/** A partnership with both organisations' names, as the agreement steps and the settings page read it. */
export interface PartnershipPair {
  guestTenantId: string;
  guestName: string;
  guestSlug: string;
  hostTenantId: string;
  hostName: string;
  hostSlug: string;
  status: PartnershipStatus;
  proposedBy: PartnershipSide | null;
  /** The slug its proposer typed (migration 0026); null for proposals from before. */
  proposedSlug: string | null;
  limit: GuestLimit;
  domains: string[];
  version: number;
  updatedBy: string | null;
  updatedAt: Date;
  statusChangedAt: Date;
  createdAt: Date;
}

const pairColumns = {
  guestTenantId: guestPartnerships.guestTenantId,
  guestName: guestOrg.name,
  guestSlug: guestOrg.slug,
  hostTenantId: guestPartnerships.hostTenantId,
  hostName: hostOrg.name,
  hostSlug: hostOrg.slug,
  status: guestPartnerships.status,
  proposedBy: guestPartnerships.proposedBy,
  proposedSlug: guestPartnerships.proposedSlug,
  limit: guestPartnerships.guestLimit,
  domains: guestPartnerships.allowedDomains,
  version: guestPartnerships.version,
  updatedBy: guestPartnerships.updatedBy,
  updatedAt: guestPartnerships.updatedAt,
  statusChangedAt: guestPartnerships.statusChangedAt,
  createdAt: guestPartnerships.createdAt,
};

/** Every partnership `tenantId` is a side of (as guest or as host), in any status, newest status change first. */
export async function partnershipsInvolving(db: DbOrTx, tenantId: string): Promise<PartnershipPair[]> {
  return db
    .select(pairColumns)
    .from(guestPartnerships)
    .innerJoin(guestOrg, eq(guestOrg.id, guestPartnerships.guestTenantId))
    .innerJoin(hostOrg, eq(hostOrg.id, guestPartnerships.hostTenantId))
    .where(or(eq(guestPartnerships.guestTenantId, tenantId), eq(guestPartnerships.hostTenantId, tenantId)))
    .orderBy(sql`${guestPartnerships.statusChangedAt} desc`, asc(guestPartnerships.guestTenantId), asc(guestPartnerships.hostTenantId));
}

/** The partnership guest → host locked FOR UPDATE (the agreement step's row lock), or null when there is none. */
export async function lockPartnershipPair(db: DbOrTx, guestTenantId: string, hostTenantId: string): Promise<PartnershipPair | null> {
  const [row] = await db
    .select(pairColumns)
    .from(guestPartnerships)
    .innerJoin(guestOrg, eq(guestOrg.id, guestPartnerships.guestTenantId))
    .innerJoin(hostOrg, eq(hostOrg.id, guestPartnerships.hostTenantId))
    .where(and(eq(guestPartnerships.guestTenantId, guestTenantId), eq(guestPartnerships.hostTenantId, hostTenantId)))
    .for('update', { of: guestPartnerships });
  return row ?? null;
}

/**
 * Inserts a new `pending` partnership proposed by `side`, remembering the slug its proposer typed; false when the pair
 * exists already (a concurrent proposal).
 */
export async function insertProposedPartnership(db: DbOrTx, guestTenantId: string, hostTenantId: string, side: PartnershipSide, typedSlug: string, now: Date): Promise<boolean> {
  const rows = await db
    .insert(guestPartnerships)
    .values({ guestTenantId, hostTenantId, status: 'pending', proposedBy: side, proposedSlug: typedSlug, statusChangedAt: now, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning({ g: guestPartnerships.guestTenantId });
  return rows.length > 0;
}

/**
 * Writes a partnership's status (the row-version trigger bumps `version` and sets `updated_by`); `proposedSlug` when
 * given (a proposal re-opening it: the slug its proposer typed now).
 */
export async function setPartnershipStatus(
  db: DbOrTx,
  guestTenantId: string,
  hostTenantId: string,
  next: { status: PartnershipStatus; proposedBy: PartnershipSide | null; proposedSlug?: string },
  now: Date,
): Promise<void> {
  await db
    .update(guestPartnerships)
    .set({ status: next.status, proposedBy: next.proposedBy, ...(next.proposedSlug !== undefined ? { proposedSlug: next.proposedSlug } : {}), statusChangedAt: now, updatedAt: now })
    .where(and(eq(guestPartnerships.guestTenantId, guestTenantId), eq(guestPartnerships.hostTenantId, hostTenantId)));
}

// ------------------------------------------------------ proposals to a slug no organisation has (migration 0026)

/** A proposal to a slug that no organisation had, as its proposer sees it. */
export interface UnmatchedProposal {
  tenantId: string;
  slug: string;
  side: PartnershipSide;
  status: PartnershipStatus;
  version: number;
  updatedBy: string | null;
  updatedAt: Date;
  statusChangedAt: Date;
  createdAt: Date;
}

/** `tenantId`'s proposal to `slug` as `side`, locked FOR UPDATE, or null. */
export async function lockUnmatchedProposal(db: DbOrTx, tenantId: string, slug: string, side: PartnershipSide): Promise<UnmatchedProposal | null> {
  const [row] = await db
    .select()
    .from(unmatchedPartnershipProposals)
    .where(and(eq(unmatchedPartnershipProposals.tenantId, tenantId), eq(unmatchedPartnershipProposals.slug, slug), eq(unmatchedPartnershipProposals.side, side)))
    .for('update');
  return row ?? null;
}

/** Stores a new pending proposal to `slug`; false when one exists already (a concurrent proposal). */
export async function insertUnmatchedProposal(db: DbOrTx, tenantId: string, slug: string, side: PartnershipSide, now: Date): Promise<boolean> {
  const rows = await db
    .insert(unmatchedPartnershipProposals)
    .values({ tenantId, slug, side, status: 'pending', statusChangedAt: now, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning({ slug: unmatchedPartnershipProposals.slug });
  return rows.length > 0;
}

/** Writes an unmatched proposal's status (the row-version trigger bumps `version`). */
export async function setUnmatchedProposalStatus(db: DbOrTx, tenantId: string, slug: string, side: PartnershipSide, status: PartnershipStatus, now: Date): Promise<void> {
  await db
    .update(unmatchedPartnershipProposals)
    .set({ status, statusChangedAt: now, updatedAt: now })
    .where(and(eq(unmatchedPartnershipProposals.tenantId, tenantId), eq(unmatchedPartnershipProposals.slug, slug), eq(unmatchedPartnershipProposals.side, side)));
}

/** Every unmatched proposal of `tenantId`, newest status change first. */
export async function unmatchedProposalsOf(db: DbOrTx, tenantId: string): Promise<UnmatchedProposal[]> {
  return db
    .select()
    .from(unmatchedPartnershipProposals)
    .where(eq(unmatchedPartnershipProposals.tenantId, tenantId))
    .orderBy(sql`${unmatchedPartnershipProposals.statusChangedAt} desc`, asc(unmatchedPartnershipProposals.slug));
}
