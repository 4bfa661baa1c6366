'use client';

import Link from 'next/link';
import { useId, useState } from 'react';
import { noEventsTitle } from '@/domain/dashboards/today';
import type { TodayData, TodayEventJson } from '@/server/dashboards/today';
import { EmptyState } from '@/components/ui/EmptyState';
import { StatusBadge } from '@/components/ui/StatusBadge';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { ParticipantsPanel } from './TodayParticipants';

/** "09:00–10:30 CET" in the tenant zone; "All day" for an all-day event. */
function TimeRange({ e, zone }: { e: TodayEventJson; zone: string }) {
  if (e.allDay) return <span className="today-time">All day</span>;
  return (
    <span className="today-time">
      <ZonedTime instant={e.startsAt} zone={zone} variant="time" />–<ZonedTime instant={e.endsAt} zone={zone} variant="time" />
    </span>
  );
}

/** The today view's "Today's events" card: each event with its time, place and a button that opens its participants. */
export function EventsSection({ data, canOperate }: { data: TodayData; canOperate: boolean }) {
  const { items, total } = data.events;
  return (
    <section className="card today-card today-events" aria-labelledby="today-events-title" data-testid="today-events">
      <h2 id="today-events-title">
        Today&apos;s events <span className="count">{total}</span>
      </h2>
      {items.length === 0 ? (
        <EmptyState title={noEventsTitle(data.zone)}>
          {data.nextAfterToday ? (
            <>
              Next: <ZonedTime instant={data.nextAfterToday.startsAt} zone={data.zone} /> —{' '}
              <Link href={`/events/${data.nextAfterToday.id}`}>{data.nextAfterToday.title}</Link>
            </>
          ) : (
            <>
              No later event is planned either. <Link href="/events/new">Create an event</Link> or import a calendar.
            </>
          )}
        </EmptyState>
      ) : (
        <>
          <ol className="today-list today-event-list">
            {items.map((e) => (
              <EventItem key={e.id} e={e} zone={data.zone} canOperate={canOperate} />
            ))}
          </ol>
          {total > items.length ? (
            <p className="small today-more">
              and {total - items.length} more today — <Link href="/events">open the events list</Link>
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

function EventItem({ e, zone, canOperate }: { e: TodayEventJson; zone: string; canOperate: boolean }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const cancelled = e.status === 'cancelled';
  return (
    <li className={`today-event${cancelled ? ' is-cancelled' : ''}`} data-event-id={e.id} data-status={e.status}>
      <div className="today-event-head">
        <TimeRange e={e} zone={zone} />
        {cancelled ? <StatusBadge status="cancelled" kind="event" reason={e.statusReason} zone={e.timeZone} /> : null}
      </div>
      <Link href={`/events/${e.id}`} className="today-tap today-title">
        {e.title}
      </Link>
      <div className="small today-event-where">
        {e.roomUrl ? (
          <a href={e.roomUrl} target="_blank" rel="noopener noreferrer" className="today-tap">
            Online room ↗
          </a>
        ) : null}
        {e.location ? <span>{e.location}</span> : null}
        {!e.roomUrl && !e.location ? <span className="muted">No location</span> : null}
        {e.timeZone !== zone && !e.allDay ? (
          <span className="muted">
            Planned in {e.timeZone}: <ZonedTime instant={e.startsAt} zone={e.timeZone} variant="time" />
          </span>
        ) : null}
      </div>
      <button
        type="button"
        className="btn today-tap today-expand"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        data-testid="today-expand"
      >
        <span aria-hidden="true">{open ? '▾' : '▸'}</span> {e.participants} {e.participants === 1 ? 'participant' : 'participants'}
        {e.cancelledBookings > 0 ? <span className="muted"> · {e.cancelledBookings} cancelled</span> : null}
      </button>
      <p className="small muted today-attendance" data-testid="today-attendance">
        Attendance: {e.attendance.confirmed} confirmed · {e.attendance.unconfirmed} unconfirmed{e.attendance.declined > 0 ? ` · ${e.attendance.declined} declined` : ''}
      </p>
      <div id={panelId} hidden={!open}>
        {open ? <ParticipantsPanel e={e} canOperate={canOperate && !cancelled} /> : null}
      </div>
    </li>
  );
}
