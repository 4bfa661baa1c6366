/** SQL of staff accounts (better-auth's `user` and `account` models, db/schema/accounts.ts). */
import { createHash, randomUUID } from 'node:crypto';
import { and, eq, gt, like } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { staffAccounts, staffSessions, staffUsers, staffVerifications, type StaffUser } from '@/db/schema';
import type { StaffRole } from '@/domain/vocabulary';

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

/**
 * A tenant's staff accounts (no secrets) with their row version (a role change or disabling carries it), by name;
 * with whether each is disabled (when, by whom) and has two-factor on (issue #13).
 */
export async function listStaff(
  db: DbOrTx,
  tenantId: string,
): Promise<Pick<StaffUser, 'id' | 'name' | 'email' | 'role' | 'version' | 'createdAt' | 'disabledAt' | 'disabledBy' | 'twoFactorEnabled'>[]> {
  return db
    .select({
      id: staffUsers.id,
      name: staffUsers.name,
      email: staffUsers.email,
      role: staffUsers.role,
      version: staffUsers.version,
      createdAt: staffUsers.createdAt,
      disabledAt: staffUsers.disabledAt,
      disabledBy: staffUsers.disabledBy,
      twoFactorEnabled: staffUsers.twoFactorEnabled,
    })
    .from(staffUsers)
    .where(eq(staffUsers.tenantId, tenantId))
    .orderBy(staffUsers.name);
}

/** Sets an account's role. */
export async function setStaffRole(db: DbOrTx, userId: string, role: StaffRole, now: Date): Promise<void> {
  await db.update(staffUsers).set({ role, updatedAt: now }).where(eq(staffUsers.id, userId));
}

/** Disables an account (`disabled`: when, by which admin's email) or re-enables it (null). */
export async function setStaffDisabled(db: DbOrTx, userId: string, disabled: { at: Date; by: string } | null, now: Date): Promise<void> {
  await db
    .update(staffUsers)
    .set({ disabledAt: disabled?.at ?? null, disabledBy: disabled?.by ?? null, updatedAt: now })
    .where(eq(staffUsers.id, userId));
}

const DISABLED_SESSION = 'disabled-session:';

/** The `staff_verifications.identifier` remembering that the session with this token ended because its account was disabled (a SHA-256 of the token, never the token). */
function disabledSessionMarker(token: string): string {
  return DISABLED_SESSION + createHash('sha256').update(token).digest('base64url');
}

/**
 * Deletes every session of an account (each of its browsers is signed out on its next request), leaving for each a
 * marker until the session would have expired, so that its next request can be told why (app/_http/session.ts).
 * @returns how many sessions were ended.
 */
export async function deleteStaffSessions(db: DbOrTx, userId: string): Promise<number> {
  const rows = await db.delete(staffSessions).where(eq(staffSessions.userId, userId)).returning({ token: staffSessions.token, expiresAt: staffSessions.expiresAt });
  if (rows.length) {
    await db.insert(staffVerifications).values(rows.map((r) => ({ id: randomUUID(), identifier: disabledSessionMarker(r.token), value: userId, expiresAt: r.expiresAt })));
  }
  return rows.length;
}

/** Forgets the markers of an account's sessions ended by disabling it (it was re-enabled). */
export async function forgetDisabledSessions(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(staffVerifications).where(and(eq(staffVerifications.value, userId), like(staffVerifications.identifier, `${DISABLED_SESSION}%`)));
}

/** Whether the session with this token was ended by disabling its account (and would not have expired yet). */
export async function sessionEndedByDisabling(db: DbOrTx, token: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: staffVerifications.id })
    .from(staffVerifications)
    .where(and(eq(staffVerifications.identifier, disabledSessionMarker(token)), gt(staffVerifications.expiresAt, now)));
  return !!row;
}
