/** SQL of staff invitations (migration 0027; server/accounts/staff-invitations.ts). Tokens are looked up by their SHA-256. */
import { createHash } from 'node:crypto';
import { and, asc, eq, gt } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { staffInvitations, staffUsers, tenants, type StaffInvitation } from '@/db/schema';
import type { StaffRole } from '@/domain/vocabulary';

/** The stored form of a link's token. */
export function invitationTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Stores a pending invitation, replacing (status `replaced`) the tenant's pending one for the same address.
 * @returns the new row.
 */
export async function insertInvitation(
  db: DbOrTx,
  i: { tenantId: string; email: string; name: string; role: StaffRole; invitedBy: string; token: string; expiresAt: Date; now: Date },
): Promise<StaffInvitation> {
  await db
    .update(staffInvitations)
    .set({ status: 'replaced', updatedAt: i.now })
    .where(and(eq(staffInvitations.tenantId, i.tenantId), eq(staffInvitations.email, i.email), eq(staffInvitations.status, 'pending')));
  const [row] = await db
    .insert(staffInvitations)
    .values({ tenantId: i.tenantId, email: i.email, name: i.name, role: i.role, invitedBy: i.invitedBy, tokenHash: invitationTokenHash(i.token), expiresAt: i.expiresAt, createdAt: i.now, updatedAt: i.now })
    .returning();
  return row;
}

/** A tenant's pending invitations that have not expired by `now`, by address. */
export async function pendingInvitations(db: DbOrTx, tenantId: string, now: Date): Promise<StaffInvitation[]> {
  return db
    .select()
    .from(staffInvitations)
    .where(and(eq(staffInvitations.tenantId, tenantId), eq(staffInvitations.status, 'pending'), gt(staffInvitations.expiresAt, now)))
    .orderBy(asc(staffInvitations.email), asc(staffInvitations.id));
}

/** One invitation of the tenant, locked FOR UPDATE, or null. */
export async function lockInvitation(db: DbOrTx, tenantId: string, id: string): Promise<StaffInvitation | null> {
  const [row] = await db.select().from(staffInvitations).where(and(eq(staffInvitations.tenantId, tenantId), eq(staffInvitations.id, id))).for('update');
  return row ?? null;
}

/** The invitation a link's token belongs to, with its tenant's name and zone, locked FOR UPDATE when `lock`; null when none. */
export async function invitationByToken(db: DbOrTx, token: string, lock: boolean) {
  const q = db
    .select({ invitation: staffInvitations, orgName: tenants.name, zone: tenants.timeZone })
    .from(staffInvitations)
    .innerJoin(tenants, eq(tenants.id, staffInvitations.tenantId))
    .where(eq(staffInvitations.tokenHash, invitationTokenHash(token)));
  const [row] = lock ? await q.for('update', { of: staffInvitations }) : await q;
  return row ?? null;
}

/** The invitation by id with its tenant (the mail job). */
export async function invitationWithTenant(db: DbOrTx, id: string) {
  const [row] = await db.select({ invitation: staffInvitations, tenant: tenants }).from(staffInvitations).innerJoin(tenants, eq(tenants.id, staffInvitations.tenantId)).where(eq(staffInvitations.id, id));
  return row ?? null;
}

/** Sets an invitation's status (the row-version trigger bumps `version`). */
export async function setInvitationStatus(db: DbOrTx, id: string, status: 'accepted' | 'cancelled', now: Date): Promise<void> {
  await db
    .update(staffInvitations)
    .set({ status, updatedAt: now, ...(status === 'accepted' ? { acceptedAt: now } : {}) })
    .where(eq(staffInvitations.id, id));
}

/** The tenant an address has an account in, or null (staff addresses are unique across tenants). */
export async function accountTenantOf(db: DbOrTx, email: string): Promise<string | null> {
  const [row] = await db.select({ tenantId: staffUsers.tenantId }).from(staffUsers).where(eq(staffUsers.email, email));
  return row?.tenantId ?? null;
}
