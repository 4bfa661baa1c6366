/**
 * Sender identity (domain/organisations/sender-identity.ts): the operator's settings, the one place every mail's From and Reply-To
 * come from ({@link senderFor}), the check and verification link of a sender address saved on the settings page, and
 * the verification itself.
 *
 * Environment (read by the web app AND the worker: set both the same):
 *   PUNCTUAL_MAIL_FROM        the deployment's own sender address (default `reminders@punctual.local`): mail of an
 *                             organisation whose address is not proven goes From it, and verification mails do.
 *   PUNCTUAL_SENDER_DOMAINS   the operator's allowlist: domains (comma or space separated) whose addresses need no
 *                             verification link; a domain covers its subdomains. Unset = none. Judged at send time.
 *
 * A verification link is a random 256-bit token (base64url) whose SHA-256 alone is stored (`sender_verifications`),
 * mailed by a worker job ({@link TASK.sendSenderVerification}, like password-reset mail) From the default sender.
 * It works once, for 24 h, for THAT organisation and THAT address, and only while it is still the organisation's
 * sender address; an admin of that organisation opens it signed in and confirms ({@link confirmSenderVerification}).
 */
import { TASK } from '@/jobs/registry';
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { EmailChannel } from '@/channels/types';
import type { Db, DbOrTx } from '@/db/client';
import { setActor } from '@/db/queries/platform/actor';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { getTenant } from '@/db/queries/scheduling/scheduling';
import {
  insertSenderVerification,
  lockTenantRow,
  latestVerification,
  latestVerificationOfTenant,
  lockSenderAddress,
  markSenderVerified,
  otherHolders,
  useVerification,
  verificationByHash,
  verificationById,
} from '@/db/queries/organisations/sender-identity';
import type { Tenant } from '@/db/schema';
import {
  describeSender,
  effectiveSender,
  domainOfAddress,
  normaliseAddress,
  SENDER_VERIFICATION_TTL_MS,
  senderAddressTaken,
  senderProof,
  senderVerificationUrl,
  type EffectiveSender,
  type SenderIdentityConfig,
  type SenderProof,
} from '@/domain/organisations/sender-identity';
import { senderVerificationEmail } from '@/emails/account-mail';
import { senderIdentityFromEnv } from './sender-config';
import type { EmailProvider } from '@/domain/vocabulary';
import { publicBaseUrl } from '@/domain/platform/public-url';
import { AppError } from '@/server/platform/errors';
import { childLogger } from '@/server/platform/log';
import { recheckActor } from '@/server/platform/versions';
import { sendAccountMail } from '@/server/accounts/account-mail';

export { DEFAULT_MAIL_FROM, senderIdentityFromEnv } from './sender-config';

/**
 * From and Reply-To of mail in tenant `t`'s name, decided NOW (at send time) — every sender of mail calls this
 * (domain/organisations/sender-identity.ts effectiveSender). `cfg` defaults to this process's environment.
 */
export function senderFor(t: Tenant, cfg: SenderIdentityConfig = senderIdentityFromEnv(), opts: { displayName?: string } = {}): EffectiveSender {
  return effectiveSender(t, cfg, opts);
}

/** What the settings page shows about the sender address. */
export interface SenderStatusView {
  proof: SenderProof;
  /** The address mail goes out From now, and its Reply-To (null = none). */
  from: string;
  replyTo: string | null;
  /** One plain sentence (domain/organisations/sender-identity.ts describeSender). */
  sentence: string;
  /** The latest link mailed for the current address (ISO instants), or null. */
  link: { sentAt: string; expiresAt: string; used: boolean } | null;
}

export async function senderStatus(db: DbOrTx, t: Tenant, cfg: SenderIdentityConfig = senderIdentityFromEnv()): Promise<SenderStatusView> {
  const e = effectiveSender(t, cfg);
  const l = e.proof === 'unverified' ? await latestVerification(db, t.id, normaliseAddress(t.senderEmail)) : undefined;
  return {
    proof: e.proof,
    from: e.from.address,
    replyTo: e.replyTo,
    sentence: describeSender(t, cfg),
    link: l ? { sentAt: l.createdAt.toISOString(), expiresAt: l.expiresAt.toISOString(), used: !!l.usedAt } : null,
  };
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Inside a settings save (the tenant row locked by `tx`): the admin sets `next` as the sender address. Under the
 * address's lock: refused when another organisation holds it proven; an unproven address gets a verification link
 * (job in this transaction). Writes no tenant row.
 * @returns whether a link was mailed, and whether the caller's update must forget the old address's proof.
 * @throws AppError conflict (409) naming `senderEmail`.
 */
export async function claimSenderAddress(
  tx: DbOrTx,
  t: Tenant,
  next: string,
  ctx: { actor: string; now: Date; publicUrl?: string },
  cfg: SenderIdentityConfig = senderIdentityFromEnv(),
): Promise<{ linkSent: boolean; clearProof: boolean }> {
  const n = normaliseAddress(next);
  if (n === normaliseAddress(t.senderEmail)) return { linkSent: false, clearProof: false };
  // One lock per domain: two organisations claiming addresses at one domain are decided one after the other.
  await lockSenderAddress(tx, lockKeyOf(n));
  const others = await otherHolders(tx, t.id, n, domainsOf(n));
  if (senderAddressTaken(next, others, cfg)) {
    throw new AppError('conflict', `senderEmail: ${next.slice(0, 80)} is another organisation’s verified sender address; use an address of your own`, 'senderEmail');
  }
  // The proof of the old address goes with it (the caller writes that in its update: one row version).
  const clearProof = !!t.senderVerifiedEmail && t.senderVerifiedEmail !== n;
  const proof = senderProof({ senderEmail: next, senderVerifiedEmail: t.senderVerifiedEmail === n ? n : null }, cfg);
  if (proof !== 'unverified') return { linkSent: false, clearProof };
  // One link a minute per organisation, however often the address changes: saving settings is no way around the
  // resend limit (each link mails whatever address was typed, with the organisation's name in it).
  const last = await latestVerificationOfTenant(tx, t.id);
  if (last && last.createdAt.getTime() + 60_000 > ctx.now.getTime()) return { linkSent: false, clearProof };
  await mailVerificationLink(tx, t.id, n, ctx);
  return { linkSent: true, clearProof };
}

/** What a claim on `normalised` locks: its domain (claims at one domain queue up), else the address itself. */
function lockKeyOf(normalised: string): string {
  return domainOfAddress(normalised) ?? normalised;
}

/** The domain of `normalised` as typed and as normalised (IDNA), for {@link otherHolders}. */
function domainsOf(normalised: string): string[] {
  const d = domainOfAddress(normalised);
  return d ? [...new Set([d, normalised.slice(normalised.lastIndexOf('@') + 1)])] : [];
}

async function mailVerificationLink(tx: DbOrTx, tenantId: string, normalised: string, ctx: { actor: string; now: Date; publicUrl?: string }): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const v = await insertSenderVerification(tx, {
    tenantId,
    address: normalised,
    tokenHash: hashToken(token),
    requestedBy: ctx.actor,
    at: ctx.now,
    expiresAt: new Date(ctx.now.getTime() + SENDER_VERIFICATION_TTL_MS),
  });
  const url = senderVerificationUrl(ctx.publicUrl ?? publicBaseUrl(process.env), token);
  await enqueueJob(tx, TASK.sendSenderVerification, { id: v.id, url }, { jobKey: `sender_verification:${v.id}`, maxAttempts: 5 });
}

/**
 * An admin asks for the link again (the settings page's "Send the link again"): a new link for the CURRENT address,
 * at most one a minute. @throws AppError invalid_state when the address needs none, rate_limited, forbidden.
 */
export async function resendSenderVerification(
  db: Db,
  ctx: { tenantId: string; actor: string; actorId?: string; now: Date; publicUrl?: string },
  cfg: SenderIdentityConfig = senderIdentityFromEnv(),
): Promise<SenderStatusView> {
  return db.transaction(async (tx) => {
    await setActor(tx, ctx.actor);
    await recheckActor(tx, ctx, 'configure');
    const t = await getTenant(tx, ctx.tenantId);
    if (!t) throw new AppError('not_found', 'this organisation no longer exists');
    if (senderProof(t, cfg) !== 'unverified') throw new AppError('invalid_state', `senderEmail: ${t.senderEmail} needs no verification`, 'senderEmail');
    const n = normaliseAddress(t.senderEmail);
    await lockSenderAddress(tx, lockKeyOf(n));
    const last = await latestVerification(tx, t.id, n);
    const wait = last ? last.createdAt.getTime() + 60_000 - ctx.now.getTime() : 0;
    if (wait > 0) throw new AppError('rate_limited', `One link a minute: try again in ${Math.ceil(wait / 1000)} s.`, 'senderEmail', { retryAfterMs: wait });
    await mailVerificationLink(tx, t.id, n, ctx);
    return senderStatus(tx, t, cfg);
  });
}

/** What a verification link shows before it is confirmed (the verify page). */
type VerificationLinkView = { usable: true; address: string; orgName: string; expiresAt: string } | { usable: false; reason: string };

/** Reads a link for the verify page, for the signed-in admin's tenant (read only). */
export async function verificationLinkView(db: DbOrTx, tenantId: string, token: string, now: Date): Promise<VerificationLinkView> {
  const found = token && token.length <= 200 ? await verificationByHash(db, hashToken(token)) : undefined;
  return judgeLink(found, tenantId, now);
}

function judgeLink(found: Awaited<ReturnType<typeof verificationByHash>>, tenantId: string, now: Date): VerificationLinkView {
  if (!found || found.v.tenantId !== tenantId) return { usable: false, reason: 'This link is not one of your organisation’s (or it was mistyped). Ask for a new one on the settings page.' };
  const { v, tenant } = found;
  if (v.usedAt) return { usable: false, reason: `This link was used already${tenant.senderVerifiedEmail === v.address ? `: ${v.address} is verified` : ''}.` };
  if (v.expiresAt.getTime() <= now.getTime()) return { usable: false, reason: 'This link has expired. Ask for a new one on the settings page.' };
  if (normaliseAddress(tenant.senderEmail) !== v.address) return { usable: false, reason: `${v.address} is no longer your organisation’s sender address, so this link does nothing.` };
  return { usable: true, address: v.address, orgName: tenant.name, expiresAt: v.expiresAt.toISOString() };
}

/**
 * An admin of the link's organisation confirms it (POST with the token): one transaction — the actor re-checked, the
 * link locked, judged (this tenant's, unused, unexpired, still its sender address), the address's lock, no other
 * organisation holding it proven, then the proof recorded, the link spent and an audit entry `sender_verify`.
 * @returns the sender as it is now.
 * @throws AppError validation (field `token`) for a link that cannot be used, conflict when another organisation
 *   verified the address first, forbidden.
 */
export async function confirmSenderVerification(
  db: Db,
  ctx: { tenantId: string; actor: string; actorId?: string; now: Date },
  input: unknown,
  cfg: SenderIdentityConfig = senderIdentityFromEnv(),
): Promise<SenderStatusView> {
  const token = z.object({ token: z.string().min(1).max(200) }).safeParse(input);
  if (!token.success) throw new AppError('validation', 'token: the link’s token is missing', 'token');
  return db.transaction(async (tx) => {
    await setActor(tx, ctx.actor);
    await recheckActor(tx, ctx, 'configure');
    const found = await verificationByHash(tx, hashToken(token.data.token), true);
    const judged = judgeLink(found, ctx.tenantId, ctx.now);
    if (!judged.usable) throw new AppError('validation', `token: ${judged.reason}`, 'token');
    const { v } = found!;
    // Lock order as in a settings save: the tenant row, then the address's domain.
    const t = await lockTenantRow(tx, ctx.tenantId);
    await lockSenderAddress(tx, lockKeyOf(v.address));
    if (!t || normaliseAddress(t.senderEmail) !== v.address) throw new AppError('validation', `token: ${v.address} is no longer your organisation’s sender address, so this link does nothing.`, 'token');
    const others = await otherHolders(tx, t.id, v.address, domainsOf(v.address));
    if (senderAddressTaken(v.address, others, cfg)) throw new AppError('conflict', `token: ${v.address} was verified by another organisation first`, 'token');
    await useVerification(tx, v.id, ctx.actor, ctx.now);
    await markSenderVerified(tx, t.id, v.address, 'link', ctx.now);
    await appendAudit(tx, { tenantId: t.id, actor: ctx.actor, action: 'sender_verify', at: ctx.now, details: { address: v.address, verificationId: v.id } });
    return senderStatus(tx, { ...t, senderVerifiedEmail: v.address, senderVerifiedVia: 'link', senderVerifiedAt: ctx.now }, cfg);
  });
}

/**
 * The proof a tenant the OPERATOR creates gets for `address` (`npm run tenant -- create --sender`, the demo seed,
 * tests): proven ('operator') — the operator speaks for the deployment —, unless it is the default sender (nothing to
 * prove) or another organisation already holds it proven (then it stays unproven). Under the address's lock when
 * `tx` is a transaction. @returns the columns to insert with the tenant.
 */
export async function operatorProof(
  tx: DbOrTx,
  address: string,
  cfg: SenderIdentityConfig = senderIdentityFromEnv(),
): Promise<{ senderVerifiedEmail: string; senderVerifiedVia: 'operator' } | Record<string, never>> {
  const n = normaliseAddress(address);
  if (n === normaliseAddress(cfg.defaultSender)) return {};
  await lockSenderAddress(tx, lockKeyOf(n));
  const others = await otherHolders(tx, '00000000-0000-0000-0000-000000000000', n);
  if (others.some((o) => o.senderVerifiedEmail === n)) return {};
  return { senderVerifiedEmail: n, senderVerifiedVia: 'operator' };
}

/** Thrown for an outcome worth another attempt (graphile-worker retries the job with backoff). */
class SenderVerificationRetry extends Error {}

/**
 * The worker mails verification link `id` (payload `{ id, url }`) through the tenant's email provider, From the
 * deployment's default sender with the organisation's name, To the address being verified. Not sent when the link
 * was used or has expired, or the address is no longer the tenant's. `now`: the database's clock.
 * @throws SenderVerificationRetry for a transient, rate-limited or ambiguous outcome.
 */
export async function sendSenderVerificationMail(
  db: Db,
  p: { id: string; url: string },
  channels: Partial<Record<EmailProvider, EmailChannel>>,
  now: Date,
  cfg: SenderIdentityConfig = senderIdentityFromEnv(),
): Promise<{ status: 'sent' } | { status: 'skipped'; reason: string }> {
  const log = childLogger({ role: 'worker', task: TASK.sendSenderVerification });
  const found = await verificationById(db, p.id);
  if (!found) return { status: 'skipped', reason: 'no such link' };
  const { v, tenant } = found;
  if (v.usedAt || v.expiresAt.getTime() <= now.getTime() || normaliseAddress(tenant.senderEmail) !== v.address) {
    return { status: 'skipped', reason: 'the link was used or has expired, or the address is no longer the sender address' };
  }
  const channel = channels[tenant.emailProvider];
  if (!channel) {
    log.error({ tenantId: tenant.id, provider: tenant.emailProvider }, 'sender verification email not sent: no channel for the tenant’s email provider');
    return { status: 'skipped', reason: `no ${tenant.emailProvider} email channel in this worker` };
  }
  const mail = senderVerificationEmail({ locale: tenant.locale, orgName: tenant.name, address: tenant.senderEmail.trim(), url: p.url, expiresAt: v.expiresAt, zone: tenant.timeZone });
  const messageKey = `sender_verification:${v.id}`;
  const outcome = await sendAccountMail(channel, {
    tenant,
    // Never From the address being proven: the deployment's own sender, in the organisation's name.
    from: { name: tenant.name, address: cfg.defaultSender },
    to: { name: '', address: tenant.senderEmail.trim() },
    subject: mail.subject,
    text: mail.text,
    link: p.url,
    messageKey,
    kind: 'sender-verification',
  });
  if (outcome.class === 'accepted') return { status: 'sent' };
  if (outcome.class === 'rejected') {
    log.warn({ tenantId: tenant.id, code: outcome.code }, 'sender verification email refused by the provider');
    return { status: 'skipped', reason: `refused by the provider: ${outcome.message}` };
  }
  throw new SenderVerificationRetry(`sender verification email not sent (${outcome.class}: ${outcome.message}); trying again`);
}
