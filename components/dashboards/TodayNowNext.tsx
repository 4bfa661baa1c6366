'use client';

import Link from 'next/link';
import { startsIn } from '@/domain/dashboards/today';
import type { TodayData, TodayEventJson } from '@/server/dashboards/today';
import { ZonedTime } from '@/components/ui/ZonedTime';

/** The today view's "Happening now" card: the events running now, and the next one to start today (or the next after today). */
export function NowNext({ data }: { data: TodayData }) {
  const byId = new Map(data.events.items.map((e) => [e.id, e]));
  const running = data.happening.now.map((id) => byId.get(id)).filter((e): e is TodayEventJson => !!e);
  const next = data.happening.next ? byId.get(data.happening.next) : undefined;
  return (
    <section className="card today-card today-now" aria-labelledby="today-now-title" data-testid="today-now">
      <h2 id="today-now-title">Happening now</h2>
      {running.length === 0 ? (
        <p className="muted">Nothing is running right now.</p>
      ) : (
        <ul className="today-list">
          {running.map((e) => (
            <li key={e.id} className="today-now-item" data-event-id={e.id}>
              <Link href={`/events/${e.id}`} className="today-tap today-title">
                {e.title}
              </Link>
              <span className="muted small">
                until <ZonedTime instant={e.endsAt} zone={data.zone} variant="time" />
                {e.location ? ` · ${e.location}` : ''} · {e.participants} booked
              </span>
            </li>
          ))}
        </ul>
      )}
      <h3 className="today-subtitle">Next up</h3>
      {next ? (
        <div className="today-now-item today-next" data-event-id={next.id}>
          <span>
            <strong>
              <ZonedTime instant={next.startsAt} zone={data.zone} variant="time" />
            </strong>{' '}
            <span className="muted">({startsIn(new Date(data.now), new Date(next.startsAt))})</span>
          </span>
          <Link href={`/events/${next.id}`} className="today-tap today-title">
            {next.title}
          </Link>
          <span className="muted small">
            {next.location ? `${next.location} · ` : ''}
            {next.participants} booked
          </span>
        </div>
      ) : (
        <p className="muted" data-testid="today-nothing-next">
          Nothing more starts today.{' '}
          {data.nextAfterToday ? (
            <>
              Next: <ZonedTime instant={data.nextAfterToday.startsAt} zone={data.zone} /> —{' '}
              <Link href={`/events/${data.nextAfterToday.id}`}>{data.nextAfterToday.title}</Link>
            </>
          ) : (
            'No later event is planned.'
          )}
        </p>
      )}
    </section>
  );
}
