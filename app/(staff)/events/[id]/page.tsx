import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '@/db/client';
import { getEventPage } from '@/db/queries/scheduling/event-views';
import { can } from '@/domain/accounts/permissions';
import { guestTenantsOf } from '@/db/queries/scheduling/scheduling';
import { requireStaff } from '@/app/_http/session';
import { LiveEventPage } from './live-event-page';
import { zoneNames } from '@/domain/zones';
import { noParticipantFilter, parseParticipantFilter, type ParticipantFilter } from '@/domain/scheduling/participant-filter';
import '@/app/styles/preferences.css';
import '@/app/styles/participants.css';
import '@/app/styles/exports-bulk.css';
import '@/app/styles/event-note.css';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };

/** One database read per request, shared by the metadata and the page (the filter is part of the cache key). */
const loadEventPage = cache(async (id: string, filterKey: string) => {
  const session = await requireStaff();
  const filter = JSON.parse(filterKey) as ParticipantFilter;
  return { session, page: await getEventPage(getDb(), session.tenant.id, id, filter) } as const;
});

/** The list options of the URL; a value that is not allowed is ignored (the page shows the unfiltered list). */
function filterOf(sp: Record<string, string | string[] | undefined>): ParticipantFilter {
  const f = parseParticipantFilter(sp);
  return 'error' in f ? noParticipantFilter : f;
}

/** The browser title is the event title. */
export async function generateMetadata({ params, searchParams }: Props & { searchParams: Promise<Record<string, string | string[] | undefined>> }): Promise<Metadata> {
  const { page } = await loadEventPage((await params).id, JSON.stringify(filterOf(await searchParams)));
  return { title: page?.event.title ?? 'Event' };
}

/**
 * An event with one page of its participants (search, filters, sort and page from the URL), one line each,
 * expanding to that person's live reminder timeline. Staff and admins also get the controls: edit/reschedule,
 * cancel, add participant, import, remind now, cancel booking, bulk actions on the page shown.
 */
export default async function EventPage({ params, searchParams }: Props & { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const sp = await searchParams;
  // A details change the booked people are told about (the form adds `told=1`): said after the save's own notice.
  const told = sp.told === '1' ? ' The booked people are told about the new details, with an updated calendar entry.' : '';
  const saved =
    sp.saved === 'created'
      ? 'Event created. Add participants below: their reminders are planned as you add them.'
      : sp.saved === 'rescheduled'
        ? `Rescheduled${typeof sp.v === 'string' && /^\d+$/.test(sp.v) ? ` to schedule version ${sp.v}` : ''}: reminders are re-planned for the new time; the old ones are marked superseded.`
        : sp.saved === 'updated'
          ? 'Changes saved. The timing did not change, so no reminder was re-planned.'
          : null;
  const notice = saved ? `${saved}${told}` : null;
  const filter = filterOf(sp);
  const { session, page } = await loadEventPage(id, JSON.stringify(filter));
  if (!page) notFound();
  const canOperate = can(session.user.role, 'operate');
  const guestTenants = canOperate ? await guestTenantsOf(getDb(), session.tenant.id) : [];
  const zones = canOperate ? [...zoneNames] : [];
  return (
    <>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <LiveEventPage eventId={id} initialData={page} canOperate={canOperate} guestTenants={guestTenants} zones={zones} filter={filter} />
    </>
  );
}
