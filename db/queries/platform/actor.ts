/**
 * Who is writing, for the row-version trigger (migration 0006, DESIGN.md invariant 11), and who that was,
 * for the "changed by NAME" message of a stale save. Also the staff-row locks that make role checks hold
 * until the write commits.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { staffUsers } from '@/db/schema';
import type { StaffRole } from '@/domain/vocabulary';

/**
 * Names the actor of the current transaction: the row-version trigger copies it into `updated_by` of every
 * events / bookings / reminder_rules / suppressions / staff_users row the transaction changes (else
 * 'system'). Transaction-local (`set_config(…, true)`): it ends with the transaction and never leaks to the
 * next user of a pooled connection. Call it first thing inside `db.transaction`.
 */
export async function setActor(tx: DbOrTx, actor: string): Promise<void> {
  await tx.execute(sql`select set_config('punctual.actor', ${actor}, true)`);
}

/**
 * The display name for an `updated_by` value: the tenant's staff member with that email, else the value
 * itself ("import", "system").
 */
export async function actorDisplayName(db: DbOrTx, tenantId: string, updatedBy: string): Promise<string> {
  const [row] = await db
    .select({ name: staffUsers.name })
    .from(staffUsers)
    .where(and(eq(staffUsers.tenantId, tenantId), eq(staffUsers.email, updatedBy.toLowerCase())));
  return row?.name || updatedBy;
}

/**
 * The acting staff member's row, read FOR SHARE: a concurrent role change of that person (which takes
 * FOR UPDATE) waits for this transaction, and this one waits for a role change already under way — so the
 * role read here is the role when the write commits. Undefined when the account is gone or in another tenant;
 * `disabledAt` set when an admin disabled it (issue #13).
 */
export async function lockActorForShare(db: DbOrTx, tenantId: string, userId: string): Promise<{ id: string; role: StaffRole; email: string; disabledAt: Date | null } | undefined> {
  const [row] = await db
    .select({ id: staffUsers.id, role: staffUsers.role, email: staffUsers.email, disabledAt: staffUsers.disabledAt })
    .from(staffUsers)
    .where(and(eq(staffUsers.tenantId, tenantId), eq(staffUsers.id, userId)))
    .for('share');
  return row;
}

/**
 * Every staff row of the tenant, locked FOR UPDATE in id order. Role changes take this lock first, so two
 * of them in one tenant run one after the other (the same order everywhere: no deadlock), and "the actor
 * is still an admin" and "at least one admin remains" are decided on rows nobody else can change meanwhile.
 */
export async function lockTenantStaff(db: DbOrTx, tenantId: string) {
  return db.select().from(staffUsers).where(eq(staffUsers.tenantId, tenantId)).orderBy(asc(staffUsers.id)).for('update');
}
