/**
 * The `Content-Disposition` header of a download (RFC 6266 §4): `attachment` (save as a file) or `inline`
 * (show in the browser), with the file name twice — `filename="…"` as plain ASCII for old clients, and
 * `filename*=UTF-8''…` (RFC 8187 ext-value, percent-encoded UTF-8) which current browsers prefer (RFC 6266 §4.3).
 * Pure.
 *
 * In the ASCII form, characters that cannot appear in a quoted-string or that mean something to a file system
 * (`"` `\` `/` control characters, and anything outside printable ASCII) become `_`; an empty name becomes
 * `download`.
 */
export function contentDisposition(kind: 'attachment' | 'inline', filename: string): string {
  const name = filename.trim() || 'download';
  const ascii = name.replace(/[^\x20-\x7e]|["\\/]/g, '_');
  // RFC 8187 attr-char: ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
  const ext = Array.from(new TextEncoder().encode(name), (b) => {
    const c = String.fromCharCode(b);
    return /[A-Za-z0-9!#$&+\-.^_`|~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${ext}`;
}
