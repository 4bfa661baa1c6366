import type { Metadata } from 'next';
import { z } from 'zod';
import { getDb } from '../../../db/client';
import { listEvents } from '../../../db/queries/views';
import { EmptyState } from '../../../components/EmptyState';
import { EventsTable } from '../../../components/EventsTable';
import { Pager } from '../../../components/Pager';
import { requireStaff } from '../../../server/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Events' };

const PAGE_SIZE = 50;
const pageParamSchema = z.coerce.number().int().min(1).catch(1);

/** The current tenant's events with their reminder progress. */
export default async function EventsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const page = pageParamSchema.parse((await searchParams).page);
  const db = getDb();
  const tenant = (await requireStaff()).tenant;
  const { items, total } = await listEvents(db, tenant.id, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  return (
    <>
      <div className="page-head">
        <h1>Events</h1>
        <p className="muted">
          {tenant.name} · times in each event&apos;s own zone · reminder counts are for the current schedule version
        </p>
      </div>
      {items.length === 0 ? (
        <EmptyState title={total === 0 ? 'No events yet' : 'No events on this page'}>
          {total === 0 ? 'Events appear here once they are created or imported.' : null}
        </EmptyState>
      ) : (
        <>
          <EventsTable events={items} />
          <Pager basePath="/events" page={page} pageSize={PAGE_SIZE} total={total} />
        </>
      )}
    </>
  );
}
