/**
 * Signed action links ("I'll be there" / "I can't come") in every message about a booking: `${baseUrl}/a/${token}`.
 * The same discipline as the one-click unsubscribe link (server/sending/unsubscribe-link.ts): a compact JWS
 * (RFC 7515) signed with HMAC-SHA-256 (`HS256`, RFC 7518 §3.2) by `jose`, so no table of tokens is needed.
 *
 * - Payload: 37 raw bytes (domain/scheduling/attendance.ts `encodeActionPayload`): tenant id 16, booking id 16, the
 *   answer 1 (0 confirmed, 1 declined), expiry 4 (unix seconds, big-endian).
 * - Expiry: the event's end (`actionLinkExpiry`), so every retry and every message of one booking renders the same
 *   link; after it the link is refused with `{ error: 'expired' }`.
 * - Purpose binding by key: {@link actionLinkKey} derives the key from the session secret with HKDF info
 *   `punctual-booking-action` — not the unsubscribe key (`punctual-unsubscribe`) nor the preferences key, so a token
 *   of another purpose never verifies here, even though the unsubscribe payload has the same length.
 * - Canonical encoding: a token whose segments are not the one base64url spelling of their bytes is refused before
 *   any crypto (server/sending/compact-token.ts).
 * - Rotation: signed with the key of `BETTER_AUTH_SECRET` (else `AUTH_SECRET`), verified against it and, when set, the
 *   key of `PUNCTUAL_PREVIOUS_AUTH_SECRET` — keep the old secret there until the last event booked before the rotation
 *   has ended.
 */
import { hkdfSync } from 'node:crypto';
import { CompactSign, compactVerify } from 'jose';
import { actionLinkExpiry, decodeActionPayload, encodeActionPayload, type ActionLinkAnswer, type ActionLinkSubject } from '@/domain/scheduling/attendance';
import { isCanonicalCompactJws } from './compact-token';

const ALG = 'HS256';
/** Longest token accepted before any crypto is done (a real one is ~125 characters). */
const MAX_TOKEN_LENGTH = 2048;

/** The result of {@link verifyActionToken}: the subject, "signed by us but expired", or null (anything else). */
export type ActionVerification = ActionLinkSubject | { error: 'expired'; expiredAt: Date } | null;

const keyOf = (secret: string) => new TextEncoder().encode(secret);

/**
 * A token for one answer to one booking. Deterministic for a given subject and secret.
 * @param secret the first of {@link actionLinkSecrets}.
 * @throws Error when `secret` is empty or the subject cannot be encoded (domain/scheduling/attendance.ts).
 */
export async function signActionToken(subject: ActionLinkSubject, secret: string): Promise<string> {
  if (!secret) throw new Error('signActionToken: secret is empty');
  return new CompactSign(encodeActionPayload(subject)).setProtectedHeader({ alg: ALG }).sign(keyOf(secret));
}

/**
 * Checks a token against each key in `secrets` (current first, then a previous one during a rotation).
 * @returns the subject of a valid, unexpired token; `{ error: 'expired', expiredAt }` when one of the keys signed it
 *   and its expiry is at or before `now`; null for anything else (tampered, non-canonical, another purpose's key,
 *   another algorithm or `none`, a wrong payload, garbage). Never throws.
 */
export async function verifyActionToken(token: string, secrets: string | readonly string[], now: Date): Promise<ActionVerification> {
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
    const subject = decodeActionPayload(payload);
    if (!subject) return null;
    if (subject.expiresAt.getTime() <= now.getTime()) return { error: 'expired', expiredAt: subject.expiresAt };
    return subject;
  }
  return null;
}

/** The HKDF-SHA-256 (RFC 5869) key for action links from one session secret: empty salt, info `punctual-booking-action`, 32 bytes, base64url. */
export function actionLinkKey(sessionSecret: string): string {
  return Buffer.from(hkdfSync('sha256', sessionSecret, Buffer.alloc(0), 'punctual-booking-action', 32)).toString('base64url');
}

/**
 * The keys action links are checked against, the signing key first: {@link actionLinkKey} of `BETTER_AUTH_SECRET`
 * (else `AUTH_SECRET`), then of `PUNCTUAL_PREVIOUS_AUTH_SECRET` when set and different.
 * @throws Error naming BETTER_AUTH_SECRET when neither session variable is set.
 */
export function actionLinkSecrets(env: Record<string, string | undefined> = process.env): string[] {
  const base = env.BETTER_AUTH_SECRET || env.AUTH_SECRET;
  if (!base) throw new Error('BETTER_AUTH_SECRET: not set — action links are signed with a key derived from it (`npm start` generates one in <data folder>/auth-secret)');
  const keys = [actionLinkKey(base)];
  if (env.PUNCTUAL_PREVIOUS_AUTH_SECRET && env.PUNCTUAL_PREVIOUS_AUTH_SECRET !== base) keys.push(actionLinkKey(env.PUNCTUAL_PREVIOUS_AUTH_SECRET));
  return keys;
}

/** The action page address: `${baseUrl}/a/${token}` (a trailing slash on `baseUrl` is dropped). */
export function actionUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/a/${token}`;
}

/**
 * Both action links of a booking for a message: `{ confirmUrl, declineUrl }`, each expiring at the event's end.
 * @throws Error as {@link signActionToken} and {@link actionLinkSecrets}.
 */
export async function actionLinksFor(
  baseUrl: string,
  booking: { tenantId: string; bookingId: string; eventEndsAt: Date },
  secret: string = actionLinkSecrets()[0],
): Promise<{ confirmUrl: string; declineUrl: string }> {
  const expiresAt = actionLinkExpiry(booking.eventEndsAt);
  const sign = (answer: ActionLinkAnswer) => signActionToken({ tenantId: booking.tenantId, bookingId: booking.bookingId, answer, expiresAt }, secret);
  return { confirmUrl: actionUrl(baseUrl, await sign('confirmed')), declineUrl: actionUrl(baseUrl, await sign('declined')) };
}
