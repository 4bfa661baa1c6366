/** SQL of staff accounts (better-auth's `user` and `account` models, db/schema.ts). */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { staffAccounts, staffUsers, type StaffUser } from '../schema';
import type { StaffRole } from '../../domain/vocabulary';

/**
 * Inserts a staff user with an email+password credential (`passwordHash` from better-auth's hashPassword), or with
 * no credential at all when `passwordHash` is null (issue #13: a first admin chooses a password through a one-time
 * link; better-auth's reset-password creates the credential then).
 * @returns the new id, or null when the email already has an account (nothing written).
 */
export async function insertStaffUser(
  db: DbOrTx,
  u: { tenantId: string; email: string; name: string; role: StaffRole; passwordHash: string | null },
): Promise<string | null> {
  const id = randomUUID();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(staffUsers)
      .values({ id, email: u.email, name: u.name, role: u.role, tenantId: u.tenantId, emailVerified: true })
      .onConflictDoNothing()
      .returning({ id: staffUsers.id });
    if (!row) return null;
    if (u.passwordHash === null) return id;
    await tx.insert(staffAccounts).values({ id: randomUUID(), accountId: id, providerId: 'credential', userId: id, password: u.passwordHash });
    return id;
  });
}

/** Whether any tenant has an account with this (lower-case) email. */
export async function staffEmailTaken(db: DbOrTx, email: string): Promise<boolean> {
  const [row] = await db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.email, email));
  return !!row;
}

/** A tenant's staff accounts (no secrets) with their row version (a role change carries it), by name. */
export async function listStaff(db: DbOrTx, tenantId: string): Promise<Pick<StaffUser, 'id' | 'name' | 'email' | 'role' | 'version' | 'createdAt'>[]> {
  return db
    .select({ id: staffUsers.id, name: staffUsers.name, email: staffUsers.email, role: staffUsers.role, version: staffUsers.version, createdAt: staffUsers.createdAt })
    .from(staffUsers)
    .where(eq(staffUsers.tenantId, tenantId))
    .orderBy(staffUsers.name);
}

/** Sets an account's role. */
export async function setStaffRole(db: DbOrTx, userId: string, role: StaffRole, now: Date): Promise<void> {
  await db.update(staffUsers).set({ role, updatedAt: now }).where(eq(staffUsers.id, userId));
}
