/**
 * Canonical form of a compact JWS (RFC 7515 §7.1) as we issue it: exactly three segments, each the unpadded
 * base64url (RFC 4648 §5, RFC 7515 §2 "Base64url Encoding") of its bytes — and the ONLY spelling of those bytes.
 *
 * Why: a base64url segment whose length is not a multiple of 4 ends in a character carrying unused low bits
 * (a 32-byte HMAC is 43 characters: the last one holds 4 bits of data and 2 unused). Decoders ignore those bits,
 * so `…s`, `…t`, `…u`, `…v` decode to the same signature and all verify. Node's decoder also skips characters
 * outside the alphabet, padding and whitespace. A signed link is checked with {@link isCanonicalCompactJws}
 * before any crypto, so a token with any character changed is refused (issue #10 §5: "a token with one byte
 * changed → 400"), not only the changes that happen to alter the decoded bytes.
 */

const SEGMENT = /^[A-Za-z0-9_-]*$/;

/**
 * True when `token` is three `.`-separated segments, each made only of base64url characters and equal to the
 * base64url encoding of the bytes it decodes to (no padding, no unused bits set, no skipped characters).
 * The signature segment may not be empty (an unsigned `alg: none` token is refused here already). Pure; never throws.
 */
export function isCanonicalCompactJws(token: string): boolean {
  if (typeof token !== 'string') return false;
  const parts = token.split('.');
  if (parts.length !== 3 || parts[2] === '') return false;
  return parts.every((p) => SEGMENT.test(p) && Buffer.from(p, 'base64url').toString('base64url') === p);
}
