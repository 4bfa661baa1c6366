/** Text that can and cannot be stored (pure). */

/**
 * The dotted path of the first string in `value` that PostgreSQL text/JSON cannot hold — a NUL character or
 * a lone UTF-16 surrogate — or null when every string is storable.
 */
export function unstorableText(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value) ? path || 'body' : null;
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const hit = unstorableText(v, path ? `${path}.${k}` : k);
      if (hit) return hit;
    }
  }
  return null;
}

