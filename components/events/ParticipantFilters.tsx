import Link from 'next/link';
import type { ParticipantFilter } from '@/domain/scheduling/participant-filter';
import { isFiltered } from '@/domain/scheduling/participant-filter';

/**
 * Search and filters of the event page's participant list: a plain GET form to the page itself, so a view is a
 * link and works without JavaScript (the server reads the parameters: domain/scheduling/participant-filter.ts).
 * "N of M shown" and "Clear" when something narrows the list.
 */
export function ParticipantFilters({ eventId, filter, matching, people }: { eventId: string; filter: ParticipantFilter; matching: number; people: number }) {
  const base = `/events/${encodeURIComponent(eventId)}`;
  return (
    <form className="participant-filters" method="get" action={base} role="search" aria-label="Find participants">
      <label className="pf-search">
        <span className="pf-label">Search</span>
        <input type="search" name="q" defaultValue={filter.q ?? ''} placeholder="Name, email or phone" data-testid="participant-search" />
      </label>
      <label>
        <span className="pf-label">Role</span>
        <select name="role" defaultValue={filter.role ?? ''}>
          <option value="">Any role</option>
          <option value="attendee">Attendees</option>
          <option value="external">External guests</option>
          <option value="host">Hosts</option>
        </select>
      </label>
      <label>
        <span className="pf-label">Booking</span>
        <select name="state" defaultValue={filter.state ?? ''}>
          <option value="">Any</option>
          <option value="confirmed">Confirmed</option>
          <option value="cancelled">Cancelled</option>
        </select>
      </label>
      <label>
        <span className="pf-label">Sort</span>
        <select name="sort" defaultValue={filter.sort}>
          <option value="name">Role, then name</option>
          <option value="booked">Newest booking first</option>
        </select>
      </label>
      <label className="pf-check">
        <input type="checkbox" name="problem" value="1" defaultChecked={filter.problem} /> Has a problem
      </label>
      <button type="submit" className="btn btn-small">
        Show
      </button>
      {isFiltered(filter) ? (
        <span className="pf-result small" role="status">
          {matching} of {people} shown · <Link href={base}>Clear</Link>
        </span>
      ) : null}
    </form>
  );
}
