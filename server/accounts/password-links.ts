/**
 * Password reset by email (issue #13 part 5) and the audit of every password set through a link.
 *
 * - The web app never sends mail itself: better-auth's `/request-password-reset` stores its token (1 hour,
 *   domain/organisations/tenant-setup.ts RESET_LINK_TTL_SECONDS) and calls `sendResetPassword`, which only ENQUEUES a
 *   `send_password_reset` job ({@link enqueuePasswordResetMail}). The worker sends it ({@link sendPasswordResetMail})
 *   through the account's tenant's email provider — the same channels alert emails use (server/alerts/sender.ts
 *   AlertSenders) — from the tenant's sender address once it is proven (server/organisations/sender-identity.ts senderFor). A link that was used or replaced by the time the job runs is
 *   not sent.
 * - The job payload holds the link (the token is also in the `verification` row of the same database); neither is
 *   logged. The message key (Message-ID, a provider's idempotency key) holds a hash of the token, never the token.
 * - Abuse: every request — for any address, with an account or not — first takes a token from the client's
 *   sign-in bucket (shared with wrong passwords) and from a bucket per address (domain/accounts/sign-in-limits.ts
 *   RESET_REQUEST_LIMIT), so nobody can mail-bomb an address and a 429 never tells whether an account exists.
 * - Only the newest link of an account works, and no link outlives what it protects: storing a link deletes the
 *   account's older ones, and a password set by any route (/reset-password, /change-password, a link from
 *   `npm run tenant`) deletes all of them — both by triggers in the writing transaction (migration 0023), because
 *   better-auth writes through its own adapter transactions. Disabling an account deletes them too
 *   (server/accounts/staff.ts). So a second "Forgot your password?" replaces the first email's link before it is sent.
 * - {@link auditPasswordReset}: better-auth's `onPasswordReset` (after /reset-password set the password, whether
 *   the link came from `npm run tenant` or from the email) writes a `password_reset` audit entry in the account's
 *   tenant.
 */
import { TASK } from '@/jobs/registry';
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { EmailChannel } from '@/channels/types';
import type { Db, DbOrTx } from '@/db/client';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { resetTokenRow } from '@/db/queries/organisations/tenant-setup';
import { staffUsers, tenants } from '@/db/schema';
import { passwordResetEmail } from '@/emails/account-mail';
import type { EmailProvider } from '@/domain/vocabulary';
import type { SenderIdentityConfig } from '@/domain/organisations/sender-identity';
import { senderFor } from '@/server/organisations/sender-identity';
import { childLogger } from '@/server/platform/log';
import { sendAccountMail } from './account-mail';

/** Attempts before the job is left failed in the queue (transient provider trouble, 1 hour of link life). */
const MAX_ATTEMPTS = 5;

/** The job's payload: whose link, and the whole link (`<public URL>/set-password?token=…`). */
interface PasswordResetPayload {
  userId: string;
  url: string;
}

/** Adds the `send_password_reset` job (called by better-auth's `sendResetPassword`, server/accounts/auth.ts). */
export async function enqueuePasswordResetMail(db: DbOrTx, p: PasswordResetPayload): Promise<void> {
  await enqueueJob(db, TASK.sendPasswordReset, { userId: p.userId, url: p.url }, { maxAttempts: MAX_ATTEMPTS });
}

/** What became of one job. */
type PasswordResetSendResult =
  | { status: 'sent' }
  /** Nothing sent, for good: the account or its link is gone (used, replaced, expired), or the provider refused. */
  | { status: 'skipped'; reason: string };

/** Thrown for an outcome worth another attempt (graphile-worker retries the job with backoff). */
class PasswordResetRetry extends Error {}

/**
 * Sends the reset email of one job (module doc) through `channels[tenant.email_provider]`. `now`: the database's
 * clock (a link past its expiry is not sent).
 * @throws PasswordResetRetry for a transient, rate-limited or ambiguous outcome (an ambiguous one may arrive twice;
 *   both carry the same link).
 */
export async function sendPasswordResetMail(
  db: Db,
  p: PasswordResetPayload,
  channels: Partial<Record<EmailProvider, EmailChannel>>,
  now: Date,
  senderIdentity?: SenderIdentityConfig,
): Promise<PasswordResetSendResult> {
  const log = childLogger({ role: 'worker', task: TASK.sendPasswordReset });
  let token: string | null = null;
  try {
    token = new URL(p.url).searchParams.get('token');
  } catch {
    token = null;
  }
  if (!token) return { status: 'skipped', reason: 'the link carries no token' };
  const row = await resetTokenRow(db, token);
  if (!row || row.userId !== p.userId || row.expiresAt.getTime() <= now.getTime()) {
    log.info({ userId: p.userId }, 'password reset email not sent: the link was used, replaced or has expired');
    return { status: 'skipped', reason: 'the link was used, replaced or has expired' };
  }
  const [found] = await db.select({ user: staffUsers, tenant: tenants }).from(staffUsers).innerJoin(tenants, eq(tenants.id, staffUsers.tenantId)).where(eq(staffUsers.id, p.userId));
  if (!found) return { status: 'skipped', reason: 'the account no longer exists' };
  const { user, tenant } = found;
  if (user.disabledAt) return { status: 'skipped', reason: 'the account is disabled' };
  const channel = channels[tenant.emailProvider];
  if (!channel) {
    log.error({ userId: p.userId, provider: tenant.emailProvider }, 'password reset email not sent: no channel for the tenant’s email provider');
    return { status: 'skipped', reason: `no ${tenant.emailProvider} email channel in this worker` };
  }
  const mail = passwordResetEmail({ locale: tenant.locale, personName: user.name, orgName: tenant.name, url: p.url, expiresAt: row.expiresAt, zone: tenant.timeZone });
  const messageKey = `password_reset:${user.id}:${createHash('sha256').update(token).digest('hex').slice(0, 24)}`;
  // From the tenant's address once proven, else the deployment's (server/organisations/sender-identity.ts).
  const sender = senderFor(tenant, senderIdentity);
  const outcome = await sendAccountMail(channel, {
    tenant,
    from: sender.from,
    replyTo: sender.replyTo,
    to: { name: user.name, address: user.email },
    subject: mail.subject,
    text: mail.text,
    link: p.url,
    messageKey,
    kind: 'password-reset',
  });
  if (outcome.class === 'accepted') return { status: 'sent' };
  if (outcome.class === 'rejected') {
    log.warn({ userId: user.id, code: outcome.code }, 'password reset email refused by the provider');
    return { status: 'skipped', reason: `refused by the provider: ${outcome.message}` };
  }
  throw new PasswordResetRetry(`password reset email not sent (${outcome.class}: ${outcome.message}); trying again`);
}

/**
 * Audits a password set through a one-time or reset link (better-auth `onPasswordReset`): a `password_reset` entry
 * in the account's tenant, actor the account's own address. Never throws (the password is set already; a failure
 * is logged).
 */
export async function auditPasswordReset(db: Db, user: { id: string; email: string; tenantId?: unknown }, now: Date): Promise<void> {
  try {
    const [u] = await db.select({ tenantId: staffUsers.tenantId, email: staffUsers.email }).from(staffUsers).where(eq(staffUsers.id, user.id));
    if (!u) return;
    await appendAudit(db, { tenantId: u.tenantId, actor: u.email, action: 'password_reset', at: now, details: { email: u.email } });
  } catch (e) {
    childLogger({ role: 'web' }).error({ err: e, userId: user.id }, 'password reset: the audit entry could not be written');
  }
}

/** What the set-password page may show for a link: whose it is, or that it cannot be used. */
type PasswordLinkView = { usable: true; email: string; name: string; orgName: string; hasPassword: boolean } | { usable: false };

/**
 * Looks a link's token up for the set-password page (read only: the token is spent by better-auth's
 * /reset-password, not here). Used, replaced, expired (by `now`, the database's clock) and unknown links, and links of a
 * disabled account, all read as `{ usable: false }`.
 */
export async function passwordLinkView(db: Db, token: string, now: Date): Promise<PasswordLinkView> {
  if (!token || token.length > 200) return { usable: false };
  const row = await resetTokenRow(db, token);
  if (!row || row.expiresAt.getTime() <= now.getTime()) return { usable: false };
  const [found] = await db
    .select({ email: staffUsers.email, name: staffUsers.name, disabledAt: staffUsers.disabledAt, orgName: tenants.name, hasPassword: sql<boolean>`exists (select 1 from staff_accounts a where a.user_id = staff_users.id and a.provider_id = 'credential' and a.password is not null)` })
    .from(staffUsers)
    .innerJoin(tenants, eq(tenants.id, staffUsers.tenantId))
    .where(eq(staffUsers.id, row.userId));
  // A disabled account's link is not usable: it could not sign in with the password it would set.
  if (!found || found.disabledAt) return { usable: false };
  return { usable: true, email: found.email, name: found.name, orgName: found.orgName, hasPassword: Boolean(found.hasPassword) };
}
