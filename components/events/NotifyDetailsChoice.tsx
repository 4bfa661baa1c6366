'use client';

import { useId } from 'react';
import { notifyByDefault, type DetailChange, type EventDetailField } from '@/domain/scheduling/event-details-change';

/** A changed detail's name in the staff form's words. */
const FIELD_LABELS: Record<EventDetailField, string> = {
  title: 'Title',
  location: 'Location',
  roomUrl: 'Online room URL',
  description: 'Description',
};

/** A value shown in the change list: quoted, shortened past 80 characters; "(none)" for an empty one. */
function shown(v: string | null): string {
  if (v === null) return '(none)';
  const line = v.replace(/\s+/g, ' ');
  return `“${line.length > 80 ? `${line.slice(0, 79)}…` : line}”`;
}

/**
 * The event form's choice whether to tell booked people about a change of the title, location, online room link or
 * description (shown only while such a change is in the form and someone is booked). Lists what changed (old → new)
 * and a checkbox whose default is the server's own (domain/scheduling/event-details-change.ts `notifyByDefault`: on when
 * the title, location or link changed, off when only the description did); `choice` is null until the person ticks or
 * unticks it, and the form then sends no choice, so the server applies — and the audit log records — the default.
 */
export function NotifyDetailsChoice({
  changes,
  booked,
  choice,
  onChoice,
}: {
  changes: DetailChange[];
  /** Confirmed bookings of the event: the people who would be told. */
  booked: number;
  choice: boolean | null;
  onChoice: (notify: boolean) => void;
}) {
  const hintId = useId();
  if (changes.length === 0 || booked === 0) return null;
  const checked = choice ?? notifyByDefault(changes);
  const people = booked === 1 ? 'the 1 booked person' : `the ${booked} booked people`;
  return (
    <fieldset className="field field-wide notify-choice" data-testid="notify-choice" aria-describedby={hintId}>
      <legend>Tell booked people about this change?</legend>
      <ul className="notify-changes">
        {changes.map((c) => (
          <li key={c.field} data-field={c.field}>
            <span className="notify-field">{FIELD_LABELS[c.field]}:</span> <span dir="auto">{shown(c.from)}</span> → <span dir="auto">{shown(c.to)}</span>
          </li>
        ))}
      </ul>
      <label className="field-check notify-check">
        <input type="checkbox" name="notify" checked={checked} onChange={(e) => onChoice(e.currentTarget.checked)} />
        <span>Send {people} a message about this change, with an updated calendar entry</span>
      </label>
      <p id={hintId} className="field-hint">
        Ticked by default when the title, location or online room changes. A change to the description alone — such as a typo
        fixed — is not sent unless you tick it. Whom the message reaches follows your notification settings.
      </p>
    </fieldset>
  );
}
