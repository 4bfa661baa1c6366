/**
 * The key of VERP bounce addresses (domain/sending/verp.ts) and the envelope sender of one delivery (issue #10 §4).
 *
 * The key is NOT the session secret itself: it is derived from it with HKDF-SHA-256 (RFC 5869), info
 * `punctual-verp` — the same scheme as the preference-link key (server/sending/preference-link.ts `preferencesSecret`,
 * info `punctual-preferences`), so neither key can stand in for the other or for the session secret. Every web,
 * worker and CLI process with the same `BETTER_AUTH_SECRET` derives the same key, so a bounce address made by a
 * worker is read by `npm run bounces:ingest` or the catcher. Changing the secret makes the bounce addresses of
 * mail already out unreadable (those bounces then match by the headers they quote, server/reports/bounces.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { hkdfSync } from 'node:crypto';
import { bounceDomainOf, verpAddress } from '@/domain/sending/verp';

/** HKDF `info` of the VERP key. */
const VERP_KEY_INFO = 'punctual-verp';

/**
 * The VERP key: HKDF-SHA-256 of `BETTER_AUTH_SECRET` (else `AUTH_SECRET`, better-auth's fallback) with an empty
 * salt and info `punctual-verp`, 32 bytes, as base64url. Deterministic.
 * @throws Error naming BETTER_AUTH_SECRET when neither variable is set.
 */
export function bounceAddressKey(env: Record<string, string | undefined> = process.env): string {
  const base = env.BETTER_AUTH_SECRET || env.AUTH_SECRET;
  if (!base) {
    throw new Error('BETTER_AUTH_SECRET: not set — bounce addresses (VERP) are signed with a key derived from it (`npm start` generates one in <data folder>/auth-secret)');
  }
  return Buffer.from(hkdfSync('sha256', base, Buffer.alloc(0), VERP_KEY_INFO, 32)).toString('base64url');
}

/**
 * The VERP key for a command-line tool: from `BETTER_AUTH_SECRET`/`AUTH_SECRET` when set, else from the secret
 * `npm start` keeps in `<dataRoot>/auth-secret` (read only, never created here), else null.
 */
export function bounceAddressKeyForCli(dataRoot: string, env: Record<string, string | undefined> = process.env): string | null {
  if (env.BETTER_AUTH_SECRET || env.AUTH_SECRET) return bounceAddressKey(env);
  try {
    const secret = fs.readFileSync(path.join(dataRoot, 'auth-secret'), 'utf8').trim();
    return secret ? bounceAddressKey({ BETTER_AUTH_SECRET: secret }) : null;
  } catch {
    return null;
  }
}

/**
 * The SMTP envelope sender (`MAIL FROM`, later `Return-Path`) of delivery `deliveryId` sent in `tenant`'s name
 * (the SENDING tenant: an external guest's own organisation when it reminds them): its VERP bounce address at
 * the tenant's bounce domain (`bounce_domain`, else the domain of `sender_email`).
 * @throws Error when the tenant's bounce domain is not a domain name, or `key` is empty.
 */
export function envelopeFromFor(tenant: { bounceDomain: string | null; senderEmail: string }, deliveryId: string, key: string): string {
  return verpAddress(deliveryId, bounceDomainOf(tenant), key);
}
