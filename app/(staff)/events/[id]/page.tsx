import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '../../../../db/client';
import { getEventPage } from '../../../../db/queries/views';
import { requireStaff } from '../../../../server/session';
import { LiveEventPage } from './live-event-page';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };

/** One database read per request, shared by the metadata and the page. */
const loadEventPage = cache(async (id: string) => {
  const db = getDb();
  const tenant = (await requireStaff()).tenant;
  if (!tenant) return { tenant: null, page: null } as const;
  return { tenant, page: await getEventPage(db, tenant.id, id) } as const;
});

/** The browser title is the event title. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { page } = await loadEventPage((await params).id);
  return { title: page?.event.title ?? 'Event' };
}

/** An event with its participants by role and each participant's live reminder timeline. */
export default async function EventPage({ params }: Props) {
  const { id } = await params;
  const { tenant, page } = await loadEventPage(id);
  if (!page) notFound();
  return <LiveEventPage eventId={id} initialData={page} />;
}
