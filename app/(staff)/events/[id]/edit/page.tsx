import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { confirmedBookingCount, reminderImpact } from '@/db/queries/scheduling/scheduling';
import { isUuid } from '@/db/queries/scheduling/event-views';
import { events } from '@/db/schema';
import { EmptyState } from '@/components/ui/EmptyState';
import { EventForm } from '@/components/events/EventForm';
import { formFromTiming } from '@/domain/scheduling/event-form';
import { can } from '@/domain/accounts/permissions';
import { requireStaff } from '@/app/_http/session';
import { zoneNames } from '@/domain/zones';
import '@/app/styles/participants.css';
import '@/app/styles/event-note.css';
import '@/app/styles/event-details.css';
import { noteKey } from '@/domain/scheduling/event-note';
import { catalogLocales } from '@/emails/messages';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Edit event' };

/** Edit an event's details or reschedule it (a timing change re-plans its reminders after a confirmation). */
export default async function EditEventPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { user, tenant } = await requireStaff();
  if (!isUuid(id)) notFound();
  const db = getDb();
  const [e] = await db.select().from(events).where(and(eq(events.tenantId, tenant.id), eq(events.id, id)));
  if (!e) notFound();
  const back = (
    <p className="breadcrumb">
      <Link href={`/events/${id}`}>← {e.title}</Link>
    </p>
  );
  if (!can(user.role, 'operate')) return <>{back}<EmptyState title="Read-only access">Your role ({user.role}) cannot edit events.</EmptyState></>;
  if (e.status === 'cancelled') return <>{back}<EmptyState title="This event is cancelled">A cancelled event cannot be edited or rescheduled.</EmptyState></>;
  const impact = await reminderImpact(db, tenant.id, { eventId: id });
  const booked = await confirmedBookingCount(db, tenant.id, id);
  return (
    <>
      {back}
      <div className="page-head">
        <h1>Edit “{e.title}”</h1>
        <p className="muted">
          Schedule version {e.scheduleVersion} · changing the start, end, zone or all-day flag reschedules the event and re-plans its reminders.
        </p>
      </div>
      <EventForm
        mode="edit"
        eventId={id}
        zones={[...zoneNames]}
        pendingReminders={impact.pending}
        bookedPeople={booked}
        version={e.version}
        noteLanguages={catalogLocales}
        initial={{ title: e.title, description: e.description ?? '', location: e.location ?? '', roomUrl: e.roomUrl ?? '', eventNote: noteKey(e.eventNote), ...formFromTiming(e) }}
      />
    </>
  );
}
