/**
 * VERP bounce addresses (issue #10 §4): the SMTP envelope sender (`MAIL FROM`, which the receiving side records as
 * `Return-Path`, RFC 5321 §4.4) of every message sent over SMTP names the delivery it belongs to, so an
 * asynchronous bounce — an RFC 3464 delivery status notification, which MTAs send to the envelope sender — leads
 * back to exactly that delivery without relying on the bounce quoting our headers.
 *
 *   bounces+<token>@<bounce domain>
 *   token = <delivery uuid as 32 lowercase hex digits> "-" <tag>
 *   tag   = first 10 lowercase hex digits of HMAC-SHA-256(key, "<32 hex digits>")
 *
 * - Lowercase only: a mail system may fold the case of the local part (RFC 5321 §2.4 says it must not, some do);
 *   a folded address still parses (it is lowercased before it is read).
 * - The local part is `bounces+` + 32 + 1 + 10 = 51 characters, within RFC 5321 §4.5.3.1.1's 64.
 * - The tag (40 bits) stops anyone without the key from making up an address that names one of our deliveries
 *   (a forged bounce cannot suppress an address); it is compared in constant time. Rotating the key makes the
 *   bounce addresses of mail already sent unreadable: their bounces then match by the returned headers only.
 * Pure: no clock, no environment (the key comes from server/sending/bounce-address.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isUuid } from '@/domain/ids';

/** Local-part prefix of every bounce address (before the `+`). */
const VERP_PREFIX = 'bounces';
/** Hex digits of the HMAC kept in the token. */
const VERP_TAG_LENGTH = 10;

const tokenPattern = new RegExp(`^${VERP_PREFIX}\\+([0-9a-f]{32})-([0-9a-f]{${VERP_TAG_LENGTH}})@([^@\\s]+)$`);
const domainPattern = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

function tagOf(hex: string, key: string): string {
  return createHmac('sha256', key).update(hex).digest('hex').slice(0, VERP_TAG_LENGTH);
}

/**
 * The bounce address of delivery `deliveryId` at `domain`, e.g.
 * `bounces+3f2a…9c1e-5b0d7e21aa@demo.punctual.local`. Deterministic for one id, domain and key.
 * @param domain the bounce domain ({@link bounceDomainOf}); lowercased.
 * @param key the VERP key (server/sending/bounce-address.ts `bounceAddressKey`), non-empty.
 * @throws Error when `deliveryId` is not a uuid, `domain` is not a domain name, or `key` is empty.
 */
export function verpAddress(deliveryId: string, domain: string, key: string): string {
  if (!isUuid(deliveryId)) throw new Error(`verpAddress: deliveryId must be a uuid (got ${JSON.stringify(deliveryId)})`);
  if (!key) throw new Error('verpAddress: key is empty');
  const d = domain.trim().toLowerCase();
  if (!domainPattern.test(d)) throw new Error(`verpAddress: ${JSON.stringify(domain)} is not a domain name`);
  const hex = deliveryId.replace(/-/g, '').toLowerCase();
  return `${VERP_PREFIX}+${hex}-${tagOf(hex, key)}@${d}`;
}

/**
 * The delivery id (lowercase uuid text form) a bounce address names, or null when `address` is not one of ours:
 * another shape, a tag that does not verify under `key` (forged, or made with another key), or garbage. Accepts
 * the address with or without angle brackets (`<…>`, as in `Return-Path`) and in any case. Never throws.
 */
export function parseVerpAddress(address: string, key: string): string | null {
  if (typeof address !== 'string' || !key || address.length > 320) return null;
  const a = address.trim().replace(/^<(.*)>$/, '$1').trim().toLowerCase();
  const m = tokenPattern.exec(a);
  if (!m) return null;
  const [, hex, tag] = m;
  const expected = Buffer.from(tagOf(hex, key), 'utf8');
  const given = Buffer.from(tag, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The domain of a tenant's bounce addresses: its `bounce_domain` when set (non-blank), else the domain of its
 * `sender_email`; lowercased.
 * @throws Error when neither yields a domain (a sender address without `@`).
 */
export function bounceDomainOf(tenant: { bounceDomain: string | null; senderEmail: string }): string {
  const own = tenant.bounceDomain?.trim();
  if (own) return own.toLowerCase();
  const at = tenant.senderEmail.lastIndexOf('@');
  const domain = at >= 0 ? tenant.senderEmail.slice(at + 1).trim() : '';
  if (!domain) throw new Error(`bounceDomainOf: sender address ${JSON.stringify(tenant.senderEmail)} has no domain`);
  return domain.toLowerCase();
}
