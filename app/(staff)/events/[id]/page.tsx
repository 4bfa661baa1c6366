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
import '@/app/styles/preferences.css';
import '@/app/styles/participants.css';
import '@/app/styles/exports-bulk.css';
import '@/app/styles/event-note.css';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };

/** One database read per request, shared by the metadata and the page. */
const loadEventPage = cache(async (id: string) => {
  const session = await requireStaff();
  return { session, page: await getEventPage(getDb(), session.tenant.id, id) } as const;
});

/** The browser title is the event title. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { page } = await loadEventPage((await params).id);
  return { title: page?.event.title ?? 'Event' };
}

/**
 * An event with its participants by role and each participant's live reminder timeline. Staff and admins
 * also get the controls: edit/reschedule, cancel, add participant, remind now, cancel booking.
 */
export default async function EventPage({ params, searchParams }: Props & { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const sp = await searchParams;
  const notice =
    sp.saved === 'created'
      ? 'Event created. Add participants below: their reminders are planned as you add them.'
      : sp.saved === 'rescheduled'
        ? `Rescheduled${typeof sp.v === 'string' && /^\d+$/.test(sp.v) ? ` to schedule version ${sp.v}` : ''}: reminders are re-planned for the new time; the old ones are marked superseded.`
        : sp.saved === 'updated'
          ? 'Changes saved. The timing did not change, so no reminder was re-planned.'
          : null;
  const { session, page } = await loadEventPage(id);
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
      <LiveEventPage eventId={id} initialData={page} canOperate={canOperate} guestTenants={guestTenants} zones={zones} />
    </>
  );
}
