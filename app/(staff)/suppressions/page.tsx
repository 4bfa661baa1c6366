import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { searchText } from '../../../components/format';
import { getDb } from '../../../db/client';
import { listSuppressions } from '../../../db/queries/suppressions';
import { EmptyState } from '../../../components/EmptyState';
import { Pager } from '../../../components/Pager';
import { ZonedTime } from '../../../components/ZonedTime';
import { RemoveSuppressionButton } from '../../../components/client/RemoveSuppressionButton';
import { SuppressionForm } from '../../../components/client/SuppressionForm';
import { suppressionReasonLabels, suppressionReasonTones } from '../../../components/suppression-labels';
import { can } from '../../../domain/permissions';
import { requireStaff } from '../../../server/session';
import '../../styles/suppressions.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Suppressions' };

const PAGE_SIZE = 50;
const filterSchema = z.object({
  page: z.coerce.number().int().min(1).catch(1),
  q: searchText,
});

/**
 * The tenant's suppression list (addresses that never get mail, checked at send time): address, reason, where
 * it came from and since when (tenant zone), searchable by address, 50 per page. Staff and admins also get the
 * add form and a Remove per row (reason required); viewers see the list only — the routes refuse them anyway.
 */
export default async function SuppressionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const f = filterSchema.parse(Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])));
  const session = await requireStaff();
  const { tenant } = session;
  const mayOperate = can(session.user.role, 'operate');
  const { items, total } = await listSuppressions(getDb(), tenant.id, { q: f.q || undefined }, { limit: PAGE_SIZE, offset: (f.page - 1) * PAGE_SIZE });
  const params: Record<string, string> = f.q ? { q: f.q } : {};
  return (
    <>
      <div className="page-head">
        <h1>Suppressions</h1>
        <p className="muted">
          Addresses {tenant.name} never sends mail to · checked right before every send · times in {tenant.timeZone}
        </p>
      </div>
      {mayOperate ? (
        <section className="card">
          <SuppressionForm />
        </section>
      ) : (
        <p className="muted small read-only-note">Your role ({session.user.role}) can look at the list; staff and admins add and remove addresses.</p>
      )}
      <form className="filters suppressions-filters" method="get" action="/suppressions" role="search" aria-label="Search the suppression list">
        <label>
          Address
          <input name="q" type="search" defaultValue={f.q} placeholder="ada@… or example.com" />
        </label>
        <button type="submit">Search</button>
        {f.q ? (
          <Link className="filters-clear" href="/suppressions">
            Clear search
          </Link>
        ) : null}
      </form>
      {items.length === 0 ? (
        f.q ? (
          <EmptyState title="No address matches this search">
            Nothing on the list contains “{f.q}”. <Link href="/suppressions">Clear the search</Link>
          </EmptyState>
        ) : total > 0 ? (
          <EmptyState title="No addresses on this page">
            <Link href="/suppressions">Back to the first page</Link>
          </EmptyState>
        ) : (
          <EmptyState title="The suppression list is empty">
            Addresses land here when a provider rejects them for good, or when staff add them{mayOperate ? ' with the form above' : ''}.
          </EmptyState>
        )
      ) : (
        <>
          <table className="data-table suppressions-table">
            <thead>
              <tr>
                <th scope="col">Address</th>
                <th scope="col">Reason</th>
                <th scope="col">Where it came from</th>
                <th scope="col">Since</th>
                {mayOperate ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {items.map((s) => (
                <tr key={s.id} data-suppression-id={s.id}>
                  <td className="suppression-address row-title">{s.address}</td>
                  <td>
                    <span className={`badge badge-${suppressionReasonTones[s.reason]}`} data-reason={s.reason} title={suppressionReasonLabels[s.reason]}>
                      {s.reason}
                    </span>
                  </td>
                  <td className="suppression-source">{s.source}</td>
                  <td className="nowrap">
                    <ZonedTime instant={s.since} zone={tenant.timeZone} />
                  </td>
                  {mayOperate ? (
                    <td className="suppression-actions">
                      <RemoveSuppressionButton id={s.id} address={s.address} version={s.version} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
          <Pager basePath="/suppressions" page={f.page} pageSize={PAGE_SIZE} total={total} params={params} />
        </>
      )}
    </>
  );
}
