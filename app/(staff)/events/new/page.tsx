import type { Metadata } from 'next';
import Link from 'next/link';
import { DateTime } from 'luxon';
import { EmptyState } from '@/components/ui/EmptyState';
import { EventForm } from '@/components/events/EventForm';
import { can } from '@/domain/accounts/permissions';
import { requireStaff } from '@/app/_http/session';
import { zoneNames } from '@/domain/zones';
import { catalogLocales } from '@/emails/messages';
import '@/app/styles/event-note.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'New event' };

/** Create an event (staff and admins). Defaults: the tenant's zone, tomorrow 10:00–11:00 local time. */
export default async function NewEventPage() {
  const { user, tenant } = await requireStaff();
  if (!can(user.role, 'operate')) {
    return <EmptyState title="Read-only access">Your role ({user.role}) cannot create events. <Link href="/events">Back to events</Link></EmptyState>;
  }
  const tomorrow = DateTime.now().setZone(tenant.timeZone).plus({ days: 1 }).startOf('day');
  const fmt = (d: DateTime) => d.toFormat("yyyy-MM-dd'T'HH:mm");
  return (
    <>
      <p className="breadcrumb">
        <Link href="/events">← Events</Link>
      </p>
      <div className="page-head">
        <h1>New event</h1>
        <p className="muted">Reminders are planned as participants are booked, from the reminder rules of {tenant.name}.</p>
      </div>
      <EventForm
        mode="create"
        zones={[...zoneNames]}
        noteLanguages={catalogLocales}
        initial={{ title: '', description: '', location: '', roomUrl: '', eventNote: '', timeZone: tenant.timeZone, allDay: false, start: fmt(tomorrow.set({ hour: 10 })), end: fmt(tomorrow.set({ hour: 11 })) }}
      />
    </>
  );
}
