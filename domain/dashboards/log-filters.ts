/**
 * The filters of the deliveries log (/deliveries) and the audit log (/audit), parsed from a query string ONCE
 * for both the page and its CSV export (issue #13: "the export has exactly the filters the page has"). A
 * malformed value is dropped (`.catch`), as the pages always did: a hand-edited URL shows a wider list, never
 * an error. Pure (zod and luxon only). Dates are local days (YYYY-MM-DD) in the tenant's zone; `to` is
 * inclusive — the query gets the instant range [local midnight of `from`, local midnight after `to`).
 */
import { DateTime } from 'luxon';
import { z } from 'zod';
import { auditActions, channels, deliveryStatuses, type AuditAction, type Channel, type DeliveryStatus } from '@/domain/vocabulary';

/**
 * Local midnight of `date` (YYYY-MM-DD, from a filter form) in `zone`, plus `plusDays`, as a UTC instant;
 * undefined for a date that does not exist or lies outside 1900–2199 (year 0000 would not reach PostgreSQL
 * intact). Used for inclusive date-range filters: [localMidnight(from), localMidnight(to, 1)).
 */
export function localMidnight(date: string | undefined, zone: string, plusDays = 0): Date | undefined {
  if (!date) return undefined;
  const d = DateTime.fromISO(date, { zone });
  return d.isValid && d.year >= 1900 && d.year <= 2199 ? d.plus({ days: plusDays }).toJSDate() : undefined;
}

/**
 * A search box's text from the query string: trimmed, at most 200 characters, control characters removed
 * (PostgreSQL text cannot hold NUL); anything malformed becomes ''.
 */
export const searchText = z
  .string()
  // eslint-disable-next-line no-control-regex
  .transform((v) => v.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200))
  .catch('')
  .default('');

/** A query string as Next hands it to a page (`searchParams`) or as `URLSearchParams` in a route handler. */
type RawQuery = Record<string, string | string[] | undefined> | URLSearchParams;

function firstValues(raw: RawQuery): Record<string, string | undefined> {
  if (raw instanceof URLSearchParams) return Object.fromEntries([...new Set(raw.keys())].map((k) => [k, raw.get(k) ?? undefined]));
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
}

const deliveriesSchema = z.object({
  page: z.coerce.number().int().min(1).catch(1),
  q: searchText,
  status: z.enum(deliveryStatuses).optional().catch(undefined),
  channel: z.enum(channels).optional().catch(undefined),
  from: z.iso.date().optional().catch(undefined),
  to: z.iso.date().optional().catch(undefined),
});
export type DeliveriesQuery = z.output<typeof deliveriesSchema>;

const auditSchema = z.object({
  page: z.coerce.number().int().min(1).catch(1),
  action: z.enum(auditActions).optional().catch(undefined),
  from: z.iso.date().optional().catch(undefined),
  to: z.iso.date().optional().catch(undefined),
});
export type AuditQuery = z.output<typeof auditSchema>;

/** The /deliveries filters of a query string (never throws). */
export function parseDeliveriesQuery(raw: RawQuery): DeliveriesQuery {
  return deliveriesSchema.parse(firstValues(raw));
}

/** The /audit filters of a query string (never throws). */
export function parseAuditQuery(raw: RawQuery): AuditQuery {
  return auditSchema.parse(firstValues(raw));
}

/** What the deliveries query filters on (db/queries/dashboards/deliveries-log.ts `DeliveryFilter`): instants are UTC. */
interface DeliveryQueryFilter {
  q?: string;
  status?: DeliveryStatus;
  channel?: Channel;
  from?: Date;
  to?: Date;
}

/** The deliveries query's filter for these page filters, dates resolved in the tenant's `zone`. */
export function deliveryFilterOf(f: DeliveriesQuery, zone: string): DeliveryQueryFilter {
  return { q: f.q || undefined, status: f.status, channel: f.channel, from: localMidnight(f.from, zone), to: localMidnight(f.to, zone, 1) };
}

/** The audit query's filter for these page filters, dates resolved in the tenant's `zone`. */
export function auditFilterOf(f: AuditQuery, zone: string): { action?: AuditAction; from?: Date; to?: Date } {
  return { action: f.action, from: localMidnight(f.from, zone), to: localMidnight(f.to, zone, 1) };
}

/** The filters that are set, as query parameters (no `page`): for the pager, the export link and the export's audit entry. */
export function deliveriesParams(f: DeliveriesQuery): Record<string, string> {
  const params: Record<string, string> = {};
  for (const k of ['q', 'channel', 'status', 'from', 'to'] as const) if (f[k]) params[k] = String(f[k]);
  return params;
}

/** The audit filters that are set, as query parameters (no `page`). */
export function auditParams(f: AuditQuery): Record<string, string> {
  const params: Record<string, string> = {};
  for (const k of ['action', 'from', 'to'] as const) if (f[k]) params[k] = String(f[k]);
  return params;
}

/** `path` with `params` as its query string (none → just `path`). */
export function withQuery(path: string, params: Record<string, string>): string {
  const qs = new URLSearchParams(params).toString();
  return qs ? `${path}?${qs}` : path;
}
