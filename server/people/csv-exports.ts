/**
 * CSV exports (issue #13): an event's participants, the deliveries log and the audit log, each with exactly the
 * filters its page has (domain/dashboards/log-filters.ts), in the dialect of domain/people/csv-export.ts (UTF-8 with a BOM, CRLF,
 * RFC 4180 quoting, the formula guard; instants as a UTC and a local column).
 *
 * Memory: the file is a stream. Rows are read in keyset pages of {@link EXPORT_PAGE_SIZE} (db/queries: the
 * next page starts after the last row's `(created_at, id)`, never an OFFSET), each page written out before
 * the next is read, and only when the reader (the browser) asks for more — a big export never holds more
 * than one page. Pages are separate reads, not one snapshot: a row written while the export runs may or may
 * not be in it (rows are never deleted, so none goes missing). At most {@link EXPORT_ROW_CAP} rows: past that
 * the file's last line says it stopped and asks for narrower filters.
 *
 * Scope and audit: every read is of the session's tenant (invariant 9). Each export writes an `export` audit
 * entry (what, and the filters) in its own transaction before the first row is read, after re-checking under a
 * lock that the staff member may still read (server/platform/versions.ts recheckActor) — the audit log's export then
 * lists itself.
 */
import type { Db } from '@/db/client';
import { appendAudit, auditAfter } from '@/db/queries/dashboards/audit';
import { deliveriesAfter, type KeysetCursor } from '@/db/queries/dashboards/deliveries-log';
import { participantsAfter } from '@/db/queries/people/participant-export';
import { getTenant } from '@/db/queries/scheduling/scheduling';
import { events } from '@/db/schema';
import { auditActionLabel, auditSubject } from '@/domain/dashboards/audit-view';
import { cappedNote, csvRecords, csvStart, EXPORT_ROW_CAP, exportFileName, instantCells, instantHeadings, type CsvCell } from '@/domain/people/csv-export';
import { isUuid } from '@/domain/ids';
import { auditFilterOf, auditParams, deliveriesParams, deliveryFilterOf, type AuditQuery, type DeliveriesQuery } from '@/domain/dashboards/log-filters';
import { and, eq } from 'drizzle-orm';
import { AppError } from '@/server/platform/errors';
import { childLogger, errField } from '@/server/platform/log';
import { recheckActor } from '@/server/platform/versions';

/** Rows per keyset page (one query each). */
const EXPORT_PAGE_SIZE = 1000;

/** Who is exporting: the session's tenant and staff member (app/_http/session.ts actionContext), `now` on the database clock. */
interface ExportContext {
  tenantId: string;
  actor: string;
  actorId?: string;
  now: Date;
}

/** A download: its file name (for domain/platform/content-disposition.ts) and its bytes as a stream. */
export interface CsvDownload {
  filename: string;
  body: ReadableStream<Uint8Array>;
}

/**
 * A CSV stream: the BOM and `headings`, then `row(r)` for every row `page` hands out, page after page, until a
 * short page — or `cap` rows, when the note of domain/people/csv-export.ts `cappedNote` ends the file. Pull-based: a
 * page is read only when the consumer wants more bytes.
 */
export function keysetCsvStream<R extends { cursor: KeysetCursor }>(opts: {
  headings: readonly string[];
  page: (after: KeysetCursor | null, limit: number) => Promise<R[]>;
  row: (r: R) => CsvCell[];
  what: string;
  cap?: number;
  pageSize?: number;
}): ReadableStream<Uint8Array> {
  const cap = opts.cap ?? EXPORT_ROW_CAP;
  const pageSize = opts.pageSize ?? EXPORT_PAGE_SIZE;
  const enc = new TextEncoder();
  let after: KeysetCursor | null = null;
  let written = 0;
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(enc.encode(csvStart(opts.headings)));
          return;
        }
        try {
          const room = cap - written;
          // One row more than fits tells whether the cap cut anything off.
          const rows = await opts.page(after, Math.min(pageSize, room + 1));
          const take = rows.slice(0, room);
          if (take.length) controller.enqueue(enc.encode(csvRecords(take.map(opts.row))));
          written += take.length;
          after = take.at(-1)?.cursor ?? after;
          if (rows.length > take.length) {
            controller.enqueue(enc.encode(cappedNote(cap, opts.what)));
            controller.close();
          } else if (rows.length < Math.min(pageSize, room + 1)) {
            controller.close();
          }
        } catch (e) {
          childLogger({ component: 'csv-export' }).error({ err: errField(e) }, `CSV export of ${opts.what} failed after ${written} rows`);
          controller.error(e);
        }
      },
    },
    // Nothing is read ahead: a page is fetched when the consumer has taken the previous one.
    { highWaterMark: 0 },
  );
}

async function auditExport(db: Db, ctx: ExportContext, details: Record<string, unknown>): Promise<void> {
  await db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'read');
    await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'export', at: ctx.now, details });
  });
}

async function tenantOf(db: Db, ctx: ExportContext) {
  const t = await getTenant(db, ctx.tenantId);
  if (!t) throw new AppError('not_found', 'organisation not found');
  return t;
}

/**
 * An event's participants: every booking (cancelled ones too), in the order they were made — name, email, phone,
 * role, booking status and its reason, their own zone and locale, the guest's organisation, booked at and the
 * next waiting reminder (each as UTC and in the event's zone).
 * @throws AppError not_found (no such event in this tenant), forbidden (no longer a staff member).
 */
export async function participantsCsv(db: Db, ctx: ExportContext, eventId: string): Promise<CsvDownload> {
  const [event] = isUuid(eventId)
    ? await db.select().from(events).where(and(eq(events.tenantId, ctx.tenantId), eq(events.id, eventId)))
    : [];
  if (!event) throw new AppError('not_found', `event ${eventId} not found`, 'eventId');
  const tenant = await tenantOf(db, ctx);
  await auditExport(db, ctx, { what: 'participants', eventId: event.id, title: event.title });
  const zone = event.timeZone;
  return {
    filename: exportFileName(tenant.slug, 'participants', ctx.now, zone, event.title),
    body: keysetCsvStream({
      what: 'participants',
      headings: ['Name', 'Email', 'Phone', 'Role', 'Booking status', 'Status reason', 'Their time zone', 'Locale', 'Guest of organisation', ...instantHeadings('Booked at', zone), ...instantHeadings('Next reminder due', zone), 'Booking id'],
      page: (after, limit) => participantsAfter(db, ctx.tenantId, event.id, after, limit),
      row: (p) => [p.name, p.email, p.phone, p.role, p.status, p.statusReason, p.timeZone, p.locale, p.guestOrganisation, ...instantCells(p.bookedAt, zone), ...instantCells(p.nextDueAt, zone), p.bookingId],
    }),
  };
}

/**
 * The deliveries log with the /deliveries page's filters `f`, newest first — the same rows the page lists, partner
 * messages sent in this tenant's name included (db/queries/dashboards/deliveries-log.ts). Local times in the tenant's zone.
 */
export async function deliveriesCsv(db: Db, ctx: ExportContext, f: DeliveriesQuery): Promise<CsvDownload> {
  const tenant = await tenantOf(db, ctx);
  const zone = tenant.timeZone;
  await auditExport(db, ctx, { what: 'deliveries', filters: deliveriesParams(f) });
  const filter = deliveryFilterOf(f, zone);
  return {
    filename: exportFileName(tenant.slug, 'deliveries', ctx.now, zone),
    body: keysetCsvStream({
      what: 'deliveries',
      headings: [...instantHeadings('Created at', zone), 'Channel', 'To', 'Subject or text', 'Message', 'Event', 'Status', 'Status reason', 'Attempts', ...instantHeadings('Accepted at', zone), 'Provider', 'Sent in your name by', 'Sent in the name of', 'Delivery id'],
      page: (after, limit) => deliveriesAfter(db, ctx.tenantId, filter, after, limit),
      row: ({ delivery: d, title, eventTitle, sentBy, sentAs }) => [
        ...instantCells(d.createdAt, zone),
        d.channel,
        d.address,
        d.subject ?? d.template,
        title,
        eventTitle,
        d.status,
        d.statusReason,
        d.attemptCount,
        ...instantCells(d.acceptedAt, zone),
        d.provider,
        sentBy ? `${sentBy.tenantName} (${sentBy.actor})` : null,
        sentAs,
        d.id,
      ],
    }),
  };
}

/**
 * The audit log with the /audit page's filters `f`, newest first; `details` as the entry's JSON. The export is
 * audited first (module doc), so an unfiltered export lists its own entry at the top.
 */
export async function auditCsv(db: Db, ctx: ExportContext, f: AuditQuery): Promise<CsvDownload> {
  const tenant = await tenantOf(db, ctx);
  const zone = tenant.timeZone;
  await auditExport(db, ctx, { what: 'audit', filters: auditParams(f) });
  const filter = auditFilterOf(f, zone);
  return {
    filename: exportFileName(tenant.slug, 'audit', ctx.now, zone),
    body: keysetCsvStream({
      what: 'audit entries',
      headings: [...instantHeadings('When', zone), 'Who', 'Action', 'Action code', 'Event', 'Address', 'Reason', 'Details (JSON)', 'Entry id'],
      page: (after, limit) => auditAfter(db, ctx.tenantId, filter, after, limit),
      row: (e) => {
        const s = auditSubject(e);
        return [
          ...instantCells(e.createdAt, zone),
          e.actor,
          auditActionLabel(e.action, e.details),
          e.action,
          e.eventTitle ?? s.eventTitle ?? null,
          e.deliveryAddress ?? s.address ?? null,
          e.reason,
          e.details && Object.keys(e.details).length ? JSON.stringify(e.details) : null,
          e.id,
        ];
      },
    }),
  };
}
