/**
 * SQL of setting up an organisation from the command line (issue #13, server/organisations/tenant-setup.ts): tenants by slug,
 * the one-time links (better-auth `verification` rows `reset-password:<token>` whose value is the user id) and
 * the overview `npm run tenant -- list` prints.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, like, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { staffUsers, staffVerifications, tenants, type StaffUser, type Tenant } from '@/db/schema';

/** better-auth 1.7.25's identifier prefix of a password reset token (api/routes/password.ts). */
const RESET_IDENTIFIER_PREFIX = 'reset-password:';

/** The tenant with this slug, or null. */
export async function tenantBySlug(db: DbOrTx, slug: string): Promise<Tenant | null> {
  const [t] = await db.select().from(tenants).where(eq(tenants.slug, slug));
  return t ?? null;
}

/** The staff account with this (lower-case) email and its tenant, or null. */
export async function staffWithTenantByEmail(db: DbOrTx, email: string): Promise<{ user: StaffUser; tenant: Tenant } | null> {
  const [row] = await db.select({ user: staffUsers, tenant: tenants }).from(staffUsers).innerJoin(tenants, eq(tenants.id, staffUsers.tenantId)).where(eq(staffUsers.email, email));
  return row ?? null;
}

/**
 * Stores a one-time password link for `userId` exactly as better-auth's /request-password-reset does (identifier
 * `reset-password:<token>`, value the user id), valid until `expiresAt` (UTC instant).
 */
export async function insertResetToken(db: DbOrTx, userId: string, token: string, expiresAt: Date, now: Date): Promise<void> {
  await db.insert(staffVerifications).values({ id: randomUUID(), identifier: `${RESET_IDENTIFIER_PREFIX}${token}`, value: userId, expiresAt, createdAt: now, updatedAt: now });
}

/** Removes every unused password link of `userId` (a fresh link replaces them). @returns how many went. */
export async function deleteResetTokensOf(db: DbOrTx, userId: string): Promise<number> {
  const rows = await db
    .delete(staffVerifications)
    .where(and(like(staffVerifications.identifier, `${RESET_IDENTIFIER_PREFIX}%`), eq(staffVerifications.value, userId)))
    .returning({ id: staffVerifications.id });
  return rows.length;
}

/** The password link stored for `token`: its user id and expiry, or null (used, replaced, or never issued). */
export async function resetTokenRow(db: DbOrTx, token: string): Promise<{ userId: string; expiresAt: Date } | null> {
  const [row] = await db
    .select({ userId: staffVerifications.value, expiresAt: staffVerifications.expiresAt })
    .from(staffVerifications)
    .where(eq(staffVerifications.identifier, `${RESET_IDENTIFIER_PREFIX}${token}`));
  return row ?? null;
}

/** One line of `npm run tenant -- list`. */
interface TenantOverview {
  slug: string;
  name: string;
  timeZone: string;
  senderEmail: string;
  admins: number;
  staff: number;
  events: number;
  createdAt: Date;
}

/** Every tenant with its number of admins, staff accounts and events, by slug. */
export async function tenantOverview(db: DbOrTx): Promise<TenantOverview[]> {
  const rows = await db
    .select({
      slug: tenants.slug,
      name: tenants.name,
      timeZone: tenants.timeZone,
      senderEmail: tenants.senderEmail,
      createdAt: tenants.createdAt,
      admins: sql<number>`(select count(*)::int from staff_users u where u.tenant_id = tenants.id and u.role = 'admin')`,
      staff: sql<number>`(select count(*)::int from staff_users u where u.tenant_id = tenants.id)`,
      events: sql<number>`(select count(*)::int from events e where e.tenant_id = tenants.id)`,
    })
    .from(tenants)
    .orderBy(asc(tenants.slug));
  return rows.map((r) => ({ ...r, admins: Number(r.admins), staff: Number(r.staff), events: Number(r.events) }));
}
