/**
 * Limits on what a request may carry (pure; issue #12 "Bounded request bodies"). server/platform/request-body.ts applies
 * them to every API body before it is parsed into objects; the use-case schemas apply {@link FIELD_LIMITS} to
 * each field before PostgreSQL sees it (an over-long value used to reach a unique index and end as a 500).
 */

/** Deepest nesting of arrays/objects a JSON body may have (ours need 4; 32 leaves room and stops stack abuse). */
export const MAX_JSON_DEPTH = 32;

/** Longest string anywhere in a JSON body, in UTF-16 code units, unless the field has a smaller limit. */
export const MAX_TEXT_LENGTH = 10_000;

/**
 * Longest value per kind of field, in characters (UTF-16 code units), as the use-case schemas apply them:
 * - `address` 320: an email address (RFC 5321: 64 local part + @ + 255 domain) or a phone number;
 * - `name` 200: a person's or rule's name; `title` 200: an event's title;
 * - `reason` 500: a cancel/discard/replay/removal reason or a note; `url` 2 000: a room or webhook URL;
 * - `text` {@link MAX_TEXT_LENGTH}: the cap on any other string in a request.
 */
export const FIELD_LIMITS = {
  address: 320,
  name: 200,
  title: 200,
  reason: 500,
  url: 2_000,
  text: MAX_TEXT_LENGTH,
} as const;

/**
 * Whether the JSON text `text` nests arrays/objects deeper than `max` — a linear scan of the brackets outside
 * strings (escapes honoured), done BEFORE `JSON.parse`, so a body like `[[[[…]]]]` 10 000 levels deep is refused
 * without building it (and without recursion anywhere). Invalid JSON is not judged here (the parser refuses it).
 */
export function jsonDepthExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * The dotted path of the first string in `value` longer than `max` (`contact.name`, `ids.3`; `body` for the
 * value itself), or null. Recursive: call it only on values whose depth was bounded ({@link jsonDepthExceeds}).
 */
export function overlongText(value: unknown, max = MAX_TEXT_LENGTH, path = ''): string | null {
  if (typeof value === 'string') return value.length > max ? path || 'body' : null;
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const hit = overlongText(v, max, path ? `${path}.${k}` : k);
      if (hit) return hit;
    }
  }
  return null;
}

/**
 * Path of the first string in `value` (parsed JSON) holding a NUL character (U+0000) — keys included — or null. PostgreSQL
 * text cannot store NUL (error 22021, "invalid byte sequence for encoding UTF8: 0x00"), so such a value is refused as
 * bad input naming its field before any query sees it, instead of surfacing as a 500.
 */
export function textWithNul(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'body' : null;
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const at = path ? `${path}.${k}` : k;
      if (k.includes('\u0000')) return at;
      const hit = textWithNul(v, at);
      if (hit) return hit;
    }
  }
  return null;
}
