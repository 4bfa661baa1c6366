import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '../../../../db/client';
import { getEventPage } from '../../../../db/queries/views';
import { can } from '../../../../domain/permissions';
import { otherTenants } from '../../../../server/staff-actions';
import { requireStaff } from '../../../../server/session';
import { LiveEventPage } from './live-event-page';

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
export default async function EventPage({ params }: Props) {
  const { id } = await params;
  const { session, page } = await loadEventPage(id);
  if (!page) notFound();
  const canOperate = can(session.user.role, 'operate');
  const guestTenants = canOperate ? await otherTenants(getDb(), session.tenant.id) : [];
  const zones = canOperate ? Intl.supportedValuesOf('timeZone') : [];
  return <LiveEventPage eventId={id} initialData={page} canOperate={canOperate} guestTenants={guestTenants} zones={zones} />;
}
