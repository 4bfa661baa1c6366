/**
 * Signed links to a contact's preference page (issue #9): `${baseUrl}/preferences/${token}`, where the token is
 * a compact JWS / JWT (RFC 7515, RFC 7519) signed with HMAC-SHA-256 (`HS256`, RFC 7518 §3.2) by `jose`.
 *
 * - Claims: `purpose: 'preferences'` (a token made for anything else is refused), `v: 1` (the claim layout's
 *   version, so a later layout can refuse or migrate old links), `tenant` (tenant id) and `sub` (contact id).
 * - No `exp` and no `iat`: a link in an old email keeps working, and the same contact always gets the same link
 *   (a retried send renders the same message). Revoking every link means changing the secret.
 * - The key is NOT the session secret itself: {@link preferencesSecret} derives a separate key from it with
 *   HKDF-SHA-256 (RFC 5869), info `punctual-preferences`, so a preference token can never pass as anything
 *   signed with the session secret, nor the other way round.
 */
import { hkdfSync } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { isUuid } from '../domain/ids';

const PURPOSE = 'preferences';
const VERSION = 1;
const ALG = 'HS256';
/** Longest token accepted before any crypto is done (a real one is about 250 characters). */
const MAX_TOKEN_LENGTH = 2048;

export interface PreferenceLinkSubject {
  tenantId: string;
  contactId: string;
}

const keyOf = (secret: string) => new TextEncoder().encode(secret);

/**
 * A token for the contact's preference page. Deterministic for a given subject and secret.
 * @param secret from {@link preferencesSecret} (any non-empty string works; use the derived one).
 * @throws Error when `secret` is empty or an id is not a uuid.
 */
export async function signPreferenceToken(subject: PreferenceLinkSubject, secret: string): Promise<string> {
  if (!secret) throw new Error('signPreferenceToken: secret is empty');
  if (!isUuid(subject.tenantId) || !isUuid(subject.contactId)) throw new Error('signPreferenceToken: tenantId and contactId must be uuids');
  return new SignJWT({ purpose: PURPOSE, v: VERSION, tenant: subject.tenantId })
    .setProtectedHeader({ alg: ALG })
    .setSubject(subject.contactId)
    .sign(keyOf(secret));
}

/**
 * The subject of a preference token, or null for anything that is not one signed with `secret`: malformed,
 * tampered with, signed with another secret or algorithm, another purpose or version, ids that are not uuids.
 * Never throws.
 */
export async function verifyPreferenceToken(token: string, secret: string): Promise<PreferenceLinkSubject | null> {
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH || !secret) return null;
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), { algorithms: [ALG] });
    if (payload.purpose !== PURPOSE || payload.v !== VERSION) return null;
    if (!isUuid(payload.tenant) || !isUuid(payload.sub)) return null;
    return { tenantId: payload.tenant, contactId: payload.sub };
  } catch {
    return null;
  }
}

/**
 * The key preference links are signed with: HKDF-SHA-256 (RFC 5869) of the staff session secret — the same
 * secret server/auth.ts hands better-auth: `BETTER_AUTH_SECRET` (else `AUTH_SECRET`, better-auth's fallback;
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
