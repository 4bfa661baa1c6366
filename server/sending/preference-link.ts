/**
 * Signed links to a contact's preference page (issue #9): `${baseUrl}/preferences/${token}`, where the token is
 * a compact JWS (RFC 7515) signed with HMAC-SHA-256 (`HS256`, RFC 7518 §3.2) by `jose`.
 *
 * - Payload: 32 raw bytes — the tenant id's 16 bytes, then the contact id's (base64url: 43 characters). It is
 *   kept this small on purpose: the link goes into every SMS, where each character costs (a JSON claim set
 *   made the link ~200 characters and most SMS three segments; this one is ~110).
 * - Purpose binding is by key, not by a claim: the key is derived for this purpose only (below), so no other
 *   token of ours verifies here, and a payload that is not exactly two uuids is refused.
 * - No expiry: a link in an old email keeps working, and the same contact always gets the same link (a retried
 *   send renders the same message). Revoking every link means changing the secret (or the HKDF info).
 * - The key is NOT the session secret itself: {@link preferencesSecret} derives a separate key from it with
 *   HKDF-SHA-256 (RFC 5869), info `punctual-preferences`, so a preference token can never pass as anything
 *   signed with the session secret, nor the other way round.
 */
import { hkdfSync } from 'node:crypto';
import { CompactSign, compactVerify } from 'jose';
import { isUuid } from '@/domain/ids';
import { isCanonicalCompactJws } from './compact-token';

const ALG = 'HS256';
/** Longest token accepted before any crypto is done (a real one is 108 characters). */
const MAX_TOKEN_LENGTH = 2048;

interface PreferenceLinkSubject {
  tenantId: string;
  contactId: string;
}

const keyOf = (secret: string) => new TextEncoder().encode(secret);
const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');
const uuidOf = (b: Uint8Array) => {
  const h = Buffer.from(b).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/**
 * A token for the contact's preference page. Deterministic for a given subject and secret.
 * @param secret from {@link preferencesSecret} (any non-empty string works; use the derived one).
 * @throws Error when `secret` is empty or an id is not a uuid.
 */
export async function signPreferenceToken(subject: PreferenceLinkSubject, secret: string): Promise<string> {
  if (!secret) throw new Error('signPreferenceToken: secret is empty');
  if (!isUuid(subject.tenantId) || !isUuid(subject.contactId)) throw new Error('signPreferenceToken: tenantId and contactId must be uuids');
  const payload = Buffer.concat([uuidBytes(subject.tenantId), uuidBytes(subject.contactId)]);
  return new CompactSign(payload).setProtectedHeader({ alg: ALG }).sign(keyOf(secret));
}

/**
 * The subject of a valid token, or null for anything else (tampered — any character changed, including the
 * unused low bits of a segment's last character: every segment must be canonical base64url,
 * server/sending/compact-token.ts —, another key, another algorithm or `none`,
 * a payload that is not two uuids, garbage). Never throws.
 */
export async function verifyPreferenceToken(token: string, secret: string): Promise<PreferenceLinkSubject | null> {
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH || !secret) return null;
  if (!isCanonicalCompactJws(token)) return null;
  try {
    const { payload } = await compactVerify(token, keyOf(secret), { algorithms: [ALG] });
    if (payload.length !== 32) return null;
    const tenantId = uuidOf(payload.subarray(0, 16));
    const contactId = uuidOf(payload.subarray(16));
    if (!isUuid(tenantId) || !isUuid(contactId)) return null;
    return { tenantId, contactId };
  } catch {
    return null;
  }
}

/**
 * The key preference links are signed with: HKDF-SHA-256 (RFC 5869) of the staff session secret — the same
 * secret server/accounts/auth.ts hands better-auth: `BETTER_AUTH_SECRET` (else `AUTH_SECRET`, better-auth's fallback;
 * `npm start` generates one per data folder, scripts/lib.ts `authSecret`) — with an empty salt and info
 * `punctual-preferences`, 32 bytes, as base64url. Deterministic: every web and worker process with the same
 * secret derives the same key.
 * @throws Error naming BETTER_AUTH_SECRET when neither variable is set.
 */
export function preferencesSecret(env: Record<string, string | undefined> = process.env): string {
  const base = env.BETTER_AUTH_SECRET || env.AUTH_SECRET;
  if (!base) {
    throw new Error('BETTER_AUTH_SECRET: not set — preference links are signed with a key derived from it (`npm start` generates one in <data folder>/auth-secret)');
  }
  return Buffer.from(hkdfSync('sha256', base, Buffer.alloc(0), 'punctual-preferences', 32)).toString('base64url');
}

/** The preference page's address: `${baseUrl}/preferences/${token}` (a trailing slash on `baseUrl` is dropped). */
export function preferencesUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/preferences/${token}`;
}
