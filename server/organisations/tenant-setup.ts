/**
 * Setting up an organisation from the command line (issue #13; scripts/tenant.ts is the CLI): the tenant, its
 * first admin and a one-time sign-in link, in ONE transaction with the audit entries — or nothing at all.
 *
 * The first admin has NO password: the link is better-auth's own password reset token (a `verification` row
 * `reset-password:<token>` → user id, db/queries/organisations/tenant-setup.ts), valid 24 hours (domain/organisations/tenant-setup.ts
 * `signInLinkExpiry`), spent by better-auth's /reset-password when the person chooses a password on
 * /set-password (better-auth creates the missing credential account then). A new organisation gets no reminder
 * rules (nothing is sent until an admin adds one on the Reminder rules page) and no notification settings row
 * (the default policy applies, as for every tenant without one — server/notifications/notification-settings.ts).
 *
 * The token is returned to the caller to print once; it is never logged and not written to the audit log.
 */
import { randomBytes } from 'node:crypto';
import type { Db, DbOrTx } from '@/db/client';
import { setActor } from '@/db/queries/platform/actor';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { deleteResetTokensOf, insertResetToken, staffWithTenantByEmail, tenantBySlug } from '@/db/queries/organisations/tenant-setup';
import type { Tenant } from '@/db/schema';
import { signInLinkExpiry, type TenantSetup } from '@/domain/organisations/tenant-setup';
import { AppError } from '@/server/platform/errors';
import { createTenant } from './tenants';

/** Who the audit log names for what the command line did. */
const CLI_ACTOR = 'cli';

/** A one-time link's secret part and until when it works. */
interface IssuedLink {
  /** Goes into `/set-password?token=…`: 32 characters of base64url (192 random bits). */
  token: string;
  /** UTC instant the link stops working. */
  expiresAt: Date;
}

/** A fresh token: 24 random bytes, base64url. */
function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Stores a fresh 24-hour link for `userId` (removing any older unused one) and audits it. */
async function issueLinkIn(tx: DbOrTx, tenantId: string, user: { id: string; email: string }, now: Date, reason: 'first admin' | 'requested again'): Promise<IssuedLink> {
  const replaced = await deleteResetTokensOf(tx, user.id);
  const link = { token: newToken(), expiresAt: signInLinkExpiry(now) };
  await insertResetToken(tx, user.id, link.token, link.expiresAt, now);
  await appendAudit(tx, { tenantId, actor: CLI_ACTOR, action: 'sign_in_link', at: now, details: { email: user.email, reason, replacedLinks: replaced, expiresAt: link.expiresAt.toISOString() } });
  return link;
}

/**
 * Creates the organisation, its first admin (role admin, no password) and a one-time sign-in link, with audit
 * entries `tenant_create` and `sign_in_link` — all in one transaction. `now` is the database's clock.
 * @throws AppError conflict `tenant "<slug>" already exists`, or `<email> already has a staff account (tenant
 *   "<slug>")` — nothing written in either case.
 */
export async function createTenantWithAdmin(db: Db, setup: TenantSetup, now: Date): Promise<{ tenant: Tenant; adminId: string; link: IssuedLink }> {
  return db.transaction(async (tx) => {
    await setActor(tx, CLI_ACTOR);
    // Checked first for the clear message; the unique indexes decide if two commands race (then the same message).
    const slugTaken = () => new AppError('conflict', `tenant "${setup.slug}" already exists`, 'slug');
    if (await tenantBySlug(tx, setup.slug)) throw slugTaken();
    const existing = await staffWithTenantByEmail(tx, setup.adminEmail);
    const emailTaken = (slug?: string) => new AppError('conflict', `${setup.adminEmail} already has a staff account${slug ? ` (tenant "${slug}")` : ''} — use another --admin-email`, 'admin-email');
    if (existing) throw emailTaken(existing.tenant.slug);
    let tenant: Tenant;
    try {
      tenant = await tx.transaction((sp) => createTenant(sp, { slug: setup.slug, name: setup.name, timeZone: setup.timeZone, senderEmail: setup.senderEmail, senderName: setup.senderName }));
    } catch (e) {
      if (/tenants_slug_unique|duplicate key/.test(String((e as { cause?: unknown }).cause ?? e))) throw slugTaken();
      throw e;
    }
    const adminId = await insertStaffUser(tx, { tenantId: tenant.id, email: setup.adminEmail, name: setup.adminName, role: 'admin', passwordHash: null });
    if (!adminId) throw emailTaken();
    await appendAudit(tx, {
      tenantId: tenant.id,
      actor: CLI_ACTOR,
      action: 'tenant_create',
      at: now,
      details: { slug: tenant.slug, name: tenant.name, timeZone: tenant.timeZone, senderEmail: tenant.senderEmail, senderName: tenant.senderName, email: setup.adminEmail, role: 'admin' },
    });
    const link = await issueLinkIn(tx, tenant.id, { id: adminId, email: setup.adminEmail }, now, 'first admin');
    return { tenant, adminId, link };
  });
}

/**
 * Issues a fresh one-time link for an existing account (any role; e.g. when the first one expired): older unused
 * links of that account stop working. Audited as `sign_in_link` in the account's tenant.
 * @throws AppError not_found when no account has this email.
 */
export async function issueSignInLink(db: Db, email: string, now: Date): Promise<{ tenant: Tenant; user: { id: string; email: string; name: string }; link: IssuedLink }> {
  const address = email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    await setActor(tx, CLI_ACTOR);
    const found = await staffWithTenantByEmail(tx, address);
    if (!found) throw new AppError('not_found', `no staff account has the address ${address}`, 'email');
    // A disabled account gets no link: it could not sign in with the password it sets (server/accounts/auth-plugin.ts).
    if (found.user.disabledAt) throw new AppError('invalid_state', `the account ${address} is disabled: an admin re-enables it on the Staff page first`, 'email');
    const link = await issueLinkIn(tx, found.tenant.id, found.user, now, 'requested again');
    return { tenant: found.tenant, user: { id: found.user.id, email: found.user.email, name: found.user.name }, link };
  });
}
