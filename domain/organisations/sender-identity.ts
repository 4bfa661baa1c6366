/**
 * Sender identity: which address an organisation's mail may go out FROM, and what goes out when its own address is
 * not proven yet. Pure: no I/O, no clock, no environment (the server reads the operator's settings and passes them in).
 *
 * An organisation's sender address (`tenants.sender_email`) is **proven** when either
 * - its domain is on the operator's allowlist ({@link SenderIdentityConfig.allowedDomains}, `PUNCTUAL_SENDER_DOMAINS`):
 *   a listed domain covers itself and every subdomain (`punctual.local` covers `demo.punctual.local`); judged at
 *   send time, so a change of the list takes effect with the next message; or
 * - it is the deployment's default sender itself (nothing to prove: see below); or
 * - the organisation holds a verification of exactly this address (`tenants.sender_verified_email`, the normalised
 *   address): an admin opened the link mailed to it, the operator set it (`npm run tenant -- create --sender`), or
 *   it was the organisation's own address before verification existed (grandfathered, migration backfill).
 *
 * Until it is proven, mail goes From the deployment's default sender ({@link SenderIdentityConfig.defaultSender},
 * `PUNCTUAL_MAIL_FROM`) with the organisation's display name, and `Reply-To` the organisation's reply-to when it set
 * one, else its unproven sender address — so replies still reach it, but nothing claims to BE that address.
 *
 * Addresses are compared on their normalised form ({@link normaliseAddress}): trimmed and lower-cased as a whole.
 * RFC 5321 §2.4 lets a server treat local parts case-sensitively, but no real mailbox provider does, and treating
 * `HELLO@x` and `hello@x` as two owners would let one organisation take another's address by changing its case.
 */
import { normaliseDomain } from './guest-sender';

/** The operator's settings of sender identity (server/organisations/sender-identity.ts reads them from the environment). */
export interface SenderIdentityConfig {
  /** The deployment's own sender address (`PUNCTUAL_MAIL_FROM`), used From while an organisation's is unproven. */
  defaultSender: string;
  /** Normalised domains (lower-case ASCII) whose addresses need no verification link (`PUNCTUAL_SENDER_DOMAINS`). */
  allowedDomains: readonly string[];
}

/** The sender fields of an organisation (a `tenants` row has them all). */
export interface SenderFields {
  name: string;
  /** Display name; null = the organisation's name. */
  senderName: string | null;
  senderEmail: string;
  /** Explicit Reply-To; null = none. */
  replyTo: string | null;
  /** The normalised address this organisation proved it may send from, or null. */
  senderVerifiedEmail: string | null;
}

/**
 * Why a sender address is or is not used as From: `default` — it IS the deployment's default sender (the operator's
 * own address, which unproven mail goes from anyway); `allowlist`; `verified`; `unverified`.
 */
export type SenderProof = 'default' | 'allowlist' | 'verified' | 'unverified';

/** The headers one message gets: From (display name + address) and Reply-To (null = none). */
export interface EffectiveSender {
  from: { name: string; address: string };
  replyTo: string | null;
  /** True when `from.address` is the organisation's own address. */
  proven: boolean;
  proof: SenderProof;
}

/**
 * The comparison form of an email address: trimmed, lower-cased as a whole (local part and domain, see module doc).
 * `" Hello@Partner.Punctual.Local "` → `"hello@partner.punctual.local"`. Never throws.
 */
export function normaliseAddress(address: string): string {
  return address.trim().toLowerCase();
}

/** The normalised (IDNA, lower-case) domain of an address — the part after its last `@` — or null. */
export function domainOfAddress(address: string): string | null {
  const a = address.trim();
  const at = a.lastIndexOf('@');
  if (at <= 0 || at === a.length - 1) return null;
  return normaliseDomain(a.slice(at + 1));
}

/**
 * Parses the operator's allowlist (`PUNCTUAL_SENDER_DOMAINS`): domains separated by commas or white space, a leading
 * `@` or `*.` allowed and ignored. Empty input = no domain.
 * @returns the normalised domains, or the first entry that is not a domain name.
 */
export function parseSenderDomains(input: string | undefined): { ok: true; domains: string[] } | { ok: false; invalid: string } {
  const out: string[] = [];
  for (const raw of (input ?? '').split(/[\s,;]+/).filter((s) => s !== '')) {
    const d = normaliseDomain(raw.replace(/^@/, '').replace(/^\*\./, ''));
    if (!d) return { ok: false, invalid: raw };
    if (!out.includes(d)) out.push(d);
  }
  return { ok: true, domains: out };
}

/** True when the address's domain is a listed domain or a subdomain of one (`a@x.example.com` under `example.com`). */
export function isAllowlisted(address: string, allowedDomains: readonly string[]): boolean {
  const d = domainOfAddress(address);
  if (!d) return false;
  return allowedDomains.some((a) => d === a || d.endsWith(`.${a}`));
}

/** Whether and how the organisation's current sender address is proven (module doc). */
export function senderProof(t: Pick<SenderFields, 'senderEmail' | 'senderVerifiedEmail'>, cfg: Pick<SenderIdentityConfig, 'allowedDomains' | 'defaultSender'>): SenderProof {
  if (normaliseAddress(t.senderEmail) === normaliseAddress(cfg.defaultSender)) return 'default';
  if (t.senderVerifiedEmail && t.senderVerifiedEmail === normaliseAddress(t.senderEmail)) return 'verified';
  if (isAllowlisted(t.senderEmail, cfg.allowedDomains)) return 'allowlist';
  return 'unverified';
}

/** The display name of the organisation's mail: its sender name, or its name when none is set. */
function displayNameOf(t: Pick<SenderFields, 'name' | 'senderName'>): string {
  return t.senderName?.trim() || t.name;
}

/**
 * From and Reply-To of a message sent in organisation `t`'s name — the ONE rule every place that sends mail uses
 * (reminders, notifications, nudges, test messages, password resets, alerts):
 *
 * | proof                               | From                                   | Reply-To                                    |
 * | ----------------------------------- | -------------------------------------- | ------------------------------------------- |
 * | `default` / `verified` / `allowlist` | display name <sender_email>           | reply_to, or none                           |
 * | `unverified`             | display name <default sender>          | reply_to, or else sender_email (unproven)   |
 *
 * @param opts.displayName replaces the display name (alerts: "<name> (Punctual alerts)").
 */
export function effectiveSender(t: SenderFields, cfg: SenderIdentityConfig, opts: { displayName?: string } = {}): EffectiveSender {
  const name = opts.displayName ?? displayNameOf(t);
  const proof = senderProof(t, cfg);
  if (proof !== 'unverified') return { from: { name, address: t.senderEmail.trim() }, replyTo: t.replyTo, proven: true, proof };
  return { from: { name, address: cfg.defaultSender }, replyTo: t.replyTo ?? t.senderEmail.trim(), proven: false, proof };
}

/** How another organisation holds an address (for the refusal of a save). */
interface OtherHolder {
  /** The other organisation's current sender address (any case). */
  senderEmail: string;
  senderVerifiedEmail: string | null;
}

/**
 * An address's mailbox for comparison: normalised, with an RFC 5233 subaddress (`+tag`) dropped from the local part
 * — `hello+x@partner.example` is delivered to `hello@partner.example`.
 */
function mailboxKey(normalised: string): string {
  const at = normalised.lastIndexOf('@');
  return at > 0 ? normalised.slice(0, at).replace(/\+.*$/, '') + normalised.slice(at) : normalised;
}

/**
 * Whether an organisation may set `address` as its sender given the OTHER organisations. Refused when one of them has
 * proven (verified, by link or by the operator, or allowlisted and set first) an address that is
 *   - the same mailbox: the same normalised address, or the same but for a subaddress (`hello+x@…`, RFC 5233); or
 *   - at the same domain — a domain one organisation has proven is that organisation's, as with email providers'
 *     domain verification —, unless that domain is itself an entry of the operator's list (`PUNCTUAL_SENDER_DOMAINS`:
 *     the deployment's shared domain, where each organisation may have an address of its own, and only the same
 *     mailbox is refused). A subdomain of an entry (`partner.punctual.local` under `punctual.local`) is a domain of
 *     its own.
 * The deployment's default sender, and organisations that use it, are nobody's. Partnerships do not change this: a
 * partner's guests are already written to in the partner's own name (domain/organisations/guest-sender.ts), so no organisation
 * needs another's address as its own.
 */
export function senderAddressTaken(address: string, others: readonly OtherHolder[], cfg: SenderIdentityConfig): boolean {
  const n = normaliseAddress(address);
  const defaultSender = normaliseAddress(cfg.defaultSender);
  // The deployment's default sender is everyone's: unproven mail goes from it anyway.
  if (n === defaultSender) return false;
  const domain = domainOfAddress(n);
  const sharedDomain = domain !== null && cfg.allowedDomains.includes(domain);
  return others.some((o) => {
    const theirs = normaliseAddress(o.senderEmail);
    if (o.senderVerifiedEmail === n && theirs === n) return true;
    if (theirs === defaultSender) return false;
    const proven = o.senderVerifiedEmail === theirs || isAllowlisted(o.senderEmail, cfg.allowedDomains);
    if (!proven) return false;
    if (mailboxKey(theirs) === mailboxKey(n)) return true;
    return !sharedDomain && domain !== null && domainOfAddress(theirs) === domain;
  });
}

/**
 * What the settings page says about the sender, one plain sentence, e.g. "Mail goes out from reminders@x.example
 * (its domain is on this deployment's list of sender domains)." or "Not verified yet: mail goes out from
 * noreply@punctual.local with Reply-To news@unverified.example."
 */
export function describeSender(t: SenderFields, cfg: SenderIdentityConfig): string {
  const e = effectiveSender(t, cfg);
  if (e.proof === 'allowlist') return `Mail goes out from ${e.from.address} (its domain is on this deployment’s list of sender domains).`;
  if (e.proof === 'verified') return `Mail goes out from ${e.from.address} (verified).`;
  if (e.proof === 'default') return `Mail goes out from ${e.from.address}, this deployment’s own sender address.`;
  return `${t.senderEmail.trim()} is not verified yet: mail goes out from ${e.from.address} with Reply-To ${e.replyTo}.`;
}

/** How long a verification link can be used (ms): 24 hours. */
export const SENDER_VERIFICATION_TTL_MS = 24 * 3600_000;

/** The page a verification link opens (an admin of the organisation confirms there, signed in). */
const SENDER_VERIFICATION_PATH = '/settings/verify-sender';

/** The verification link: `<base>/settings/verify-sender?token=<token>` (`base` without a trailing slash). */
export function senderVerificationUrl(base: string, token: string): string {
  return `${base.replace(/\/+$/, '')}${SENDER_VERIFICATION_PATH}?token=${encodeURIComponent(token)}`;
}

