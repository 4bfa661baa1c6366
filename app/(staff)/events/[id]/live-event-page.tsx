'use client';

import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import type { EventPage } from '@/db/queries/scheduling/event-views';
import type { ParticipantFilter } from '@/domain/scheduling/participant-filter';
import { participantFilterParams } from '@/domain/scheduling/participant-filter';
import { EventHeader } from '@/components/events/EventHeader';
import { ParticipantGroups } from '@/components/events/ParticipantGroups';
import { ParticipantFilters } from '@/components/events/ParticipantFilters';
import { BulkParticipantBar } from '@/components/events/BulkParticipantBar';
import { formatClockInZone } from '@/components/ui/format';
import { Pager } from '@/components/ui/Pager';
import { AddParticipantForm } from '@/components/events/AddParticipantForm';
import { CoverageLine } from '@/components/events/CoverageLine';
import { EventActions } from '@/components/events/EventActions';
import { useLiveEventPage } from '@/components/events/useLiveEventPage';

/**
 * The event page body, refreshed every 2 s (components/events/useLiveEventPage.ts). The participants section
 * starts with its actions (add, import, export), then search and filters, then one line per participant of the
 * page (domain/scheduling/participant-filter.ts: 20 a page), each expanding to its timeline.
 */
export function LiveEventPage({
  eventId,
  initialData,
  canOperate,
  guestTenants,
  zones,
  filter,
}: {
  eventId: string;
  initialData: EventPage;
  /** The signed-in role may change things (staff, admin); viewers get the same page without controls. */
  canOperate: boolean;
  guestTenants: { slug: string; name: string }[];
  zones: string[];
  /** The list's search, filters, sort and page (from the URL). */
  filter: ParticipantFilter;
}) {
  const { query, gone, selectable, selected, toggle, setAll } = useLiveEventPage(eventId, initialData, filter);
  const { event, bookings, participants: counts, coverage } = query.data;
  const active = event.status === 'scheduled';
  const bulk = canOperate && active;
  // The add form starts open on an event nobody is booked on yet, folded otherwise; then it stays as the user left it.
  const [addOpen] = useState(initialData.participants.people === 0);

  return (
    <>
      <p className="breadcrumb">
        <Link href="/events">← Events</Link>
      </p>
      <EventHeader event={event} />
      {canOperate && active ? <EventActions eventId={eventId} title={event.title} pending={coverage.waiting} sent={coverage.sent} version={event.version} /> : null}
      <CoverageLine coverage={coverage} counts={counts} version={event.scheduleVersion} />
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
      <section className="participants-section" aria-labelledby="participants-title">
        <div className="participants-head">
          <h2 id="participants-title">
            Participants <span className="count">{counts.people}</span>
          </h2>
          <div className="participants-actions">
            {canOperate && active ? (
              // Many participants at once, from a CSV file (its own page: a preview before anything is written).
              <Link className="btn btn-small" href={`/events/${eventId}/import`}>
                Import from CSV
              </Link>
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
        </div>
        {canOperate && active ? (
          <details className="add-participant-toggle" open={addOpen}>
            <summary className="btn btn-small btn-primary">Add participant</summary>
            <AddParticipantForm eventId={eventId} guestTenants={guestTenants} zones={zones} />
          </details>
        ) : null}
        <ParticipantFilters eventId={eventId} filter={filter} matching={counts.matching} people={counts.people} />
        {bulk && selectable.length > 0 ? (
          <div className="participants-toolbar">
            <SelectAll count={selectable.length} selected={selected.length} onChange={setAll} />
          </div>
        ) : null}
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
          counts={{ byRole: counts.byRole, filtered: counts.filtered }}
        />
        {counts.filtered && counts.matching === 0 ? <p className="muted group-empty">Nobody matches this search.</p> : null}
        <Pager basePath={`/events/${eventId}`} page={counts.page} pageSize={counts.pageSize} total={counts.matching} params={participantFilterParams(filter, { page: 1 })} />
      </section>
      {bulk ? <BulkParticipantBar eventId={eventId} selected={selected} onClear={() => setAll(false)} /> : null}
    </>
  );
}

/** "Select all on this page (N)": ticks every live participant shown; a dash (indeterminate) while only some are. */
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
