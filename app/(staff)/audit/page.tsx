import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '@/db/client';
import { listAudit, type AuditRow } from '@/db/queries/dashboards/audit';
import { EmptyState } from '@/components/ui/EmptyState';
import { Pager } from '@/components/ui/Pager';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { TimesInText } from '@/components/ui/TimesInText';
import { formatInZone } from '@/components/ui/format';
import { auditFilterOf, auditParams, parseAuditQuery, withQuery } from '@/domain/dashboards/log-filters';
import { auditActionLabel, auditActionLabels, auditSubject, compactDetails } from '@/domain/dashboards/audit-view';
import { auditActions } from '@/domain/vocabulary';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/audit.css';
import '@/app/styles/exports-bulk.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Audit log' };

const PAGE_SIZE = 50;

/**
 * The tenant's audit log (issue #4 item 7): every operator and staff action, newest first, filterable by
 * action and by a date range in the tenant's zone (whole local days, both ends inclusive), paged with the
 * filters kept.
 */
export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // The same parsing as the CSV export (domain/dashboards/log-filters.ts): the export link carries exactly these filters.
  const f = parseAuditQuery(await searchParams);
  const tenant = (await requireStaff()).tenant;
  const zone = tenant.timeZone;
  const { items, total } = await listAudit(getDb(), tenant.id, auditFilterOf(f, zone), { limit: PAGE_SIZE, offset: (f.page - 1) * PAGE_SIZE });
  const params = auditParams(f);
  const filtered = Object.keys(params).length > 0;
  const backwards = !!f.from && !!f.to && f.from > f.to;
  return (
    <>
      <div className="page-head">
        <h1>Audit log</h1>
        <p className="muted">
          Every action taken in {tenant.name}: who, when and why · newest first · times in {zone}
        </p>
        {total > 0 ? (
          <p className="export-line">
            <a className="btn btn-small" href={withQuery('/api/exports/audit', params)} download data-testid="export-audit">
              Export CSV
            </a>{' '}
            <span className="muted small">
              {filtered ? `the ${total} entries matching these filters` : `all ${total} entries`} (UTF-8, up to 100,000 rows; the export is itself recorded here)
            </span>
          </p>
        ) : null}
      </div>
      <form className="filters audit-filters" method="get" action="/audit">
        <label>
          Action
          <select name="action" defaultValue={f.action ?? ''}>
            <option value="">any action</option>
            {auditActions.map((a) => (
              <option key={a} value={a}>
                {auditActionLabels[a]}
              </option>
            ))}
          </select>
        </label>
        <label>
          From (date in {zone})
          <input name="from" type="date" defaultValue={f.from} />
        </label>
        <label>
          To (inclusive)
          <input name="to" type="date" defaultValue={f.to} />
        </label>
        <button type="submit">Filter</button>
        {filtered ? (
          <Link href="/audit" className="audit-clear">
            Clear filters
          </Link>
        ) : null}
      </form>
      {backwards ? <p className="notice notice-warn">“From” is after “To”: no day is in that range.</p> : null}
      {items.length === 0 ? (
        <EmptyState title={total === 0 && !filtered ? 'No audit entries yet' : 'No audit entries match'}>
          {total === 0 && !filtered
            ? 'Every action staff take — creating or cancelling events and bookings, suppressions, replays, nudges — is recorded here.'
            : 'Try another action or a wider date range.'}
        </EmptyState>
      ) : (
        <>
          {/* Phones: every entry is a labelled card (reflow-table, app/styles/channels.css), like the deliveries list. */}
          <div className="table-scroll">
            <table className="data-table reflow-table audit-table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {items.map((e) => (
                  <AuditRowView key={e.id} e={e} zone={zone} />
                ))}
              </tbody>
            </table>
          </div>
          <Pager basePath="/audit" page={f.page} pageSize={PAGE_SIZE} total={total} params={params} />
        </>
      )}
    </>
  );
}

function AuditRowView({ e, zone }: { e: AuditRow; zone: string }) {
  const s = auditSubject(e);
  // An event's times read in the event's own zone (a reschedule records it), anything else in the tenant's.
  const d = (e.details ?? {}) as { to?: { timeZone?: unknown } };
  const eventZone = typeof d.to?.timeZone === 'string' ? d.to.timeZone : zone;
  const details = compactDetails(e.details, (iso) => formatInZone(iso, eventZone));
  return (
    <tr data-audit-id={e.id} data-action={e.action}>
      <td className="audit-when" data-label="When">
        <ZonedTime instant={e.createdAt.toISOString()} zone={zone} />
      </td>
      <td className="audit-actor" data-label="Who">
        <span>{e.actor}</span>
      </td>
      <td className="audit-action-cell" data-label="Action">
        <span className="audit-action">{auditActionLabel(e.action, e.details)}</span>
      </td>
      <td className="audit-subject" data-label="Subject">
        {s.eventId ? (
          <div>
            <Link href={`/events/${s.eventId}`}>{e.eventTitle ?? s.eventTitle ?? 'Event'}</Link>
          </div>
        ) : s.eventTitle ? (
          <div>{s.eventTitle}</div>
        ) : null}
        {s.deliveryId ? (
          <div>
            <Link href={`/deliveries/${s.deliveryId}`}>{e.deliveryAddress ? `Delivery to ${e.deliveryAddress}` : 'Delivery'}</Link>
          </div>
        ) : null}
        {s.address && !(s.deliveryId && e.deliveryAddress === s.address) ? <div className="audit-address">{s.address}</div> : null}
        {s.ruleId ? (
          <div>
            <Link href="/rules">{s.ruleName ? `Rule “${s.ruleName}”` : 'Reminder rule'}</Link>
          </div>
        ) : null}
        {!s.eventId && !s.eventTitle && !s.deliveryId && !s.address && !s.ruleId ? <span className="muted">—</span> : null}
      </td>
      <td className="audit-reason" data-label="Reason">
        {e.reason ? (
          <span>
            <TimesInText text={e.reason} zone={eventZone} />
          </span>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td className="audit-details" data-label="Details">
        {details.length === 0 ? (
          <span className="muted">—</span>
        ) : (
          <ul>
            {details.map((d, i) => (
              <li key={i}>
                <span className="muted">{d.label}:</span> <TimesInText text={d.value} zone={eventZone} />
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}
