/**
 * Signed calendar feed URLs: `${baseUrl}/feeds/${token}.ics` (served over http/https) and its `webcal://` form
 * shown to staff (the de-facto scheme calendar apps subscribe with; it is the same URL with the scheme replaced).
 * The token follows the discipline of the unsubscribe link (server/sending/unsubscribe-link.ts): a compact JWS
 * (RFC 7515), HMAC-SHA-256 (`HS256`, RFC 7518 §3.2) by `jose`, checked for canonical base64url first
 * (server/sending/compact-token.ts), so no table of tokens is needed.
 *
 * - Payload: 36 raw bytes — the tenant id's 16 bytes, the contact id's 16 and the feed generation as 4 bytes,
 *   big-endian (db/schema/calendar.ts `calendar_feeds.generation`). The token does not expire: a feed is
 *   subscribed to for years. It is revoked by rotating (the generation goes up; the route compares it with the
 *   stored one and answers 404 for an older one — server/calendar/calendar-feed.ts).
 * - Purpose binding is by key: HKDF info `punctual-calendar-feed` (a different key from the unsubscribe and
 *   preferences links'), and the payload length differs from theirs too.
 * - Rotation of the session secret: signed with the key of `BETTER_AUTH_SECRET` (else `AUTH_SECRET`), checked
 *   against it and the key of `PUNCTUAL_PREVIOUS_AUTH_SECRET` when set. Feed URLs live long: keep the previous
 *   secret for as long as subscribed calendars should keep working, or rotate people's feeds.
 */
import { hkdfSync } from 'node:crypto';
import { CompactSign, compactVerify } from 'jose';
import { isUuid } from '@/domain/ids';
import { isCanonicalCompactJws } from '@/server/sending/compact-token';

const ALG = 'HS256';
/** Longest token accepted before any crypto is done (a real one is ~120 characters). */
const MAX_TOKEN_LENGTH = 1024;
const PAYLOAD_LENGTH = 36;

/** What a feed URL names: whose contact and which generation of their feed (integer 0 … 2³²−1). */
export interface FeedSubject {
  tenantId: string;
  contactId: string;
  generation: number;
}

const keyOf = (secret: string) => new TextEncoder().encode(secret);
const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');
const uuidOf = (b: Uint8Array) => {
  const h = Buffer.from(b).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/**
 * The token of a feed URL. Deterministic for a given subject and secret (the same URL every time staff look).
 * @param secret the first of {@link feedSecrets}.
 * @throws Error when `secret` is empty, an id is not a uuid, or the generation is not an integer 0 … 2³²−1.
 */
export async function signFeedToken(subject: FeedSubject, secret: string): Promise<string> {
  if (!secret) throw new Error('signFeedToken: secret is empty');
  if (!isUuid(subject.tenantId) || !isUuid(subject.contactId)) throw new Error('signFeedToken: tenantId and contactId must be uuids');
  if (!Number.isInteger(subject.generation) || subject.generation < 0 || subject.generation > 0xffffffff) throw new Error('signFeedToken: generation must be an integer 0 … 2^32-1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(subject.generation, 0);
  const payload = Buffer.concat([uuidBytes(subject.tenantId), uuidBytes(subject.contactId), tail]);
  return new CompactSign(payload).setProtectedHeader({ alg: ALG }).sign(keyOf(secret));
}

/**
 * Checks a token against each key in `secrets` (the current one first, then a previous one during a rotation).
 * @returns the subject, or null for anything else: not canonical (any character changed), another key, another
 *   algorithm or `none`, a payload of another length (another purpose's token), garbage. Never throws. Whether the
 *   generation is still the current one is the caller's check (it needs the database).
 */
export async function verifyFeedToken(token: string, secrets: readonly string[]): Promise<FeedSubject | null> {
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return null;
  if (!isCanonicalCompactJws(token)) return null;
  for (const secret of secrets) {
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
    if (!isUuid(tenantId) || !isUuid(contactId)) return null;
    return { tenantId, contactId, generation: Buffer.from(payload.subarray(32)).readUInt32BE(0) };
  }
  return null;
}

/** The HKDF-SHA-256 (RFC 5869) key for feed URLs from one session secret: empty salt, info `punctual-calendar-feed`, 32 bytes, base64url. */
export function feedKey(sessionSecret: string): string {
  return Buffer.from(hkdfSync('sha256', sessionSecret, Buffer.alloc(0), 'punctual-calendar-feed', 32)).toString('base64url');
}

/**
 * The keys feed tokens are checked against, the signing key first: {@link feedKey} of `BETTER_AUTH_SECRET` (else
 * `AUTH_SECRET`), then of `PUNCTUAL_PREVIOUS_AUTH_SECRET` when set and different.
 * @throws Error naming BETTER_AUTH_SECRET when neither session variable is set.
 */
export function feedSecrets(env: Record<string, string | undefined> = process.env): string[] {
  const base = env.BETTER_AUTH_SECRET || env.AUTH_SECRET;
  if (!base) throw new Error('BETTER_AUTH_SECRET: not set — calendar feed URLs are signed with a key derived from it');
  const keys = [feedKey(base)];
  if (env.PUNCTUAL_PREVIOUS_AUTH_SECRET && env.PUNCTUAL_PREVIOUS_AUTH_SECRET !== base) keys.push(feedKey(env.PUNCTUAL_PREVIOUS_AUTH_SECRET));
  return keys;
}

/** The feed's https/http address: `${baseUrl}/feeds/${token}.ics` (a trailing slash on `baseUrl` is dropped). */
export function feedUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/feeds/${token}.ics`;
}

/** The same address with the `webcal:` scheme (what calendar apps subscribe to); an address that is not http(s) is returned as is. */
export function webcalUrl(httpUrl: string): string {
  return httpUrl.replace(/^https?:/i, 'webcal:');
}
