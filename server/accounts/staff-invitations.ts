/**
 * Adding staff is an invitation (no oracle across tenants): an admin of one organisation must not learn whether an
 * address has an account with another. Inviting answers the same (status, body, Staff page, audit entry) whatever the
 * address; the WORKER then mails the person (job `send_staff_invitation`, account mail of the inviting tenant):
 * - no account anywhere → a link (single use, SHA-256 stored, 7 days) to /accept-invitation, where they choose a
 *   password and their account is created in the inviting tenant with the invited role ({@link acceptInvitation});
 * - an account with another organisation → an email telling THEM so (no link); the invitation stays pending until
 *   it expires, exactly as an ignored one would.
 * An address that is already a member of the inviting tenant itself is refused as such (no other tenant's facts in
 * that). Admins cancel a pending invitation (version-checked, invariant 11); inviting the address again replaces it.
 */
import { TASK } from '@/jobs/registry';
import { randomBytes } from 'node:crypto';
import { hashPassword } from 'better-auth/crypto';
import { z } from 'zod';
import type { EmailChannel } from '@/channels/types';
import type { Db, DbOrTx } from '@/db/client';
import { setActor } from '@/db/queries/platform/actor';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { accountTenantOf, insertInvitation, invitationByToken, invitationTokenHash, invitationWithTenant, lockInvitation, pendingInvitations, setInvitationStatus } from '@/db/queries/accounts/staff-invitations';
import type { StaffInvitation } from '@/db/schema';
import { alreadyRegisteredEmail, invitationEmail } from '@/emails/account-mail';
import { alreadyMemberMessage, INVITATION_UNUSABLE_MESSAGE, invitationExpiry, invitationOpen, invitationSentNotice, INVITED_STATE } from '@/domain/accounts/staff-invitation';
import { staffRoles, type EmailProvider } from '@/domain/vocabulary';
import { AppError, assertId, parseInput } from '@/server/platform/errors';
import { childLogger } from '@/server/platform/log';
import { assertActorMay, assertVersion, parseVersion } from '@/server/platform/versions';
import { refuseBidiControls } from '@/domain/text';
import { senderFor } from '@/server/organisations/sender-identity';
import type { SenderIdentityConfig } from '@/domain/organisations/sender-identity';
import { sendAccountMail } from './account-mail';

const MAX_ATTEMPTS = 5;

const inviteInput = z.object({
  email: z.email().transform((e) => e.toLowerCase()),
  // It greets the person in the invitation email: text-direction controls are refused (domain/text.ts).
  name: z.string().trim().min(1).max(120).check(refuseBidiControls),
  role: z.enum(staffRoles),
});

/** A pending invitation as the Staff page and the API show it (the same for every address). */
interface InvitationView {
  id: string;
  email: string;
  name: string;
  role: (typeof staffRoles)[number];
  state: string;
  invitedBy: string;
  /** ISO instants (UTC). */
  invitedAt: string;
  expiresAt: string;
  /** Row version to send with a cancel (invariant 11). */
  version: number;
}

function invitationView(i: StaffInvitation): InvitationView {
  return { id: i.id, email: i.email, name: i.name, role: i.role, state: INVITED_STATE, invitedBy: i.invitedBy, invitedAt: i.createdAt.toISOString(), expiresAt: i.expiresAt.toISOString(), version: i.version };
}

/** The tenant's pending invitations (Staff page). */
export async function readInvitations(db: DbOrTx, tenantId: string, now: Date): Promise<InvitationView[]> {
  return (await pendingInvitations(db, tenantId, now)).map(invitationView);
}

/**
 * An admin invites `{ email, name, role }` to the tenant (audited `staff_invite` `{ email, role, expiresAt }`), with
 * the job that mails the person. `baseUrl`: the app's public URL (the link is `<baseUrl>/accept-invitation?token=…`).
 * `db` may be an idempotent request's open transaction.
 * @returns the invitation and the notice — the same whether or not the address has an account with another organisation.
 * @throws AppError validation (field named), conflict (the address is already a member of THIS organisation), forbidden.
 */
export async function inviteStaffAction(db: DbOrTx, ctx: { tenantId: string; actor: string; actorId: string; now: Date }, input: unknown, baseUrl: string): Promise<{ invitation: InvitationView; message: string }> {
  const v = parseInput(inviteInput, input);
  return db.transaction(async (tx) => {
    await setActor(tx, ctx.actor);
    await assertActorMay(tx, ctx, 'configure');
    if ((await accountTenantOf(tx, v.email)) === ctx.tenantId) throw new AppError('conflict', alreadyMemberMessage(v.email), 'email');
    const token = randomBytes(24).toString('base64url');
    const row = await insertInvitation(tx, { tenantId: ctx.tenantId, email: v.email, name: v.name, role: v.role, invitedBy: ctx.actor, token, expiresAt: invitationExpiry(ctx.now), now: ctx.now });
    const url = `${baseUrl.replace(/\/+$/, '')}/accept-invitation?token=${token}`;
    await enqueueJob(tx, TASK.sendStaffInvitation, { invitationId: row.id, url }, { maxAttempts: MAX_ATTEMPTS });
    await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'staff_invite', at: ctx.now, details: { email: v.email, role: v.role, expiresAt: row.expiresAt.toISOString() } });
    return { invitation: invitationView(row), message: invitationSentNotice(v.email) };
  });
}

/**
 * An admin cancels a pending invitation `{ version }` (audited `staff_invite_cancel`); its link stops working.
 * @throws AppError not_found (no pending invitation of this tenant with that id), validation (version), forbidden, conflict (stale version).
 */
export async function cancelInvitationAction(db: Db, ctx: { tenantId: string; actor: string; actorId: string; now: Date }, id: string, input: unknown): Promise<{ cancelled: true }> {
  assertId(id, 'id', 'invitation');
  const seen = parseVersion(input);
  return db.transaction(async (tx) => {
    await setActor(tx, ctx.actor);
    await assertActorMay(tx, ctx, 'configure');
    const i = await lockInvitation(tx, ctx.tenantId, id);
    if (!i || !invitationOpen(i, ctx.now)) throw new AppError('not_found', `invitation ${id.slice(0, 80)} not found (accepted, cancelled or expired)`, 'id');
    await assertVersion(tx, ctx, i, seen, { what: `The invitation of ${i.email}`, current: invitationView(i) });
    await setInvitationStatus(tx, i.id, 'cancelled', ctx.now);
    await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'staff_invite_cancel', at: ctx.now, details: { email: i.email, role: i.role } });
    return { cancelled: true as const };
  });
}

/** What the accept page may show for a link: whose invitation it is, or that it cannot be used. */
type InvitationLinkView = { usable: true; email: string; name: string; orgName: string } | { usable: false };

/** Reads a link's invitation for the accept page (read only). An address that has an account anywhere reads as unusable. */
export async function invitationLinkView(db: DbOrTx, token: string, now: Date): Promise<InvitationLinkView> {
  if (!token || token.length > 200) return { usable: false };
  const found = await invitationByToken(db, token, false);
  if (!found || !invitationOpen(found.invitation, now) || (await accountTenantOf(db, found.invitation.email))) return { usable: false };
  return { usable: true, email: found.invitation.email, name: found.invitation.name, orgName: found.orgName };
}

const acceptInput = z.object({
  token: z.string({ error: 'required: the token from your invitation link' }).min(1, 'required: the token from your invitation link').max(200),
  password: z.string({ error: 'required' }).min(8, 'at least 8 characters').max(128, 'at most 128 characters'),
});

/**
 * The invited person accepts: `{ token, password }` — creates their account in the inviting tenant with the invited
 * role and that password, marks the invitation accepted and audits `staff_invite_accept` (actor: their address), in
 * one transaction. They then sign in as anyone does.
 * @throws AppError validation (field named), invalid_state (the link is used, cancelled, replaced, expired or unknown,
 *   or the address has an account by now — one message for all).
 */
export async function acceptInvitation(db: Db, input: unknown, now: Date): Promise<{ email: string; orgName: string }> {
  const v = parseInput(acceptInput, input);
  const passwordHash = await hashPassword(v.password);
  const unusable = () => new AppError('invalid_state', INVITATION_UNUSABLE_MESSAGE, 'token');
  return db.transaction(async (tx) => {
    const found = await invitationByToken(tx, v.token, true);
    if (!found || !invitationOpen(found.invitation, now)) throw unusable();
    const i = found.invitation;
    await setActor(tx, i.email);
    const id = await insertStaffUser(tx, { tenantId: i.tenantId, email: i.email, name: i.name, role: i.role, passwordHash });
    if (!id) throw unusable();
    await setInvitationStatus(tx, i.id, 'accepted', now);
    await appendAudit(tx, { tenantId: i.tenantId, actor: i.email, action: 'staff_invite_accept', at: now, details: { email: i.email, role: i.role, invitedBy: i.invitedBy } });
    return { email: i.email, orgName: found.orgName };
  });
}

/** What became of one mail job. */
type InvitationSendResult = { status: 'sent'; kind: 'link' | 'already_registered' } | { status: 'skipped'; reason: string };

/** Thrown for an outcome worth another attempt (graphile-worker retries the job with backoff). */
class InvitationMailRetry extends Error {}

/**
 * Mails one invitation (module doc) through the inviting tenant's email provider, from its sender address, as account
 * mail (the development mailbox shows it only to its recipient). Nothing is sent for an invitation that is no longer
 * open by `now` (the database's clock).
 * @throws InvitationMailRetry for a transient, rate-limited or ambiguous outcome.
 */
export async function sendStaffInvitationMail(
  db: Db,
  p: { invitationId: string; url: string },
  channels: Partial<Record<EmailProvider, EmailChannel>>,
  now: Date,
  senderIdentity?: SenderIdentityConfig,
): Promise<InvitationSendResult> {
  const log = childLogger({ role: 'worker', task: TASK.sendStaffInvitation });
  const found = await invitationWithTenant(db, p.invitationId);
  if (!found || !invitationOpen(found.invitation, now)) return { status: 'skipped', reason: 'the invitation was accepted, cancelled, replaced or has expired' };
  const { invitation: i, tenant } = found;
  let token: string | null = null;
  try {
    token = new URL(p.url).searchParams.get('token');
  } catch {
    token = null;
  }
  if (!token || invitationTokenHash(token) !== i.tokenHash) return { status: 'skipped', reason: 'the link is not this invitation’s' };
  const channel = channels[tenant.emailProvider];
  if (!channel) {
    log.error({ invitationId: i.id, provider: tenant.emailProvider }, 'staff invitation not sent: no channel for the tenant’s email provider');
    return { status: 'skipped', reason: `no ${tenant.emailProvider} email channel in this worker` };
  }
  const registered = (await accountTenantOf(db, i.email)) !== null;
  const base = { locale: tenant.locale, personName: i.name, orgName: tenant.name, invitedBy: i.invitedBy, expiresAt: i.expiresAt, zone: tenant.timeZone };
  const mail = registered ? alreadyRegisteredEmail(base) : invitationEmail({ ...base, role: i.role, url: p.url });
  const messageKey = `staff_invitation:${i.id}`;
  // From the tenant's address once proven, else the deployment's (server/organisations/sender-identity.ts), like all its mail.
  const sender = senderFor(tenant, senderIdentity);
  const outcome = await sendAccountMail(channel, {
    tenant,
    from: sender.from,
    replyTo: sender.replyTo,
    to: { name: i.name, address: i.email },
    subject: mail.subject,
    text: mail.text,
    // The already-registered text carries no link, so nothing in it is linked.
    link: p.url,
    messageKey,
    kind: 'staff-invitation',
  });
  if (outcome.class === 'accepted') return { status: 'sent', kind: registered ? 'already_registered' : 'link' };
  if (outcome.class === 'rejected') {
    log.warn({ invitationId: i.id, code: outcome.code }, 'staff invitation refused by the provider');
    return { status: 'skipped', reason: `refused by the provider: ${outcome.message}` };
  }
  throw new InvitationMailRetry(`staff invitation not sent (${outcome.class}: ${outcome.message}); trying again`);
}
