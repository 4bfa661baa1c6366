import type { BookingView } from '@/db/queries/scheduling/event-views';
import { participantZone } from '@/domain/scheduling/participant-zone';
import type { BookingRole } from '@/domain/vocabulary';
import { ParticipantActions } from './ParticipantActions';
import { PreferencesButton } from './PreferencesDialog';
import { ReminderTimeline } from './ReminderTimeline';
import { StatusBadge } from '@/components/ui/StatusBadge';
import { ZonedTime } from '@/components/ui/ZonedTime';

/** Section headings per booking role, in display order. */
const roleGroups: { role: BookingRole; title: string; empty: string }[] = [
  { role: 'attendee', title: 'Attendees', empty: 'No attendees booked.' },
  { role: 'external', title: 'External guests', empty: 'No external guests.' },
  { role: 'host', title: 'Hosts', empty: 'No hosts assigned.' },
];

/**
 * The person's own time zone, always shown (domain/scheduling/participant-zone.ts says why): "not on file", "same clock as
 * the event", or — when it differs — their zone with the event's start in their time (hover: the viewer's zone).
 */
export function ParticipantZoneLine({ ownZone, zone, startsAt, allDay }: { ownZone: string | null; zone: string; startsAt: string; allDay: boolean }) {
  const z = participantZone(ownZone, zone, startsAt);
  return (
    <div className="small participant-zone" data-zone-kind={z.kind} data-zone={z.kind === 'none' ? undefined : z.zone}>
      <span className="muted">Their time zone: </span>
      {z.kind === 'none' ? (
        <span className="muted">not on file — their messages show the event’s zone only</span>
      ) : z.kind === 'same' ? (
        <>
          {z.zone} <span className="muted">(same clock as the event)</span>
        </>
      ) : z.kind === 'unknown' ? (
        <>
          {z.zone} <span className="muted">(not a time zone this server knows — edit the participant to fix it)</span>
        </>
      ) : (
        <>
          <strong>{z.zone}</strong>
          {allDay ? null : (
            <>
              {' '}
              <span className="muted">· starts</span> <ZonedTime instant={startsAt} zone={z.zone} /> <span className="muted">their time</span>
            </>
          )}
        </>
      )}
    </div>
  );
}

/**
 * One booking: contact (email, and mobile number when there is one), booking status and its timeline of
 * messages on every channel. A cancelled booking of a person who was
 * booked again stays visible as history (greyed, "earlier booking"), next to their live booking. On a cancelled
 * event a booking that was never cancelled itself reads "event cancelled" (muted), not a green "confirmed":
 * the person has a place at an event that will not happen.
 */
function ParticipantCard({
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
  /** The event is cancelled: a still-confirmed booking shows "event cancelled" instead of "confirmed". */
  eventCancelled?: boolean;
  /** The event's start and room (the person's zone line; which nudge templates can render). */
  event?: ParticipantEventFacts | null;
  /** Bulk selection (staff/admin on a scheduled event): a checkbox on every live booking. */
  selection?: ParticipantSelection | null;
}) {
  const name = booking.contact?.name || booking.contact?.email || 'Unknown contact';
  const history = booking.rebookedAs !== null;
  const selectable = !!selection && isSelectable(booking);
  const checked = selectable && selection!.selected.has(booking.id);
  return (
    <article
      className={`participant${booking.status === 'cancelled' ? ' is-cancelled' : ''}${history ? ' is-history' : ''}${checked ? ' is-selected' : ''}`}
      data-booking-id={booking.id}
      data-role={booking.role}
      data-rebooked-as={booking.rebookedAs ?? undefined}
    >
      <header className="participant-header">
        <div className={selection ? 'participant-ident' : undefined}>
          {selectable ? (
            <input
              type="checkbox"
              className="participant-select"
              checked={checked}
              onChange={(e) => selection!.toggle(booking.id, e.target.checked)}
              aria-label={`Select ${name}`}
              data-testid="participant-select"
            />
          ) : null}
          <div>
            <h3 className="participant-name">{name}</h3>
            {booking.contact?.email ? <div className="muted small">{booking.contact.email}</div> : null}
            {booking.contact?.phone ? <div className="muted small participant-phone">{booking.contact.phone}</div> : null}
            {event && booking.contact ? <ParticipantZoneLine ownZone={booking.ownZone} zone={zone} startsAt={event.startsAt} allDay={event.allDay} /> : null}
          </div>
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
          {canOperate ? <ParticipantActions booking={booking} eventId={eventId} eventActive eventHasRoom={!!event?.roomUrl} /> : null}
        </div>
      </header>
      <ReminderTimeline reminders={booking.reminders} zone={zone} currentVersion={currentVersion} personZone={booking.personZone} />
    </article>
  );
}

/**
 * The participants ticked for a bulk action (issue #13), by booking id. Only live bookings can be ticked: a
 * cancelled one, or an earlier booking of someone booked again, has nothing left to cancel or remind.
 */
interface ParticipantSelection {
  selected: ReadonlySet<string>;
  toggle: (bookingId: string, on: boolean) => void;
}

/** A booking a bulk action can apply to (see {@link ParticipantSelection}). */
export function isSelectable(b: BookingView): boolean {
  return b.status !== 'cancelled' && b.rebookedAs === null;
}

/** What a participant card needs to know of its event. */
interface ParticipantEventFacts {
  /** ISO-8601 UTC. */
  startsAt: string;
  allDay: boolean;
  roomUrl: string | null;
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
  event = null,
  selection = null,
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
  /** The event's start and room, for each card (zone line, nudge templates). */
  event?: ParticipantEventFacts | null;
  /** Bulk selection: a checkbox on each selectable card (components/events/BulkParticipantBar.tsx acts on it). */
  selection?: ParticipantSelection | null;
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
                <ParticipantCard key={b.id} booking={b} zone={zone} currentVersion={currentVersion} eventId={eventId} canOperate={canOperate} preferences={preferences} eventCancelled={eventCancelled} event={event} selection={selection} />
              ))
            )}
          </section>
        );
      })}
    </div>
  );
}
