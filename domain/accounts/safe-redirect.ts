/**
 * Where a `next` (return-to) parameter may send the browser (pure; issue #12 "open redirect after sign-in").
 *
 * Only a path on the app's own origin is followed. The value is parsed the way a browser parses a link — the
 * WHATWG URL parser, against the app's origin — and accepted only when the result keeps that origin. The
 * answer is the parser's own serialisation of the path (`pathname + search + hash`), so what the browser later
 * follows is exactly what was checked, never the raw text. That closes the forms browsers "fix up":
 * `/\evil.example` (a backslash is a slash in http(s) URLs), `/<TAB>/evil.example` (tabs and newlines are
 * removed anywhere), ` //evil.example` (leading spaces and controls are trimmed), `//evil.example`
 * (scheme-relative), `javascript:…`, `https://evil.example`, and `/.//evil.example` (which normalises to a
 * path that starts with `//`).
 */

/** A placeholder for "the app's own origin": only whether the parsed URL keeps it matters, never its name. */
const OWN_ORIGIN = 'http://punctual.invalid';

/** Longest `next` value followed; longer ones fall back (a return path is a page address, not a payload). */
export const MAX_RETURN_PATH_LENGTH = 2048;

/**
 * The local path `raw` names — `pathname + search + hash` as the URL parser serialises it — or `fallback` when
 * `raw` is not a string, is empty or too long ({@link MAX_RETURN_PATH_LENGTH}), does not start with exactly one
 * `/` (after the trimming browsers do), or would leave the app's origin.
 *
 * @param raw the untrusted value (a query parameter: string, string[] or undefined).
 * @param fallback what to use instead (default `/`, the dashboard); it is returned as given.
 * @returns a string starting with a single `/`, safe for `Location`, `redirect()` and `location.assign()`.
 */
export function safeReturnPath(raw: unknown, fallback = '/'): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_RETURN_PATH_LENGTH) return fallback;
  // What a browser does before parsing: strip leading/trailing C0 controls and spaces, drop every tab and newline.
  const seen = raw.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  if (!seen.startsWith('/') || seen.startsWith('//') || seen.startsWith('/\\')) return fallback;
  let url: URL;
  try {
    url = new URL(raw, `${OWN_ORIGIN}/`);
  } catch {
    return fallback;
  }
  if (url.origin !== OWN_ORIGIN) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // `/.//x` normalises to `//x`, which a browser would read as another host: never hand that out.
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return fallback;
  return path;
}
