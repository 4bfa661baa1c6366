/**
 * Staff accounts (issue #4): created by the seed or an admin — there is no self sign-up. Passwords are
 * hashed with better-auth's own `hashPassword` (scrypt) and stored the way its email+password sign-in
 * reads them (an `account` row with providerId `credential`).
 */
import { hashPassword } from 'better-auth/crypto';
import { z } from 'zod';
import type { Db, DbOrTx } from '../db/client';
import { appendAudit } from '../db/queries/audit';
import { insertStaffUser, lockStaffUser, setStaffRole, staffEmailTaken } from '../db/queries/staff';
import { staffRoles, type StaffRole } from '../domain/vocabulary';
import { AppError, parseInput } from './errors';

export const staffInput = z.object({
  email: z.email().transform((e) => e.toLowerCase()),
  name: z.string().trim().min(1).max(120),
  role: z.enum(staffRoles),
  password: z.string().min(8, 'at least 8 characters').max(128),
});
export type StaffInput = z.input<typeof staffInput>;

/**
 * Creates the account unless one with that email exists (then nothing changes). The password is hashed
 * before any row is written.
 * @returns the new account's id, or null when the email was taken. @throws AppError('validation') naming the field.
 */
export async function ensureStaffUser(db: DbOrTx, tenantId: string, input: StaffInput): Promise<string | null> {
  const v = parseInput(staffInput, input);
  if (await staffEmailTaken(db, v.email)) return null;
  const passwordHash = await hashPassword(v.password);
  return insertStaffUser(db, { tenantId, email: v.email, name: v.name, role: v.role, passwordHash });
}

/**
 * An admin adds a staff account to their own tenant (audited). `db` may be an open transaction (an
 * idempotent request's, server/idempotency.ts).
 * @throws AppError validation (field named), conflict (email already has an account, in any tenant).
 */
export async function addStaffAction(db: DbOrTx, ctx: { tenantId: string; actor: string; now: Date }, input: StaffInput): Promise<{ id: string }> {
  const v = parseInput(staffInput, input);
  const conflict = () => new AppError('conflict', `email: ${v.email} already has an account`, 'email');
  if (await staffEmailTaken(db, v.email)) throw conflict();
  const passwordHash = await hashPassword(v.password);
  // The account and its audit entry in one transaction, like every other staff action.
  return db.transaction(async (tx) => {
    const id = await insertStaffUser(tx, { tenantId: ctx.tenantId, email: v.email, name: v.name, role: v.role, passwordHash });
    if (!id) throw conflict();
    await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'staff_add', at: ctx.now, details: { email: v.email, role: v.role } });
    return { id };
  });
}

/**
 * An admin changes the role of a staff account of their own tenant (audited). An admin cannot demote
 * themselves, so a tenant never loses its last way in by accident.
 * @throws AppError not_found (not this tenant's account), validation (role), invalid_state (own account).
 */
export async function setStaffRoleAction(db: Db, ctx: { tenantId: string; actor: string; actorId: string; now: Date }, userId: string, input: { role?: unknown }): Promise<void> {
  const { role } = parseInput(z.object({ role: z.enum(staffRoles) }), input);
  if (userId === ctx.actorId) throw new AppError('invalid_state', 'role: you cannot change your own role — ask another admin', 'role');
  await db.transaction(async (tx) => {
    const u = await lockStaffUser(tx, ctx.tenantId, userId);
    if (!u) throw new AppError('not_found', `staff account ${userId.slice(0, 80)} not found`, 'userId');
    if (u.role === role) return;
    await setStaffRole(tx, userId, role, ctx.now);
    await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'staff_role', at: ctx.now, details: { email: u.email, from: { role: u.role }, to: { role } } });
  });
}

/** Password of every demo account (the demo is local; real accounts are made by an admin). */
export const DEMO_PASSWORD = 'punctual-demo';

/** The demo accounts `npm start` creates and prints: three roles in `demo`, an admin in `partner`. */
export const demoAccounts: { tenantSlug: string; email: string; name: string; role: StaffRole }[] = [
  { tenantSlug: 'demo', email: 'admin@demo.punctual.local', name: 'Ada Admin', role: 'admin' },
  { tenantSlug: 'demo', email: 'staff@demo.punctual.local', name: 'Sam Staff', role: 'staff' },
  { tenantSlug: 'demo', email: 'viewer@demo.punctual.local', name: 'Vic Viewer', role: 'viewer' },
  { tenantSlug: 'partner', email: 'admin@partner.punctual.local', name: 'Pat Partner', role: 'admin' },
];
