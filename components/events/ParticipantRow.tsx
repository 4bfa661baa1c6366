import Link from 'next/link';
import type { BookingView } from '@/db/queries/scheduling/event-views';
import { participantZone } from '@/domain/scheduling/participant-zone';
import { attendanceLabel, describeAttendance } from '@/domain/scheduling/attendance';
import { ParticipantActions } from './ParticipantActions';
import { PreferencesButton } from './PreferencesDialog';
import { ReminderTimeline } from './ReminderTimeline';
import { ParticipantZoneLine } from './ParticipantZoneLine';
import { StatusBadge } from '@/components/ui/StatusBadge';
import { ZonedTime } from '@/components/ui/ZonedTime';

const roleLabel = { attendee: 'attendee', external: 'guest', host: 'host' } as const;

/** The participants ticked for a bulk action, by booking id (components/events/BulkParticipantBar.tsx acts on them). */
export interface ParticipantSelection {
  selected: ReadonlySet<string>;
  toggle: (bookingId: string, on: boolean) => void;
}

/** What a participant row needs to know of its event. */
export interface ParticipantEventFacts {
  /** ISO-8601 UTC. */
  startsAt: string;
  allDay: boolean;
  roomUrl: string | null;
}

/**
 * A booking that a bulk action can apply to. Only live bookings: a cancelled one, or an earlier booking of someone
 * booked again, has nothing left to cancel or remind.
 */
export function isSelectable(b: BookingView): boolean {
  return b.status !== 'cancelled' && b.rebookedAs === null;
}

/**
 * One participant on one line — bulk checkbox, name, role, their zone when its clock differs from the event's,
 * booking status and the summary of their messages — expanding (a native disclosure: keyboard and screen reader
 * work without script) to their address, zone, preferences, actions and whole message timeline. A cancelled
 * booking of a person who was booked again stays as history ("earlier booking"). On a cancelled event a booking
 * that was never cancelled itself reads "event cancelled", not a green "confirmed".
 */
export function ParticipantRow({
  booking,
  zone,
  currentVersion,
  eventId,
  canOperate,
  preferences = null,
  eventCancelled = false,
  event = null,
  selection = null,
}: {
  booking: BookingView;
  zone: string;
  currentVersion: number;
  eventId: string;
  /** Show "Remind now", "Edit" and "Cancel booking" (staff/admin on a scheduled event). */
  canOperate: boolean;
  /** The person's "Preferences" button: `edit` (staff, admin), `read` (viewers), null = none. */
  preferences?: 'edit' | 'read' | null;
  eventCancelled?: boolean;
  event?: ParticipantEventFacts | null;
  selection?: ParticipantSelection | null;
}) {
  const name = booking.contact?.name || booking.contact?.email || 'Unknown contact';
  const history = booking.rebookedAs !== null;
  const selectable = !!selection && isSelectable(booking);
  const checked = selectable && selection!.selected.has(booking.id);
  const z = event ? participantZone(booking.ownZone, zone, event.startsAt) : null;
  const s = booking.summary;
  return (
    <article
      className={`participant${booking.status === 'cancelled' ? ' is-cancelled' : ''}${history ? ' is-history' : ''}${checked ? ' is-selected' : ''}${s.problem ? ' has-problem' : ''}`}
      data-booking-id={booking.id}
      data-role={booking.role}
      data-rebooked-as={booking.rebookedAs ?? undefined}
    >
      <div className="participant-line">
        {selectable ? (
          <input
            type="checkbox"
            className="participant-select"
            checked={checked}
            onChange={(e) => selection!.toggle(booking.id, e.target.checked)}
            aria-label={`Select ${name}`}
            data-testid="participant-select"
          />
        ) : selection ? (
          <span className="participant-select-spacer" aria-hidden="true" />
        ) : null}
        <details className="participant-more">
          <summary className="participant-summary">
            <span className="participant-name">{name}</span>
            <span className="tag participant-role">{roleLabel[booking.role]}</span>
            {z && (z.kind === 'differs' || z.kind === 'unknown') ? <span className="tag participant-line-zone">{z.zone}</span> : null}
            {history ? <span className="tag tag-history">earlier booking</span> : null}
            {eventCancelled && booking.status === 'confirmed' ? (
              <span className="badge badge-muted" data-kind="booking" data-status={booking.status} data-event-cancelled="true" title="The booking was not cancelled itself, but its event was">
                event cancelled
              </span>
            ) : (
              <StatusBadge status={booking.status} kind="booking" reason={booking.statusReason} />
            )}
            {booking.role !== 'host' ? (
              <span className={`tag attendance attendance-${booking.attendance.state}`} data-testid="attendance" data-attendance={booking.attendance.state}>
                {attendanceLabel[booking.attendance.state]}
              </span>
            ) : null}
            <span className={`participant-messages small${s.problem ? ' is-problem' : ''}`} data-testid="participant-summary">
              {s.text}
            </span>
          </summary>
          <div className="participant-body">
            <header className="participant-header">
              <div>
                {booking.contact?.email ? <div className="muted small">{booking.contact.email}</div> : null}
                {booking.contact?.phone ? <div className="muted small participant-phone">{booking.contact.phone}</div> : null}
                {event && booking.contact ? <ParticipantZoneLine ownZone={booking.ownZone} zone={zone} startsAt={event.startsAt} allDay={event.allDay} /> : null}
                {history ? (
                  <div className="small muted">
                    earlier booking (made <ZonedTime instant={booking.bookedAt} zone={zone} />) — booked again
                  </div>
                ) : null}
                {booking.role === 'external' ? <div className="small muted">guest of another tenant</div> : null}
                {booking.role !== 'host' ? (
                  <div className="small muted" data-testid="attendance-detail">
                    Attendance: {describeAttendance(booking.attendance)}
                    {booking.attendance.at ? (
                      <>
                        {' — '}
                        <ZonedTime instant={booking.attendance.at} zone={zone} />
                      </>
                    ) : null}
                  </div>
                ) : null}
              </div>
              <div className="participant-status">
                {booking.statusReason ? <span className="status-reason">{booking.statusReason}</span> : null}
                {preferences && booking.contact && !history ? (
                  <PreferencesButton contactId={booking.contact.id} name={name} eventId={eventId} readOnly={preferences === 'read'} />
                ) : null}
                {booking.contact && !history ? (
                  <Link className="btn btn-small" href={`/contacts/${booking.contact.id}`} data-testid="contact-feed-link">
                    Calendar feed
                  </Link>
                ) : null}
                {canOperate ? <ParticipantActions booking={booking} eventId={eventId} eventActive eventHasRoom={!!event?.roomUrl} /> : null}
              </div>
            </header>
            <ReminderTimeline reminders={booking.reminders} zone={zone} currentVersion={currentVersion} personZone={booking.personZone} />
          </div>
        </details>
      </div>
    </article>
  );
}
