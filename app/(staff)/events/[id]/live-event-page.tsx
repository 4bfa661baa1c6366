'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EventPage } from '@/db/queries/scheduling/event-views';
import { EventHeader } from '@/components/events/EventHeader';
import { isSelectable, ParticipantGroups } from '@/components/events/ParticipantGroups';
import { BulkParticipantBar } from '@/components/events/BulkParticipantBar';
import { formatClockInZone } from '@/components/ui/format';
import { AddParticipantForm } from '@/components/events/AddParticipantForm';
import { CoverageLine } from '@/components/events/CoverageLine';
import { EventActions } from '@/components/events/EventActions';
import { eventCoverage } from '@/domain/scheduling/coverage';

const REFRESH_MS = 2_000;

/** The timeline endpoint answered 404: the event is gone or not in this tenant; polling stops. */
class EventGoneError extends Error {}

async function fetchTimeline(eventId: string, signal: AbortSignal): Promise<EventPage> {
  const res = await fetch(`/api/events/${encodeURIComponent(eventId)}/timeline`, { cache: 'no-store', signal });
  if (res.status === 404) throw new EventGoneError('event not found');
  if (!res.ok) throw new Error(`timeline request failed (${res.status})`);
  return (await res.json()) as EventPage;
}

/**
 * The event page body, refreshed every 2 s from /api/events/[id]/timeline. Starts from the server-rendered
 * data (marked stale, so the first refresh happens right after hydration).
 */
export function LiveEventPage({
  eventId,
  initialData,
  canOperate,
  guestTenants,
  zones,
}: {
  eventId: string;
  initialData: EventPage;
  /** The signed-in role may change things (staff, admin); viewers get the same page without controls. */
  canOperate: boolean;
  guestTenants: { slug: string; name: string }[];
  zones: string[];
}) {
  const query = useQuery({
    queryKey: ['event-timeline', eventId],
    queryFn: ({ signal }) => fetchTimeline(eventId, signal),
    initialData,
    initialDataUpdatedAt: 0,
    refetchInterval: (q) => (q.state.error instanceof EventGoneError ? false : REFRESH_MS),
    retry: (count, error) => !(error instanceof EventGoneError) && count < 1,
  });
  const { event, bookings } = query.data;
  const gone = query.error instanceof EventGoneError;
  const all = bookings.flatMap((b) => b.reminders.map((r) => ({ ...r, deliveryStatus: r.delivery?.status ?? null, bookingCancelled: b.status === 'cancelled' })));
  const coverage = eventCoverage(all, event.scheduleVersion);
  const active = event.status === 'scheduled';
  // Bulk selection (issue #13), by booking id; a booking that stopped being selectable (cancelled meanwhile,
  // seen on the next refresh) silently drops out of it.
  const bulk = canOperate && active;
  const selectable = bookings.filter(isSelectable);
  const [picked, setPicked] = useState<ReadonlySet<string>>(() => new Set());
  const selected = selectable.filter((b) => picked.has(b.id));
  const toggle = useCallback((id: string, on: boolean) => {
    setPicked((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  return (
    <>
      <p className="breadcrumb">
        <Link href="/events">← Events</Link>
      </p>
      <EventHeader event={event} />
      {canOperate && active ? <EventActions eventId={eventId} title={event.title} pending={coverage.waiting} sent={coverage.sent} version={event.version} /> : null}
      <CoverageLine coverage={coverage} version={event.scheduleVersion} />
      <div className={`live-status${query.isError ? ' is-error' : ''}`} role="status" aria-live="polite">
        <span className={`live-dot${query.isError ? '' : ' is-live'}`} aria-hidden="true" />
        {gone
          ? 'This event is no longer available — live updates stopped.'
          : query.isError
            ? 'Live updates paused: the server did not answer. Retrying…'
            : 'Live · refreshes every 2 s'}
        {query.dataUpdatedAt > 0 ? (
          <span className="muted">· updated {formatClockInZone(new Date(query.dataUpdatedAt), event.timeZone)}</span>
        ) : null}
      </div>
      <div className="participants-toolbar">
        {bulk && selectable.length > 0 ? (
          <SelectAll
            count={selectable.length}
            selected={selected.length}
            onChange={(on) => setPicked(on ? new Set(selectable.map((b) => b.id)) : new Set())}
          />
        ) : null}
        {/* A plain link: the browser downloads the file (server/people/csv-exports.ts; Content-Disposition: attachment). */}
        <a className="btn btn-small" href={`/api/exports/participants/${encodeURIComponent(eventId)}`} download data-testid="export-participants">
          Export participants (CSV)
        </a>
        {/* Writing to the people of this event (announcements): its own page, with a preview and the list of what was sent. */}
        <Link className="btn btn-small" href={`/events/${eventId}/announcements`} data-testid="message-participants">
          Message participants
        </Link>
      </div>
      <ParticipantGroups
        selection={bulk ? { selected: new Set(selected.map((b) => b.id)), toggle } : null}
        bookings={bookings}
        zone={event.timeZone}
        currentVersion={event.scheduleVersion}
        eventId={eventId}
        canOperate={canOperate && active}
        preferences={canOperate ? 'edit' : 'read'}
        eventCancelled={event.status === 'cancelled'}
        event={event}
      />
      {bulk ? <BulkParticipantBar eventId={eventId} selected={selected} onClear={() => setPicked(new Set())} /> : null}
      {canOperate && active ? (
        // Issue #13: many participants at once, from a CSV file (its own page: a preview before anything is written).
        <p className="import-link">
          <Link className="btn" href={`/events/${eventId}/import`}>
            Import from CSV
          </Link>
        </p>
      ) : null}
      {canOperate && active ? <AddParticipantForm eventId={eventId} guestTenants={guestTenants} zones={zones} /> : null}
    </>
  );
}

/** "Select all (N)": ticks every live participant; shows a dash (indeterminate) while only some are ticked. */
function SelectAll({ count, selected, onChange }: { count: number; selected: number; onChange: (on: boolean) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = selected > 0 && selected < count;
  }, [selected, count]);
  return (
    <label className="select-all">
      <input ref={ref} type="checkbox" checked={selected > 0 && selected === count} onChange={(e) => onChange(e.target.checked)} data-testid="select-all" />
      Select all ({count})
    </label>
  );
}
