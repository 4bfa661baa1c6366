/**
 * Signed one-click unsubscribe links (issue #10 §5; RFC 8058 with RFC 2369): `${baseUrl}/u/${token}`, put in
 * the `List-Unsubscribe` header and the footer of every non-essential email. The token is a compact JWS
 * (RFC 7515) signed with HMAC-SHA-256 (`HS256`, RFC 7518 §3.2) by `jose`, like the preferences link
 * (server/sending/preference-link.ts), so no table of tokens is needed: the link itself names what it unsubscribes.
 *
 * - Payload: 37 raw bytes — the tenant id's 16 bytes, the contact id's 16, one byte for the preference
 *   category (its index in domain/vocabulary.ts `preferenceCategories`: 0 reminders, 1 booking_updates) and the
 *   expiry as 4 bytes of unix seconds, big-endian (base64url: 50 characters; the whole token is ~125).
 * - Expiry ({@link unsubscribeExpiry}): the message's send instant + 365 days, rounded up to a UTC midnight,
 *   so every retry of one message renders the same link. An expired link is refused with `{ error: 'expired' }`
 *   (the person can still use the preferences link, which does not expire).
 * - Purpose binding is by key: {@link unsubscribeSecrets} derives the key from the session secret with HKDF
 *   info `punctual-unsubscribe`, a different key from the preferences link's (`punctual-preferences`), so a
 *   preferences token never verifies here nor the other way round (and the payload lengths differ too).
 * - Rotation: tokens are signed with the key of `BETTER_AUTH_SECRET` and verified against it AND, when set, the
 *   key of `PUNCTUAL_PREVIOUS_AUTH_SECRET`. When rotating the session secret, put the old one in
 *   `PUNCTUAL_PREVIOUS_AUTH_SECRET` for as long as mail sent before the rotation may still be clicked — at most
 *   the expiry, 366 days — then remove it.
 */
import { hkdfSync } from 'node:crypto';
import { CompactSign, compactVerify } from 'jose';
import { isUuid } from '@/domain/ids';
import { preferenceCategories, type PreferenceCategory } from '@/domain/vocabulary';
import { isCanonicalCompactJws } from './compact-token';

const ALG = 'HS256';
/** Longest token accepted before any crypto is done (a real one is ~125 characters). */
const MAX_TOKEN_LENGTH = 2048;
const PAYLOAD_LENGTH = 37;
const DAY_MS = 86_400_000;
/** How long a link keeps working after its message was sent. */
const UNSUBSCRIBE_VALID_DAYS = 365;

/** What an unsubscribe link names: whose contact, which category, and until when it works (UTC instant, whole seconds). */
export interface UnsubscribeSubject {
  tenantId: string;
  contactId: string;
  category: PreferenceCategory;
  expiresAt: Date;
}

/** The result of {@link verifyUnsubscribeToken}: the subject, "signed by us but expired", or null (anything else). */
type UnsubscribeVerification = UnsubscribeSubject | { error: 'expired'; expiredAt: Date } | null;

const keyOf = (secret: string) => new TextEncoder().encode(secret);
const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');
const uuidOf = (b: Uint8Array) => {
  const h = Buffer.from(b).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/**
 * The expiry of the link in a message sent at `sendInstant`: `sendInstant` + 365 days, rounded UP to the next
 * UTC midnight (unchanged when already on one) — the same for every instant of one UTC day, so a retry renders
 * the same link, and never less than 365 days.
 */
export function unsubscribeExpiry(sendInstant: Date): Date {
  const t = sendInstant.getTime() + UNSUBSCRIBE_VALID_DAYS * DAY_MS;
  return new Date(Math.ceil(t / DAY_MS) * DAY_MS);
}

/**
 * A token for a one-click unsubscribe from `subject.category`. Deterministic for a given subject and secret.
 * @param secret the first of {@link unsubscribeSecrets} (any non-empty string works; use the derived one).
 * @throws Error when `secret` is empty, an id is not a uuid, the category is unknown, or `expiresAt` is not a
 *   date between 1970 and 2106 (4 bytes of unix seconds).
 */
export async function signUnsubscribeToken(subject: UnsubscribeSubject, secret: string): Promise<string> {
  if (!secret) throw new Error('signUnsubscribeToken: secret is empty');
  if (!isUuid(subject.tenantId) || !isUuid(subject.contactId)) throw new Error('signUnsubscribeToken: tenantId and contactId must be uuids');
  const category = preferenceCategories.indexOf(subject.category);
  if (category < 0) throw new Error(`signUnsubscribeToken: unknown category ${JSON.stringify(subject.category)}`);
  const seconds = Math.floor(subject.expiresAt.getTime() / 1000);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 0xffffffff) throw new Error('signUnsubscribeToken: expiresAt must be a date between 1970 and 2106');
  const tail = Buffer.alloc(5);
  tail.writeUInt8(category, 0);
  tail.writeUInt32BE(seconds, 1);
  const payload = Buffer.concat([uuidBytes(subject.tenantId), uuidBytes(subject.contactId), tail]);
  return new CompactSign(payload).setProtectedHeader({ alg: ALG }).sign(keyOf(secret));
}

/**
 * Checks a token against each key in `secrets` (the current one first, then a previous one during a rotation).
 * @returns the subject of a valid, unexpired token; `{ error: 'expired', expiredAt }` for a token one of the keys
 *   signed whose expiry is at or before `now`; null for anything else (tampered — any character changed, including
 *   the unused low bits of a segment's last character: every segment must be canonical base64url,
 *   server/sending/compact-token.ts —, another key, another algorithm or `none`, a payload that is not exactly tenant + contact + category + expiry, garbage). Never throws.
 */
export async function verifyUnsubscribeToken(token: string, secrets: string | readonly string[], now: Date): Promise<UnsubscribeVerification> {
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return null;
  if (!isCanonicalCompactJws(token)) return null;
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    if (!secret) continue;
    let payload: Uint8Array;
    try {
      payload = (await compactVerify(token, keyOf(secret), { algorithms: [ALG] })).payload;
    } catch {
      continue;
    }
    if (payload.length !== PAYLOAD_LENGTH) return null;
    const tenantId = uuidOf(payload.subarray(0, 16));
    const contactId = uuidOf(payload.subarray(16, 32));
    const tail = Buffer.from(payload.subarray(32));
    const category = preferenceCategories[tail.readUInt8(0)];
    if (!isUuid(tenantId) || !isUuid(contactId) || !category) return null;
    const expiresAt = new Date(tail.readUInt32BE(1) * 1000);
    if (expiresAt.getTime() <= now.getTime()) return { error: 'expired', expiredAt: expiresAt };
    return { tenantId, contactId, category, expiresAt };
  }
  return null;
}

/** The HKDF-SHA-256 (RFC 5869) key for unsubscribe links from one session secret: empty salt, info `punctual-unsubscribe`, 32 bytes, base64url. */
export function unsubscribeKey(sessionSecret: string): string {
  return Buffer.from(hkdfSync('sha256', sessionSecret, Buffer.alloc(0), 'punctual-unsubscribe', 32)).toString('base64url');
}

/**
 * The keys unsubscribe links are checked against, the signing key first: {@link unsubscribeKey} of
 * `BETTER_AUTH_SECRET` (else `AUTH_SECRET`, better-auth's fallback — the secret server/accounts/auth.ts and the
 * preferences link use), then of `PUNCTUAL_PREVIOUS_AUTH_SECRET` when set (module doc: rotation).
 * Deterministic: every web and worker process with the same secrets derives the same keys.
 * @throws Error naming BETTER_AUTH_SECRET when neither session variable is set.
 */
export function unsubscribeSecrets(env: Record<string, string | undefined> = process.env): string[] {
  const base = env.BETTER_AUTH_SECRET || env.AUTH_SECRET;
  if (!base) {
    throw new Error('BETTER_AUTH_SECRET: not set — unsubscribe links are signed with a key derived from it (`npm start` generates one in <data folder>/auth-secret)');
  }
  const keys = [unsubscribeKey(base)];
  if (env.PUNCTUAL_PREVIOUS_AUTH_SECRET && env.PUNCTUAL_PREVIOUS_AUTH_SECRET !== base) keys.push(unsubscribeKey(env.PUNCTUAL_PREVIOUS_AUTH_SECRET));
  return keys;
}

/** The one-click unsubscribe address: `${baseUrl}/u/${token}` (a trailing slash on `baseUrl` is dropped). */
export function unsubscribeUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/u/${token}`;
}
