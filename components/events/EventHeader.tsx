import { DateTime } from 'luxon';
import type { EventView } from '@/db/queries/scheduling/event-views';
import { formatAllDayInZone, sameDayInZone } from '@/components/ui/format';
import { StatusWithReason } from '@/components/ui/StatusBadge';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { noteLanguageName } from './event-form-fields';

/** The event page header: title, status, schedule version, times in the event's zone, room and location. */
export function EventHeader({ event }: { event: EventView }) {
  const zone = event.timeZone;
  const roomOpensAt = event.roomUrl
    ? DateTime.fromISO(event.startsAt).minus({ minutes: event.roomOpenLeadMinutes }).toUTC().toISO()
    : null;
  return (
    <header className="event-header">
      <div className="event-title-row">
        <h1>{event.title}</h1>
        <StatusWithReason status={event.status} kind="event" reason={event.statusReason} zone={zone} />
        <span className="version-chip" data-schedule-version={event.scheduleVersion}>
          Schedule version {event.scheduleVersion}
        </span>
      </div>
      <dl className="facts">
        <div>
          <dt>When</dt>
          <dd>
            {event.allDay ? (
              <time dateTime={event.startsAt}>{formatAllDayInZone(event.startsAt, event.endsAt, zone)}</time>
            ) : (
              <>
                <ZonedTime instant={event.startsAt} zone={zone} /> –{' '}
                <ZonedTime
                  instant={event.endsAt}
                  zone={zone}
                  variant={sameDayInZone(event.startsAt, event.endsAt, zone) ? 'time' : 'full'}
                />
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Time zone</dt>
          <dd>{zone}</dd>
        </div>
        {event.location ? (
          <div>
            <dt>Location</dt>
            <dd>{event.location}</dd>
          </div>
        ) : null}
        <div>
          <dt>Room</dt>
          <dd>
            {event.roomUrl ? (
              <>
                <a href={event.roomUrl} target="_blank" rel="noreferrer noopener" className="room-url">
                  {event.roomUrl}
                </a>
                {roomOpensAt ? (
                  <span className="muted">
                    {' '}
                    · opens <ZonedTime instant={roomOpensAt} zone={zone} variant="time" /> (
                    {event.roomOpenLeadMinutes} min before start)
                  </span>
                ) : null}
              </>
            ) : (
              <span className="muted">No online room</span>
            )}
          </dd>
        </div>
        {event.eventNote && Object.keys(event.eventNote).length > 0 ? (
          <div data-testid="event-note">
            <dt>Note for participants</dt>
            <dd>
              <ul className="event-note-lines">
                {Object.entries(event.eventNote).map(([lang, text]) => (
                  <li key={lang} data-note-lang={lang}>
                    <span className="muted small">{noteLanguageName(lang)}:</span> <span dir="auto">{text}</span>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        ) : null}
      </dl>
      {event.description ? <p className="event-description">{event.description}</p> : null}
    </header>
  );
}
