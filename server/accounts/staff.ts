/**
 * Staff accounts (issue #4): created by the seed, `npm run tenant`, or by a person accepting an admin's invitation
 * (server/accounts/staff-invitations.ts) — there is no self sign-up. Passwords are
 * hashed with better-auth's own `hashPassword` (scrypt) and stored the way its email+password sign-in
 * reads them (an `account` row with providerId `credential`).
 */
import { hashPassword } from 'better-auth/crypto';
import { z } from 'zod';
import type { Db, DbOrTx } from '@/db/client';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { lockTenantStaff, setActor } from '@/db/queries/platform/actor';
import { deleteResetTokensOf } from '@/db/queries/organisations/tenant-setup';
import { deleteStaffSessions, forgetDisabledSessions, insertStaffUser, setStaffDisabled, setStaffRole, staffEmailTaken } from '@/db/queries/accounts/staff';
import { can, refusalMessage } from '@/domain/accounts/permissions';
import { staffRoles, type StaffRole } from '@/domain/vocabulary';
import { refuseBidiControls } from '@/domain/text';
import { AppError, parseInput } from '@/server/platform/errors';
import { assertVersion, parseVersion } from '@/server/platform/versions';

const staffInput = z.object({
  email: z.email().transform((e) => e.toLowerCase()),
  name: z.string().trim().min(1).max(120).check(refuseBidiControls),
  role: z.enum(staffRoles),
  password: z.string().min(8, 'at least 8 characters').max(128),
});
type StaffInput = z.input<typeof staffInput>;

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

// Adding staff from the Staff page is an invitation (server/accounts/staff-invitations.ts): it answers the same whether or
// not the address has an account with another organisation. Accounts are created directly only by the operator
// (the demo seed, `npm run tenant`) and by the invited person accepting.

/**
 * An admin changes the role of a staff account of their own tenant (audited). An admin cannot demote
 * themselves, so a tenant never loses its last way in by accident. `input.version` is the account's row
 * version the staff page showed (invariant 11).
 *
 * Every check that guards the write is made under the lock that writes: the tenant's staff rows are locked
 * FOR UPDATE in id order first, so two admins who demote each other at the same moment run one after the
 * other — the second finds that its sender is no longer an admin (403), and "at least one admin remains"
 * is counted on rows nobody can change meanwhile.
 * @throws AppError not_found (not this tenant's account), validation (role, version), invalid_state (own
 *   account), forbidden (the actor is no longer an admin), conflict (stale version; the last admin).
 */
export async function setStaffRoleAction(db: Db, ctx: { tenantId: string; actor: string; actorId: string; now: Date }, userId: string, input: { role?: unknown; version?: unknown }): Promise<void> {
  const seen = parseVersion(input);
  const { role } = parseInput(z.object({ role: z.enum(staffRoles) }), input);
  if (userId === ctx.actorId) throw new AppError('invalid_state', 'role: you cannot change your own role — ask another admin', 'role');
  await db.transaction(async (tx) => {
    await setActor(tx, ctx.actor);
    const staff = await lockTenantStaff(tx, ctx.tenantId);
    lockedActorMay(staff, ctx.actorId);
    const u = staff.find((s) => s.id === userId);
    if (!u) throw new AppError('not_found', `staff account ${userId.slice(0, 80)} not found`, 'userId');
    await assertVersion(tx, ctx, u, seen, { what: `${u.name}'s account`, current: staffCurrent(u) });
    if (u.role === role) return;
    // A disabled admin is no way in (issue #13): only active admins count.
    const adminsAfter = staff.filter((s) => !s.disabledAt && (s.id === userId ? role : s.role) === 'admin').length;
    if (adminsAfter === 0) throw new AppError('conflict', `role: ${u.name} is the last admin of this organisation — make someone else admin first`, 'role');
    await setStaffRole(tx, userId, role, ctx.now);
    await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'staff_role', at: ctx.now, details: { email: u.email, from: { role: u.role }, to: { role } } });
  });
}

type LockedStaff = Awaited<ReturnType<typeof lockTenantStaff>>;

/**
 * The actor among the tenant's locked staff rows must be an active admin (the check {@link setStaffRoleAction} and
 * {@link setStaffDisabledAction} make under their lock). @throws AppError('forbidden').
 */
function lockedActorMay(staff: LockedStaff, actorId: string): void {
  const me = staff.find((s) => s.id === actorId);
  if (!me) throw new AppError('forbidden', 'Your account no longer exists in this organisation.');
  if (me.disabledAt) throw new AppError('forbidden', 'This account has been disabled (while this request was on its way).');
  if (!can(me.role, 'configure')) throw new AppError('forbidden', `${refusalMessage(me.role, 'configure')} (your role was changed while this request was on its way)`);
}

/** A staff row as a stale save's 409 hands it back (no secrets). */
function staffCurrent(u: LockedStaff[number]) {
  return { id: u.id, version: u.version, name: u.name, email: u.email, role: u.role, disabled: !!u.disabledAt };
}

/**
 * An admin disables (`disabled: true`) or re-enables (`false`) a staff account of their own tenant (issue #13;
 * audited `staff_disable` / `staff_enable` with `{ email, sessionsEnded }`). Disabling ends every session of the
 * account in the same transaction — each of its browsers is signed out on its next request — and it cannot sign
 * in until re-enabled (server/accounts/auth-plugin.ts refuses its new sessions). `input.version` is the account's row
 * version the staff page showed (invariant 11). Under the same lock as {@link setStaffRoleAction}: the tenant's
 * staff rows FOR UPDATE in id order, so "the actor is still an active admin" and "an active admin remains" are
 * decided on rows nobody can change meanwhile. Disabling an account that is already disabled (or enabling an
 * active one) changes nothing and writes no audit entry.
 * @returns how many sessions were ended (0 for a re-enable).
 * @throws AppError not_found (not this tenant's account), validation (disabled, version), invalid_state (own
 *   account), forbidden (the actor is no longer an active admin), conflict (stale version; the last active admin).
 */
export async function setStaffDisabledAction(
  db: Db,
  ctx: { tenantId: string; actor: string; actorId: string; now: Date },
  userId: string,
  input: { disabled?: unknown; version?: unknown },
): Promise<{ sessionsEnded: number }> {
  const { disabled } = parseInput(z.object({ disabled: z.boolean({ error: 'must be true (disable) or false (re-enable)' }) }), input);
  const seen = parseVersion(input);
  if (userId === ctx.actorId) throw new AppError('invalid_state', 'disabled: you cannot disable your own account — ask another admin', 'disabled');
  return db.transaction(async (tx) => {
    await setActor(tx, ctx.actor);
    const staff = await lockTenantStaff(tx, ctx.tenantId);
    lockedActorMay(staff, ctx.actorId);
    const u = staff.find((s) => s.id === userId);
    if (!u) throw new AppError('not_found', `staff account ${userId.slice(0, 80)} not found`, 'userId');
    await assertVersion(tx, ctx, u, seen, { what: `${u.name}'s account`, current: staffCurrent(u) });
    if (!!u.disabledAt === disabled) return { sessionsEnded: 0 };
    if (disabled && u.role === 'admin' && !staff.some((s) => s.id !== userId && s.role === 'admin' && !s.disabledAt)) {
      throw new AppError('conflict', `disabled: ${u.name} is the last active admin of this organisation — make someone else admin first`, 'disabled');
    }
    await setStaffDisabled(tx, userId, disabled ? { at: ctx.now, by: ctx.actor } : null, ctx.now);
    const sessionsEnded = disabled ? await deleteStaffSessions(tx, userId) : 0;
    // Its unused password links go too: a link mailed or printed before would otherwise still set its password.
    if (disabled) await deleteResetTokensOf(tx, userId);
    if (!disabled) await forgetDisabledSessions(tx, userId);
    await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: disabled ? 'staff_disable' : 'staff_enable', at: ctx.now, details: { email: u.email, sessionsEnded } });
    return { sessionsEnded };
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
