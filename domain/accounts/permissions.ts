/**
 * What each staff role may do (issue #4). Pure; the server checks it on every mutation
 * (app/_http/session.ts) and the UI uses it only to hide controls — hiding is never the protection.
 *
 * - `read`: every page of the own tenant — all roles.
 * - `operate`: events, bookings, nudges, replays, discards, mark-as-sent, send-again, suppressions — admin, staff.
 * - `configure`: reminder rules, tenant settings, staff accounts — admin.
 */
import type { StaffRole } from '@/domain/vocabulary';

const permissions = ['read', 'operate', 'configure'] as const;
export type Permission = (typeof permissions)[number];

const GRANTS: Record<StaffRole, ReadonlySet<Permission>> = {
  admin: new Set(['read', 'operate', 'configure']),
  staff: new Set(['read', 'operate']),
  viewer: new Set(['read']),
};

/** True when `role` holds `permission`. Unknown roles hold nothing. */
export function can(role: string | null | undefined, permission: Permission): boolean {
  return !!role && role in GRANTS && GRANTS[role as StaffRole].has(permission);
}

/** The sentence shown when a role is refused, e.g. "Your role (viewer) is read-only." */
export function refusalMessage(role: string, permission: Permission): string {
  if (role === 'viewer') return `Your role (viewer) is read-only: ask a staff member or an admin.`;
  return `Your role (${role}) cannot do this: it needs ${permission === 'configure' ? 'an admin' : 'a staff member or an admin'}.`;
}
