import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { localMidnight, searchText } from '@/components/ui/format';
import { getDb } from '@/db/client';
import { listEvents } from '@/db/queries/scheduling/event-views';
import { EmptyState } from '@/components/ui/EmptyState';
import { EventsTable } from '@/components/events/EventsTable';
import { Pager } from '@/components/ui/Pager';
import { can } from '@/domain/accounts/permissions';
import { eventStatuses } from '@/domain/vocabulary';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/events-list.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Events' };

const PAGE_SIZE = 50;
/** Query parameters; anything malformed is dropped (never an error page): `?status=bogus` lists every status. */
const filterSchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  q: searchText,
  status: z.enum(eventStatuses).optional().catch(undefined),
  from: z.iso.date().optional().catch(undefined),
  to: z.iso.date().optional().catch(undefined),
});
type Filters = z.output<typeof filterSchema>;
const filterKeys = ['q', 'status', 'from', 'to'] as const;

/**
 * The current tenant's events with their reminder progress: search by title or location, start date range
 * (dates in the tenant's zone, both inclusive), status, 50 per page with the filters kept across pages.
 * Staff and admins get a "New event" button.
 */
export default async function EventsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const parsed = filterSchema.parse(Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])));
  const session = await requireStaff();
  const { tenant } = session;
  const zone = tenant.timeZone;
  // A date that passes the pattern but does not exist (2027-02-30) or is out of range is dropped like any other nonsense.
  const from = localMidnight(parsed.from, zone);
  const to = localMidnight(parsed.to, zone, 1);
  const f: Filters = { ...parsed, from: from ? parsed.from : undefined, to: to ? parsed.to : undefined };
  const params: Record<string, string> = {};
  for (const k of filterKeys) if (f[k]) params[k] = String(f[k]);
  const filtered = Object.keys(params).length > 0;
  const reversed = !!(f.from && f.to && f.from > f.to);

  const { items, total } = await listEvents(getDb(), tenant.id, { limit: PAGE_SIZE, offset: (f.page - 1) * PAGE_SIZE }, { q: f.q || undefined, status: f.status, from, to });
  const mayOperate = can(session.user.role, 'operate');
  return (
    <>
      <div className="page-head events-head">
        <div>
          <h1>Events</h1>
          <p className="muted">
            {tenant.name} · times in each event&apos;s own zone · reminder counts are for the current schedule version
          </p>
        </div>
        {mayOperate ? (
          <Link href="/events/new" className="btn btn-primary">
            New event
          </Link>
        ) : null}
      </div>
      <form className="filters events-filters" method="get" action="/events" role="search" aria-label="Filter events">
        <label>
          Title or location
          <input name="q" type="search" defaultValue={f.q} placeholder="Yoga or Studio B" />
        </label>
        <label>
          Status
          <select name="status" defaultValue={f.status ?? ''}>
            <option value="">any</option>
            {eventStatuses.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Starts from
          <input name="from" type="date" defaultValue={f.from} />
        </label>
        <label>
          Starts until
          <input name="to" type="date" defaultValue={f.to} />
        </label>
        <button type="submit">Filter</button>
        {filtered ? (
          <Link className="filters-clear" href="/events">
            Clear filters
          </Link>
        ) : null}
        <p className="filters-note muted small">Dates are days in {zone}, both included, matched on the event&apos;s start.</p>
      </form>
      {reversed ? (
        <p className="notice notice-warn" role="status">
          “Starts from” ({f.from}) is after “Starts until” ({f.to}): no event can match. Swap the dates?
        </p>
      ) : null}
      {items.length === 0 ? (
        total > 0 ? (
          <EmptyState title="No events on this page">
            <Link href={`/events?${new URLSearchParams(params).toString()}`}>Back to the first page</Link>
          </EmptyState>
        ) : filtered ? (
          <EmptyState title="No events match these filters">
            Try other words or a wider date range, or <Link href="/events">clear the filters</Link>.
          </EmptyState>
        ) : (
          <EmptyState title="No events yet">
            Events appear here once they are created or imported (npm run import:ics).
            {mayOperate ? (
              <>
                {' '}
                <Link href="/events/new">Create the first event</Link>
              </>
            ) : null}
          </EmptyState>
        )
      ) : (
        <>
          <EventsTable events={items} />
          <Pager basePath="/events" page={f.page} pageSize={PAGE_SIZE} total={total} params={params} />
        </>
      )}
    </>
  );
}
