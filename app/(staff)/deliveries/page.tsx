import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { searchText } from '../../../components/format';
import { getDb } from '../../../db/client';
import { searchDeliveries } from '../../../db/queries/deliveries-log';
import { EmptyState } from '../../../components/EmptyState';
import { Pager } from '../../../components/Pager';
import { StatusBadge } from '../../../components/StatusBadge';
import { ZonedTime } from '../../../components/ZonedTime';
import { localMidnight } from '../../../components/format';
import { deliveryStatuses } from '../../../domain/vocabulary';
import { requireStaff } from '../../../server/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Deliveries' };

const PAGE_SIZE = 50;
const filterSchema = z.object({
  page: z.coerce.number().int().min(1).catch(1),
  q: searchText,
  status: z.enum(deliveryStatuses).optional().catch(undefined),
  from: z.iso.date().optional().catch(undefined),
  to: z.iso.date().optional().catch(undefined),
});

/** Every delivery of the tenant, searchable by address or subject, filterable by status and date (tenant zone). */
export default async function DeliveriesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const f = filterSchema.parse(Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])));
  const db = getDb();
  const tenant = (await requireStaff()).tenant;
  const day = (d: string | undefined, plus = 0) => localMidnight(d, tenant.timeZone, plus);
  const { items, total } = await searchDeliveries(
    db,
    tenant.id,
    { q: f.q || undefined, status: f.status, from: day(f.from), to: day(f.to, 1) },
    { limit: PAGE_SIZE, offset: (f.page - 1) * PAGE_SIZE },
  );
  const params: Record<string, string> = {};
  for (const k of ['q', 'status', 'from', 'to'] as const) if (f[k]) params[k] = String(f[k]);
  return (
    <>
      <div className="page-head">
        <h1>Deliveries</h1>
        <p className="muted">Every message {tenant.name} sent or tried to send · newest first · times in {tenant.timeZone}</p>
      </div>
      <form className="filters" method="get" action="/deliveries">
        <label>
          Address or subject
          <input name="q" type="search" defaultValue={f.q} placeholder="ada@… or Workshop" />
        </label>
        <label>
          Status
          <select name="status" defaultValue={f.status ?? ''}>
            <option value="">any</option>
            {deliveryStatuses.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input name="from" type="date" defaultValue={f.from} />
        </label>
        <label>
          To
          <input name="to" type="date" defaultValue={f.to} />
        </label>
        <button type="submit">Filter</button>
      </form>
      {items.length === 0 ? (
        <EmptyState title={total === 0 && Object.keys(params).length === 0 ? 'No deliveries yet' : 'No deliveries match'}>
          {total === 0 && Object.keys(params).length === 0 ? 'Deliveries appear when reminders go out.' : 'Try a wider filter.'}
        </EmptyState>
      ) : (
        <>
          <table className="data-table">
            <thead>
              <tr>
                <th>Created</th>
                <th>To</th>
                <th>Subject</th>
                <th>Event</th>
                <th>Status</th>
                <th className="num">Attempts</th>
              </tr>
            </thead>
            <tbody>
              {items.map(({ delivery: d, eventId, eventTitle }) => (
                <tr key={d.id}>
                  <td className="nowrap">
                    <ZonedTime instant={d.createdAt.toISOString()} zone={tenant.timeZone} />
                  </td>
                  {/* Addresses (webhook URLs) and subjects (an SMS text with its preferences link) can be long unbroken tokens. */}
                  <td className="wrap-anywhere">
                    <Link className="row-title" href={`/deliveries/${d.id}`}>
                      {d.address}
                    </Link>
                  </td>
                  <td className="wrap-anywhere">{d.subject ?? <span className="muted">{d.template}</span>}</td>
                  <td>{eventId ? <Link href={`/events/${eventId}`}>{eventTitle}</Link> : null}</td>
                  <td>
                    <StatusBadge status={d.status} kind="delivery" reason={d.statusReason} />
                  </td>
                  <td className="num">{d.attemptCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager basePath="/deliveries" page={f.page} pageSize={PAGE_SIZE} total={total} params={params} />
        </>
      )}
    </>
  );
}
