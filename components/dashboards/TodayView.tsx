'use client';

import type { TodayData } from '@/server/dashboards/today';
import { formatClockInZone, formatInZone } from '@/components/ui/format';
import { AttentionSection } from './TodayAttention';
import { EventsSection } from './TodayEvents';
import { NowNext } from './TodayNowNext';
import { RemindersSection } from './TodayReminders';
import { useTodayData } from './useTodayData';
import { ZonedTime } from '@/components/ui/ZonedTime';

/**
 * One alert line per event starting within 24 h with more unconfirmed participants than the organisation's threshold
 * (settings: "Warn when more people have not confirmed than"); nothing when none or when the threshold is off.
 */
function UnconfirmedAlerts({ data, zone }: { data: TodayData; zone: string }) {
  const items = data.unconfirmed?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section className="card today-unconfirmed" data-testid="today-unconfirmed" role="status">
      <ul className="plain-list">
        {items.map((u) => (
          <li key={u.id} className="alert-line">
            <strong>{u.unconfirmed} not confirmed</strong> for <a href={`/events/${u.id}`}>{u.title}</a> (starts <ZonedTime instant={u.startsAt} zone={zone} />) — more than{' '}
            {data.unconfirmed.threshold}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The front desk's today view (issue #13): heading with the tenant's day and zone, then — two columns on a
 * desktop, one on a phone — what is happening now and next, today's events (each expandable to its
 * participants), messages due in the next hours and problems with today's messages. Starts from the
 * server-rendered `initialData` and reads /api/today again every 30 s; says when it last did.
 * Data, refresh and the reminders window: useTodayData; the cards: TodayNowNext, TodayEvents, TodayReminders, TodayAttention.
 */
export function TodayView({ initialData, canOperate }: { initialData: TodayData; canOperate: boolean }) {
  const { data, zone, query, hours, chooseHours, viewerZone } = useTodayData(initialData);
  return (
    <>
      <div className="page-head today-head">
        <h1
          data-testid="today-heading"
          title={viewerZone && viewerZone !== zone ? `Your time (${viewerZone}): ${formatInZone(data.now, viewerZone)}` : undefined}
        >
          {data.day.heading}
        </h1>
        <p className={`live-status today-live${query.isError ? ' is-error' : ''}`} role="status" aria-live="polite" data-testid="today-refreshed">
          <span className={`live-dot${query.isError ? '' : ' is-live'}`} aria-hidden="true" />
          {query.isError ? 'Could not refresh: the server did not answer. Retrying… ' : 'Refreshes every 30 s · '}
          last refreshed {formatClockInZone(data.now, zone)}
          {data.day.hours !== 24 ? <span className="muted"> · today has {data.day.hours} hours (clock change)</span> : null}
        </p>
      </div>
      <div className="today-grid">
        <div className="today-col">
          <UnconfirmedAlerts data={data} zone={zone} />
          <NowNext data={data} />
          <EventsSection data={data} canOperate={canOperate} />
        </div>
        <div className="today-col">
          <RemindersSection data={data} hours={hours} onHours={chooseHours} loading={query.isPlaceholderData} />
          <AttentionSection data={data} />
        </div>
      </div>
    </>
  );
}
