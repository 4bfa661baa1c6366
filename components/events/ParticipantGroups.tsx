import type { BookingView, ParticipantCounts } from '@/db/queries/scheduling/event-views';
import type { BookingRole } from '@/domain/vocabulary';
import { ParticipantRow, type ParticipantEventFacts, type ParticipantSelection } from './ParticipantRow';

export { ParticipantZoneLine } from './ParticipantZoneLine';
export { isSelectable } from './ParticipantRow';

/** Section headings per booking role, in display order. */
const roleGroups: { role: BookingRole; title: string; empty: string }[] = [
  { role: 'attendee', title: 'Attendees', empty: 'No attendees booked.' },
  { role: 'external', title: 'External guests', empty: 'No external guests.' },
  { role: 'host', title: 'Hosts', empty: 'No hosts assigned.' },
];

/**
 * One page of participants grouped by role (Attendees, External guests, Hosts), one line each. Unfiltered, every
 * group is shown, empty or not, with its count of people over the whole event (an earlier booking of someone booked
 * again is history, not another participant); filtered, only the groups with a match on this page.
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
  counts = null,
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
  /** People per role over the whole event (else counted on `bookings`) and whether a filter narrows the list. */
  counts?: { byRole: ParticipantCounts['byRole']; filtered: boolean } | null;
}) {
  return (
    <div className="participant-groups">
      {roleGroups.map((g) => {
        const members = bookings.filter((b) => b.role === g.role);
        const people = counts ? counts.byRole[g.role] : members.filter((b) => b.rebookedAs === null).length;
        // A group with people who are all on other pages (or filtered out) is left out of this page.
        if (members.length === 0 && (people > 0 || counts?.filtered)) return null;
        return (
          <section key={g.role} className={`role-group${members.length === 0 ? ' is-empty' : ''}`} data-role-group={g.role} aria-labelledby={`group-${g.role}`}>
            <h3 id={`group-${g.role}`}>
              {g.title} <span className="count">{people}</span>
            </h3>
            {members.length === 0 ? (
              <p className="muted group-empty">{g.empty}</p>
            ) : (
              members.map((b) => (
                <ParticipantRow key={b.id} booking={b} zone={zone} currentVersion={currentVersion} eventId={eventId} canOperate={canOperate} preferences={preferences} eventCancelled={eventCancelled} event={event} selection={selection} />
              ))
            )}
          </section>
        );
      })}
    </div>
  );
}
