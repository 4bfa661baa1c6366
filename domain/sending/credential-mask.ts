/**
 * Credentials in caught messages, and how the development mailbox hides them from everyone but their recipient.
 *
 * A message Punctual sends may carry a credential: a one-time password or sign-in link (`/set-password?token=…`,
 * better-auth's `/reset-password/<token>`), a sender-verification link, a contact's preference page
 * (`/preferences/<token>`), a one-click unsubscribe link (`/u/<token>`, also in `List-Unsubscribe`), a participant's
 * action link (`/a/<token>`) or calendar feed (`/feeds/<token>.ics`). Whoever reads the link can act as its recipient,
 * so the mailbox shows such a message to anyone but the person signed in as its recipient with every credential
 * replaced by {@link MASK_CHAR} characters, one per character hidden (a length hint that is not a working link).
 *
 * What counts as a credential, in any http(s) URL (any host: the public URL differs per deployment):
 *   - a path segment after one of {@link CREDENTIAL_PATH_PREFIXES} (the rest of the path: `/u/<token>` hides
 *     `<token>`), and
 *   - the value of a query or fragment parameter whose name is in {@link CREDENTIAL_PARAMS} (`token`, `code`,
 *     `sig`, …), on any path — so a link kind added later that follows the `?token=` convention is masked too.
 * Everything else of the URL (scheme, host, the prefix, other parameters) stays readable, so a developer still
 * sees where the link goes. Pure string work: no URL is fetched or normalised.
 */

/** The character a hidden credential character becomes (U+2022 BULLET). */
export const MASK_CHAR = '•';

/** Paths whose remainder (up to `?` or `#`) is a credential. Matched case-sensitively, as routes are. */
const CREDENTIAL_PATH_PREFIXES = ['/u/', '/preferences/', '/reset-password/', '/api/auth/reset-password/', '/a/', '/feeds/', '/verify-sender/'] as const;

/** Query/fragment parameter names whose value is a credential (compared without case). */
const CREDENTIAL_PARAMS = ['token', 'code', 'otp', 'key', 'sig', 'signature', 'secret', 'password', 'access_token'] as const;

const URL_RE = /\bhttps?:\/\/[^\s"'<>`()\[\]{}\\]+/gi;
const PARAM_NAMES = new Set<string>(CREDENTIAL_PARAMS);

/** A span `[start, end)` of a string to hide. */
type Span = [number, number];

/** The spans of credential characters inside one URL string `u` (offsets relative to `u`). */
function credentialSpansInUrl(u: string): Span[] {
  const spans: Span[] = [];
  const afterScheme = u.indexOf('//') + 2;
  const pathStart = (() => {
    const i = u.slice(afterScheme).search(/[/?#]/);
    return i < 0 ? u.length : afterScheme + i;
  })();
  const queryStart = (() => {
    const i = u.slice(pathStart).search(/[?#]/);
    return i < 0 ? u.length : pathStart + i;
  })();
  const path = u.slice(pathStart, queryStart);
  for (const prefix of CREDENTIAL_PATH_PREFIXES) {
    // Anywhere in the path: a deployment may live under a base path (`https://host/punctual/u/<token>`). A
    // look-alike path of another site (`/a/…` of a room link) is masked too: hiding too much is the safe side.
    const at = path.indexOf(prefix);
    if (at >= 0) {
      const from = pathStart + at + prefix.length;
      if (from < queryStart) spans.push([from, queryStart]);
      break;
    }
  }
  // Parameters of the query and of the fragment (`#token=…`, as some sign-in flows put them).
  const paramRe = /([?#&;])([^=&#;?]*)=([^&#;]*)/g;
  const tail = u.slice(queryStart);
  for (let m = paramRe.exec(tail); m; m = paramRe.exec(tail)) {
    const name = decodeSafely(m[2]).toLowerCase();
    if (!PARAM_NAMES.has(name) || m[3].length === 0) continue;
    const from = queryStart + m.index + m[1].length + m[2].length + 1;
    spans.push([from, from + m[3].length]);
  }
  return spans;
}

function decodeSafely(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/**
 * `text` with every credential (module doc) of every http(s) URL in it replaced by {@link MASK_CHAR}, one per
 * character, and how many credentials were hidden. Works on plain text, HTML source (an `&amp;` between
 * parameters is read as a separator), header values and form bodies alike. URL-encoded URLs inside another
 * URL's parameter are not decoded (Punctual writes none).
 */
export function maskCredentials(text: string): { text: string; hidden: number } {
  const spans: Span[] = [];
  for (const m of text.matchAll(URL_RE)) {
    for (const [a, b] of credentialSpansInUrl(m[0])) spans.push([m.index! + a, m.index! + b]);
  }
  if (spans.length === 0) return { text, hidden: 0 };
  let out = '';
  let at = 0;
  for (const [a, b] of spans.sort((x, y) => x[0] - y[0])) {
    if (a < at) continue;
    out += text.slice(at, a) + MASK_CHAR.repeat(b - a);
    at = b;
  }
  return { text: out + text.slice(at), hidden: spans.length };
}

/**
 * HTML with its credentials masked ({@link maskCredentials}) and every link whose address held one made
 * unclickable: its `href` becomes `data-masked-href` (the masked address, for reading) and it gains
 * `aria-disabled="true"` and a title saying why. Only `href` attributes in double or single quotes are
 * rewritten (what React Email writes); the masking itself covers every URL in the source either way.
 */
export function maskCredentialsInHtml(html: string): { html: string; hidden: number } {
  const masked = maskCredentials(html);
  if (masked.hidden === 0) return { html, hidden: 0 };
  const out = masked.text.replace(/(\s)href\s*=\s*("[^"]*"|'[^']*')/gi, (whole, space: string, value: string) =>
    value.includes(MASK_CHAR) ? `${space}data-masked-href=${value} aria-disabled="true" title="Link hidden: only its recipient sees it"` : whole,
  );
  return { html: out, hidden: masked.hidden };
}

/**
 * Deep copy of a JSON-like value (a stored header map, an SMS form, a webhook's headers) with every string
 * masked by {@link maskCredentials}. Object keys are kept as they are.
 */
export function maskCredentialsDeep<T>(value: T): T {
  if (typeof value === 'string') return maskCredentials(value).text as T;
  if (Array.isArray(value)) return value.map((v) => maskCredentialsDeep(v)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, maskCredentialsDeep(v)])) as T;
  }
  return value;
}
