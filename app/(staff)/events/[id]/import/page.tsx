import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDb } from '@/db/client';
import { eventOfTenant } from '@/db/queries/people/participant-import';
import { isUuid } from '@/db/queries/scheduling/event-views';
import { EmptyState } from '@/components/ui/EmptyState';
import { ParticipantImport } from '@/components/events/ParticipantImport';
import { MAX_IMPORT_ROWS } from '@/domain/people/participant-csv';
import { can } from '@/domain/accounts/permissions';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/participant-import.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Import participants' };

/**
 * Import participants for an event from a CSV file (issue #13): choose a file, see every row's problems before
 * anything is written, then book them all at once (all or nothing). Staff and admins; a cancelled event cannot.
 */
export default async function ImportParticipantsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { user, tenant } = await requireStaff();
  if (!isUuid(id)) notFound();
  const e = await eventOfTenant(getDb(), tenant.id, id);
  if (!e) notFound();
  const back = (
    <p className="breadcrumb">
      <Link href={`/events/${id}`}>← {e.title}</Link>
    </p>
  );
  if (!can(user.role, 'operate')) return <>{back}<EmptyState title="Read-only access">Your role ({user.role}) cannot add participants.</EmptyState></>;
  if (e.status === 'cancelled') return <>{back}<EmptyState title="This event is cancelled">Nobody can be booked onto a cancelled event.</EmptyState></>;
  return (
    <>
      {back}
      <div className="page-head">
        <h1>Import participants into “{e.title}”</h1>
        <p className="muted">
          One participant per line, up to {MAX_IMPORT_ROWS.toLocaleString('en')}. Nothing is saved until you confirm. Then everyone is booked at once; when some rows have
          problems, you choose to fix the file first or to book only the good rows.
        </p>
      </div>
      <ParticipantImport eventId={id} eventTitle={e.title} />
    </>
  );
}
