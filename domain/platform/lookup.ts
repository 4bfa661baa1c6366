/**
 * Looking a request-provided name up in a table (pure; issue #12 "Unknown actions are 404"). A plain object
 * literal answers `constructor`, `toString`, `__proto__`, `valueOf`, `hasOwnProperty` … from `Object.prototype`;
 * a name that came from a URL, a form or a webhook must only ever find the table's own entries.
 */

/** `table[key]` when `key` is one of the table's OWN properties, else undefined (never an inherited member). */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
