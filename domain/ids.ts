/** Row ids are UUIDs (RFC 9562 text form, any case). Pure. */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `id` has the shape of a uuid (anything else cannot be a row id; PostgreSQL would raise). */
export function isUuid(id: unknown): id is string {
  return typeof id === 'string' && uuidPattern.test(id);
}
