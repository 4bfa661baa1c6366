/**
 * Idempotent creates: the rules of the `Idempotency-Key` request header (IETF httpapi draft "The
 * Idempotency-Key HTTP Header Field", draft-ietf-httpapi-idempotency-key-header). Pure: parsing the header,
 * the request fingerprint and what a repeated key means. The SQL is in db/queries/platform/idempotency.ts and the
 * transaction that ties a key to its creation in server/platform/idempotency.ts.
 *
 * - Syntax (draft §2.1): the value is an RFC 8941 Structured Field String, `Idempotency-Key: "8e03…"`. Most
 *   clients (and Punctual's own pages) send the key unquoted, so a value that does not start with `"` is
 *   taken as the key itself. Either way the key is 1–255 printable ASCII characters (%x20–7E, the sf-string
 *   alphabet) with at least one visible character; anything else is a 400 naming the header.
 * - Fingerprint (draft §2.4, "checksum of the entire request payload"): SHA-256 (hex) of the body as
 *   canonical JSON (RFC 8785 JCS: sorted keys, no insignificant whitespace, ES number form), so a repeat that
 *   only reorders keys or re-spaces the JSON is still the same request.
 * - Enforcement (draft §2.6, §2.7): a key seen with the same route and fingerprint → the first response
 *   again; with another body or on another route → 422. A repeat that arrives while the first is still
 *   being processed is NOT answered 409 here: it waits for the first to commit (server/platform/idempotency.ts),
 *   then gets its response — a double click must show success, not an error.
 * - Expiry (draft §2.3): a key is kept {@link IDEMPOTENCY_KEY_TTL_HOURS} hours; after that it may be used
 *   again as a new request.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { parseItem } from 'structured-headers';

/** Name of the request header (and the `field` of its errors). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** How long a key and its stored response are kept, hours (published in README, "The staff app"). */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;

/** Longest accepted key, characters. */
const IDEMPOTENCY_KEY_MAX = 255;

type KeyParse = { ok: true; key: string | null } | { ok: false; error: string };

const PRINTABLE = /^[\x20-\x7e]+$/;
const VISIBLE = /[\x21-\x7e]/;

/**
 * Reads the `Idempotency-Key` header value (`null` when the header is absent).
 * @returns `{ ok: true, key: null }` without the header; `{ ok: true, key }` for a valid key; `{ ok: false,
 *   error }` (a sentence starting with the header name) for an empty, too long, non-printable or malformed
 *   value, or for two values folded into one (`"a", "b"`: the draft allows one field per request).
 */
export function parseIdempotencyKey(value: string | null | undefined): KeyParse {
  if (value === null || value === undefined) return { ok: true, key: null };
  const raw = value.trim();
  let key = raw;
  if (raw.startsWith('"')) {
    try {
      const [item, params] = parseItem(raw);
      if (typeof item !== 'string') throw new Error('not a string');
      if (params.size > 0) return { ok: false, error: `${IDEMPOTENCY_HEADER}: parameters are not allowed after the key` };
      key = item;
    } catch {
      return { ok: false, error: `${IDEMPOTENCY_HEADER}: not one valid quoted string (RFC 8941 sf-string); send exactly one key, e.g. "8e03978e-40d5-43e8-bc93-6894a57f9324"` };
    }
  }
  if (key.length === 0) return { ok: false, error: `${IDEMPOTENCY_HEADER}: must not be empty` };
  if (key.length > IDEMPOTENCY_KEY_MAX) return { ok: false, error: `${IDEMPOTENCY_HEADER}: at most ${IDEMPOTENCY_KEY_MAX} characters (got ${key.length})` };
  if (!PRINTABLE.test(key) || !VISIBLE.test(key)) return { ok: false, error: `${IDEMPOTENCY_HEADER}: only printable ASCII characters are allowed (a UUID is a good key)` };
  return { ok: true, key };
}

/**
 * The request's canonical JSON (RFC 8785). `undefined` (no body) is `null`.
 * @throws TypeError for values JSON cannot represent (never the case for a parsed request body).
 */
export function canonicalJson(body: unknown): string {
  const s = canonicalize(body === undefined ? null : body);
  if (s === undefined) throw new TypeError('body cannot be represented as JSON');
  return s;
}

/** SHA-256 (lower-case hex) of {@link canonicalJson} of the body: the idempotency fingerprint. */
export function requestFingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body), 'utf8').digest('hex');
}

/** What a stored key says about a new request that carries it. */
type RepeatDecision = { kind: 'replay' } | { kind: 'mismatch'; reason: 'route' | 'body'; message: string };

/**
 * Decides a repeat of a key already stored (and not expired): the same route and fingerprint → replay the
 * stored response; anything else → mismatch (422, draft §2.7), with a message naming the header.
 */
export function decideRepeat(stored: { route: string; fingerprint: string }, incoming: { route: string; fingerprint: string }): RepeatDecision {
  if (stored.route !== incoming.route) {
    return { kind: 'mismatch', reason: 'route', message: `${IDEMPOTENCY_HEADER}: this key was already used for another request (${stored.route}); use a new key for a new request` };
  }
  if (stored.fingerprint !== incoming.fingerprint) {
    return { kind: 'mismatch', reason: 'body', message: `${IDEMPOTENCY_HEADER}: this key was already used with a different request body; use a new key for a new request` };
  }
  return { kind: 'replay' };
}
