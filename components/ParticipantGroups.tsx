import type { BookingView } from '../db/queries/views';
import type { BookingRole } from '../domain/vocabulary';
import { ParticipantActions } from './event/ParticipantActions';
import { PreferencesButton } from './event/PreferencesDialog';
import { ReminderTimeline } from './ReminderTimeline';
import { StatusBadge } from './StatusBadge';
import { ZonedTime } from './ZonedTime';

/** Section headings per booking role, in display order. */
export const roleGroups: { role: BookingRole; title: string; empty: string }[] = [
  { role: 'attendee', title: 'Attendees', empty: 'No attendees booked.' },
  { role: 'external', title: 'External guests', empty: 'No external guests.' },
  { role: 'host', title: 'Hosts', empty: 'No hosts assigned.' },
];

/**
 * One booking: contact (email, and mobile number when there is one), booking status and its timeline of
 * messages on every channel. A cancelled booking of a person who was
 * booked again stays visible as history (greyed, "earlier booking"), next to their live booking. On a cancelled
 * event a booking that was never cancelled itself reads "event cancelled" (muted), not a green "confirmed":
 * the person has a place at an event that will not happen.
 */
export function ParticipantCard({
  booking,
  zone,
  currentVersion,
  eventId,
  canOperate,
  preferences = null,
  eventCancelled = false,
}: {
  booking: BookingView;
  zone: string;
  currentVersion: number;
  eventId: string;
  /** Show "Remind now" and "Cancel booking" (staff/admin on a scheduled event). */
  canOperate: boolean;
  /** The person's "Preferences" button: `edit` (staff, admin), `read` (viewers), null = none. */
  preferences?: 'edit' | 'read' | null;
  /** The event is cancelled: a still-confirmed booking shows "event cancelled" instead of "confirmed". */
  eventCancelled?: boolean;
}) {
  const name = booking.contact?.name || booking.contact?.email || 'Unknown contact';
  const history = booking.rebookedAs !== null;
  return (
    <article
      className={`participant${booking.status === 'cancelled' ? ' is-cancelled' : ''}${history ? ' is-history' : ''}`}
      data-booking-id={booking.id}
      data-role={booking.role}
      data-rebooked-as={booking.rebookedAs ?? undefined}
    >
      <header className="participant-header">
        <div>
          <h3 className="participant-name">{name}</h3>
          {booking.contact?.email ? <div className="muted small">{booking.contact.email}</div> : null}
          {booking.contact?.phone ? <div className="muted small participant-phone">{booking.contact.phone}</div> : null}
        </div>
        <div className="participant-status">
          {history ? (
            <span className="tag tag-history">
              earlier booking (made <ZonedTime instant={booking.bookedAt} zone={zone} />) — booked again
            </span>
          ) : null}
          {booking.role === 'external' ? <span className="tag">guest of another tenant</span> : null}
          {eventCancelled && booking.status === 'confirmed' ? (
            <span className="badge badge-muted" data-kind="booking" data-status={booking.status} data-event-cancelled="true" title="The booking was not cancelled itself, but its event was">
              event cancelled
            </span>
          ) : (
            <StatusBadge status={booking.status} kind="booking" reason={booking.statusReason} />
          )}
          {booking.statusReason ? <span className="status-reason">{booking.statusReason}</span> : null}
          {preferences && booking.contact && !history ? (
            <PreferencesButton contactId={booking.contact.id} name={name} eventId={eventId} readOnly={preferences === 'read'} />
          ) : null}
          {canOperate ? <ParticipantActions booking={booking} eventId={eventId} eventActive /> : null}
        </div>
      </header>
      <ReminderTimeline reminders={booking.reminders} zone={zone} currentVersion={currentVersion} personZone={booking.personZone} />
    </article>
  );
}

/**
 * Participants grouped by role (Attendees, External guests, Hosts); every group is shown, empty or not. The
 * count is of people: an earlier booking of someone booked again is history, not another participant.
 */
export function ParticipantGroups({
  bookings,
  zone,
  currentVersion,
  eventId,
  canOperate,
  preferences = null,
  eventCancelled = false,
}: {
  bookings: BookingView[];
  zone: string;
  currentVersion: number;
  eventId: string;
  canOperate: boolean;
  /** Each person's "Preferences" button: `edit` (staff, admin), `read` (viewers), null = none. */
  preferences?: 'edit' | 'read' | null;
  /** The event is cancelled (its bookings' badges say so). */
  eventCancelled?: boolean;
}) {
  return (
    <div className="participant-groups">
      {roleGroups.map((g) => {
        const members = bookings.filter((b) => b.role === g.role);
        const people = members.filter((b) => b.rebookedAs === null).length;
        return (
          <section key={g.role} className="role-group" data-role-group={g.role} aria-labelledby={`group-${g.role}`}>
            <h2 id={`group-${g.role}`}>
              {g.title} <span className="count">{people}</span>
            </h2>
            {members.length === 0 ? (
              <p className="muted group-empty">{g.empty}</p>
            ) : (
              members.map((b) => (
                <ParticipantCard key={b.id} booking={b} zone={zone} currentVersion={currentVersion} eventId={eventId} canOperate={canOperate} preferences={preferences} eventCancelled={eventCancelled} />
              ))
            )}
          </section>
        );
      })}
    </div>
  );
}
