/**
 * SQL of sender identity (server/organisations/sender-identity.ts): who else holds a sender address, the per-address lock, the
 * verification links (stored by the SHA-256 of their token) and the mark of a proven address.
 */
import { and, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { senderVerifications, staffUsers, tenants, type SenderVerification, type Tenant } from '@/db/schema';

/**
 * Serialises everything that decides who holds one normalised sender address (a settings save, a verification, a
 * tenant created by the operator): a transaction-scoped advisory lock on the address. Two organisations saving or
 * verifying the same address at once take turns, so the check that guards the write sees the other's result
 * (invariant 11); the unique index on `sender_verified_email` is the last guard.
 */
export async function lockSenderAddress(db: DbOrTx, normalised: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`sender_address:${normalised}`}))`);
}

/**
 * The OTHER tenants whose sender address, or proven address, is `normalised` (trimmed, lower-case), or whose sender
 * address is at one of `domains` (the address's domain as typed and as normalised: domain/organisations/sender-identity.ts decides
 * which of them take it).
 */
export async function otherHolders(
  db: DbOrTx,
  tenantId: string,
  normalised: string,
  domains: readonly string[] = [],
): Promise<{ id: string; name: string; senderEmail: string; senderVerifiedEmail: string | null }[]> {
  const atDomain = domains.length ? sql` or split_part(lower(btrim(${tenants.senderEmail})), '@', 2) in (${sql.join(domains.map((d) => sql`${d}`), sql`, `)})` : sql``;
  return db
    .select({ id: tenants.id, name: tenants.name, senderEmail: tenants.senderEmail, senderVerifiedEmail: tenants.senderVerifiedEmail })
    .from(tenants)
    .where(and(ne(tenants.id, tenantId), sql`(lower(btrim(${tenants.senderEmail})) = ${normalised} or ${tenants.senderVerifiedEmail} = ${normalised}${atDomain})`));
}

/** The tenant's latest verification link for any address (one link a minute, however the address changes), or undefined. */
export async function latestVerificationOfTenant(db: DbOrTx, tenantId: string): Promise<SenderVerification | undefined> {
  const [row] = await db.select().from(senderVerifications).where(eq(senderVerifications.tenantId, tenantId)).orderBy(desc(senderVerifications.createdAt)).limit(1);
  return row;
}

/** Records that `tenantId` proved `normalised` (`via`: link, operator, grandfathered). */
export async function markSenderVerified(db: DbOrTx, tenantId: string, normalised: string, via: 'link' | 'operator', at: Date): Promise<void> {
  await db.update(tenants).set({ senderVerifiedEmail: normalised, senderVerifiedVia: via, senderVerifiedAt: at }).where(eq(tenants.id, tenantId));
}

/** The tenant row locked FOR UPDATE, or undefined. */
export async function lockTenantRow(db: DbOrTx, tenantId: string): Promise<Tenant | undefined> {
  const [t] = await db.select().from(tenants).where(eq(tenants.id, tenantId)).for('update');
  return t;
}

export async function insertSenderVerification(db: DbOrTx, v: { tenantId: string; address: string; tokenHash: string; requestedBy: string; at: Date; expiresAt: Date }): Promise<SenderVerification> {
  const [row] = await db
    .insert(senderVerifications)
    .values({ tenantId: v.tenantId, address: v.address, tokenHash: v.tokenHash, requestedBy: v.requestedBy, createdAt: v.at, expiresAt: v.expiresAt })
    .returning();
  return row;
}

/** A verification link by its token's hash, with its tenant; `lock` takes the link row FOR UPDATE. */
export async function verificationByHash(db: DbOrTx, tokenHash: string, lock = false): Promise<{ v: SenderVerification; tenant: Tenant } | undefined> {
  const q = db.select({ v: senderVerifications, tenant: tenants }).from(senderVerifications).innerJoin(tenants, eq(tenants.id, senderVerifications.tenantId)).where(eq(senderVerifications.tokenHash, tokenHash));
  const [row] = lock ? await q.for('update', { of: senderVerifications }) : await q;
  return row;
}

export async function verificationById(db: DbOrTx, id: string): Promise<{ v: SenderVerification; tenant: Tenant } | undefined> {
  const [row] = await db.select({ v: senderVerifications, tenant: tenants }).from(senderVerifications).innerJoin(tenants, eq(tenants.id, senderVerifications.tenantId)).where(eq(senderVerifications.id, id));
  return row;
}

/** Marks a link used (once: false when it already was). */
export async function useVerification(db: DbOrTx, id: string, by: string, at: Date): Promise<boolean> {
  const rows = await db.update(senderVerifications).set({ usedAt: at, usedBy: by }).where(and(eq(senderVerifications.id, id), isNull(senderVerifications.usedAt))).returning({ id: senderVerifications.id });
  return rows.length > 0;
}

/** The tenant's latest link for `normalised` (the settings page: "we sent a link to … at …"), or undefined. */
export async function latestVerification(db: DbOrTx, tenantId: string, normalised: string): Promise<SenderVerification | undefined> {
  const [row] = await db
    .select()
    .from(senderVerifications)
    .where(and(eq(senderVerifications.tenantId, tenantId), eq(senderVerifications.address, normalised)))
    .orderBy(desc(senderVerifications.createdAt))
    .limit(1);
  return row;
}

/** The e-mail addresses of the tenant's enabled staff accounts, in name order (test message recipients). */
export async function staffAddresses(db: DbOrTx, tenantId: string): Promise<{ email: string; name: string }[]> {
  return db
    .select({ email: staffUsers.email, name: staffUsers.name })
    .from(staffUsers)
    .where(and(eq(staffUsers.tenantId, tenantId), isNull(staffUsers.disabledAt)))
    .orderBy(staffUsers.name, staffUsers.email);
}
