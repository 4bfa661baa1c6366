/** The caught message's headers as name/value pairs, for the mailbox's message view (components/mailbox/MessageView.tsx). */

/** One header's value as text: strings as they are, address objects by their `text`, structured ones as `value; k=v`, arrays joined. */
function headerValue(value: unknown): string {
  if (value == null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(headerValue).join(', ');
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    // mailparser's address objects carry a ready-made `text`; structured headers carry `value` + `params`.
    if (typeof v.text === 'string') return v.text;
    if (typeof v.value === 'string') {
      const params = v.params && typeof v.params === 'object' ? Object.entries(v.params as object) : [];
      return [v.value, ...params.map(([k, p]) => `${k}=${String(p)}`)].join('; ');
    }
    return JSON.stringify(value);
  }
  return String(value);
}

/**
 * Header name/value pairs from whatever shape the catcher stored: a list of `{ key, line }` header lines,
 * a list of `[name, value]` pairs, or an object of name → value (strings, address objects, arrays).
 */
export function headerEntries(headers: unknown): [string, string][] {
  if (Array.isArray(headers)) {
    return headers.flatMap((h): [string, string][] => {
      if (Array.isArray(h) && h.length >= 2) return [[String(h[0]), headerValue(h[1])]];
      if (h && typeof h === 'object' && 'key' in h) {
        const { key, line, value } = h as { key: unknown; line?: unknown; value?: unknown };
        const text = typeof line === 'string' ? line.replace(/^[^:]*:\s*/, '') : headerValue(value);
        return [[String(key), text]];
      }
      return [];
    });
  }
  if (headers && typeof headers === 'object') {
    return Object.entries(headers as Record<string, unknown>).map(([k, v]) => [k, headerValue(v)]);
  }
  return [];
}
