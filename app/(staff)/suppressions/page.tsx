import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { searchText } from '@/components/ui/format';
import { getDb } from '@/db/client';
import { listSuppressions } from '@/db/queries/suppressions/suppressions';
import { ChannelBadge } from '@/components/ui/ChannelBadge';
import { EmptyState } from '@/components/ui/EmptyState';
import { Pager } from '@/components/ui/Pager';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { TimesInText } from '@/components/ui/TimesInText';
import { RemoveSuppressionButton } from '@/components/suppressions/RemoveSuppressionButton';
import { SuppressionForm } from '@/components/suppressions/SuppressionForm';
import { reportKindLabels, reportSourceLabels } from '@/components/deliveries/report-labels';
import { suppressionReasonLabels, suppressionReasonTones } from '@/components/suppressions/suppression-labels';
import { can } from '@/domain/accounts/permissions';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/suppressions.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Suppressions' };

const PAGE_SIZE = 50;
const filterSchema = z.object({
  page: z.coerce.number().int().min(1).catch(1),
  q: searchText,
  /** `removed=1`: the history of removed entries instead of the live list. */
  removed: z.literal('1').optional().catch(undefined),
});

/**
 * The tenant's suppression list (addresses that never get mail, checked at send time): address, the channel it
 * stops (email or SMS), reason, where it came from (a delivery report links to its delivery) and since when (tenant
 * zone), searchable by address, 50 per page. Staff and admins also get the add form and a Remove per row (reason
 * required); viewers see the list only — the routes refuse them anyway. Removing is a soft delete (issue #10 §3):
 * **Show removed** (`?removed=1`, a plain link, no script needed) lists the history — who removed each entry, when
 * and why. On phones each row is a labelled card (reflow-table).
 */
export default async function SuppressionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const f = filterSchema.parse(Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])));
  const session = await requireStaff();
  const { tenant } = session;
  const mayOperate = can(session.user.role, 'operate');
  const showRemoved = f.removed === '1';
  const { items, total } = await listSuppressions(getDb(), tenant.id, { q: f.q || undefined, removed: showRemoved }, { limit: PAGE_SIZE, offset: (f.page - 1) * PAGE_SIZE });
  const params: Record<string, string> = { ...(f.q ? { q: f.q } : {}), ...(showRemoved ? { removed: '1' } : {}) };
  const viewHref = (removed: boolean) => {
    const q = new URLSearchParams({ ...(f.q ? { q: f.q } : {}), ...(removed ? { removed: '1' } : {}) }).toString();
    return `/suppressions${q ? `?${q}` : ''}`;
  };
  const clearHref = showRemoved ? '/suppressions?removed=1' : '/suppressions';
  const withActions = mayOperate && !showRemoved;
  return (
    <>
      <div className="page-head">
        <h1>Suppressions</h1>
        <p className="muted">
          Addresses and numbers {tenant.name} never sends to · checked right before every send · times in {tenant.timeZone}
        </p>
      </div>
      {mayOperate ? (
        <section className="card">
          <SuppressionForm />
        </section>
      ) : (
        <p className="muted small read-only-note">Your role ({session.user.role}) can look at the list; staff and admins add and remove addresses.</p>
      )}
      <nav className="suppression-views" aria-label="Which entries">
        <Link href={viewHref(false)} aria-current={showRemoved ? undefined : 'page'}>
          On the list
        </Link>
        <Link href={viewHref(true)} aria-current={showRemoved ? 'page' : undefined}>
          Show removed
        </Link>
      </nav>
      <form className="filters suppressions-filters" method="get" action="/suppressions" role="search" aria-label="Search the suppression list">
        <label>
          Address
          <input name="q" type="search" defaultValue={f.q} placeholder="ada@… or example.com" />
        </label>
        {showRemoved ? <input type="hidden" name="removed" value="1" /> : null}
        <button type="submit">Search</button>
        {f.q ? (
          <Link className="filters-clear" href={clearHref}>
            Clear search
          </Link>
        ) : null}
      </form>
      {items.length === 0 ? (
        f.q ? (
          <EmptyState title="No address matches this search">
            Nothing {showRemoved ? 'removed' : 'on the list'} contains “{f.q}”. <Link href={clearHref}>Clear the search</Link>
          </EmptyState>
        ) : total > 0 ? (
          <EmptyState title="No addresses on this page">
            <Link href={clearHref}>Back to the first page</Link>
          </EmptyState>
        ) : showRemoved ? (
          <EmptyState title="Nothing was removed from the list">
            Entries removed from the list stay here as history, with who removed them, when and why. <Link href="/suppressions">Back to the list</Link>
          </EmptyState>
        ) : (
          <EmptyState title="The suppression list is empty">
            Addresses land here when a provider rejects or bounces them, when a recipient complains or replies STOP, or when staff add them
            {mayOperate ? ' with the form above' : ''}.
          </EmptyState>
        )
      ) : (
        <>
          <table className="data-table reflow-table suppressions-table" data-view={showRemoved ? 'removed' : 'live'}>
            <thead>
              <tr>
                <th scope="col">Address</th>
                <th scope="col">Channel</th>
                <th scope="col">Reason</th>
                <th scope="col">Where it came from</th>
                <th scope="col">Since</th>
                {showRemoved ? <th scope="col">Removed</th> : null}
                {withActions ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {items.map((s) => (
                <tr key={s.id} data-suppression-id={s.id}>
                  <td className="suppression-address row-title" data-label="Address">
                    <span>{s.address}</span>
                  </td>
                  <td data-label="Channel">
                    <ChannelBadge channel={s.channel} />
                  </td>
                  <td data-label="Reason">
                    <span className={`badge badge-${suppressionReasonTones[s.reason]}`} data-reason={s.reason} title={suppressionReasonLabels[s.reason]}>
                      {s.reason}
                    </span>
                  </td>
                  <td data-label="Came from">
                    <span className="suppression-source">
                      <TimesInText text={s.source} zone={tenant.timeZone} />
                    </span>
                    {s.report ? (
                      <span className="suppression-report small">
                        {s.report.deliveryId ? <Link href={`/deliveries/${s.report.deliveryId}`}>{reportKindLabels[s.report.kind]} report</Link> : `${reportKindLabels[s.report.kind]} report`} ({reportSourceLabels[s.report.source]})
                      </span>
                    ) : null}
                  </td>
                  <td className="nowrap" data-label="Since">
                    <ZonedTime instant={s.since} zone={tenant.timeZone} />
                  </td>
                  {showRemoved ? (
                    <td data-label="Removed" className="suppression-removed">
                      {s.removed ? (
                        <span>
                          <ZonedTime instant={s.removed.at} zone={tenant.timeZone} /> by {s.removed.by ?? 'someone'}
                          {s.removed.reason ? <span className="suppression-removed-reason">“{s.removed.reason}”</span> : null}
                        </span>
                      ) : null}
                    </td>
                  ) : null}
                  {withActions ? (
                    <td className="suppression-actions" data-label="Actions">
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
