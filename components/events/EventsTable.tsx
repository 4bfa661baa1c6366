import Link from 'next/link';
import type { EventListItem } from '@/db/queries/scheduling/event-views';
import { StatusWithReason } from '@/components/ui/StatusBadge';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { formatAllDayInZone } from '@/components/ui/format';

/** Reminder statuses worth calling out next to the sent/planned count. */
const attentionStatuses = ['failed', 'expired'] as const;

/**
 * The events list: title, start in the event's own zone, status, schedule version, participants, reminders.
 * On phones each event is a labelled card (`reflow-table`, app/styles/channels.css), not a table to scroll.
 */
export function EventsTable({ events }: { events: EventListItem[] }) {
  return (
    <table className="data-table reflow-table events-table">
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Starts</th>
          <th scope="col">Status</th>
          <th scope="col" className="num">
            Version
          </th>
          <th scope="col" className="num">
            Participants
          </th>
          <th scope="col" className="num">
            Reminders sent / planned
          </th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => {
          const cancelled = e.bookingsByStatus.cancelled ?? 0;
          return (
            <tr key={e.id} data-event-id={e.id}>
              <td className="reflow-title">
                <Link href={`/events/${e.id}`} className="row-title">
                  {e.title}
                </Link>
              </td>
              <td className="nowrap" data-label="Starts">
                {e.allDay ? (
                  <time dateTime={e.startsAt}>{formatAllDayInZone(e.startsAt, e.endsAt, e.timeZone)}</time>
                ) : (
                  <ZonedTime instant={e.startsAt} zone={e.timeZone} />
                )}
                <div className="muted small">{e.timeZone}</div>
              </td>
              <td data-label="Status">
                <StatusWithReason status={e.status} kind="event" reason={e.statusReason} zone={e.timeZone} />
              </td>
              <td className="num" data-label="Version">
                v{e.scheduleVersion}
              </td>
              <td className="num" data-label="Participants">
                {e.participantCount}
                {cancelled > 0 ? <div className="muted small">{cancelled} cancelled</div> : null}
              </td>
              <td className="num" data-label="Reminders sent / planned">
                <span className="sent-planned">
                  {e.remindersSent} / {e.remindersPlanned}
                </span>
                {attentionStatuses.map((s) =>
                  e.remindersByStatus[s] ? (
                    <div key={s} className={`small attention-${s}`}>
                      {e.remindersByStatus[s]} {s}
                    </div>
                  ) : null,
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
