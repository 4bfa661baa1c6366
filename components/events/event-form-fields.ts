/**
 * The event form's field list and value helpers (components/events/EventForm.tsx): the values it edits, the labels of
 * its fields in error messages and in the "what changed" panel of a stale save, and the conversions between the form's
 * values and what the server sends and takes.
 */
import { formatWallClock } from '@/domain/platform/edit-conflict';
import { messageLocales } from '@/domain/locales';
import { describeNote, noteFromKey, noteKey, type EventNote } from '@/domain/scheduling/event-note';
import { timingFromForm, type EventTimingForm } from '@/domain/scheduling/event-form';
import type { EventTiming } from './TimingRange';

export interface EventFormValues extends EventTimingForm {
  title: string;
  description: string;
  location: string;
  roomUrl: string;
  /** The note for participants as its {@link noteKey} ("" for none), so two notes compare as text. */
  eventNote: string;
}

export const LABELS: Record<string, string> = {
  title: 'Title',
  start: 'Starts',
  end: 'Ends',
  timeZone: 'Time zone',
  roomUrl: 'Online room URL',
  description: 'Description',
  location: 'Location',
  eventNote: 'Note for participants',
  version: 'Version',
};

/** The fields of the "what changed" panel, in form order. */
export const CHANGE_FIELDS: { key: keyof EventFormValues & string; label: string; format?: (v: unknown, other: unknown) => string }[] = [
  { key: 'title', label: 'Title' },
  { key: 'timeZone', label: 'Time zone' },
  { key: 'allDay', label: 'All day', format: (v) => (v ? 'yes' : 'no') },
  { key: 'start', label: 'Start', format: formatWallClock },
  { key: 'end', label: 'End', format: formatWallClock },
  { key: 'location', label: 'Location' },
  { key: 'roomUrl', label: 'Online room URL' },
  { key: 'description', label: 'Description' },
  { key: 'eventNote', label: 'Note for participants', format: (v) => describeNote(noteFromKey(String(v ?? ''))) || '—' },
];

/** The event as the server hands it back with a stale save (server/scheduling/staff-actions.ts `eventFormView`: the note as an object). */
export type LatestEvent = Omit<EventFormValues, 'eventNote'> & { eventNote?: EventNote | string | null; version: number; status?: string };

/**
 * The form's wall-clock timing as instants (domain/scheduling/event-form.ts, the server's own conversion), or null when it
 * does not parse (the save is then refused by the server, naming the field).
 */
export function timingOf(v: EventTimingForm): EventTiming | null {
  try {
    const t = timingFromForm({ start: v.start, end: v.end, timeZone: v.timeZone, allDay: v.allDay });
    return { startsAt: t.startsAt.toISOString(), endsAt: t.endsAt.toISOString(), timeZone: t.timeZone, allDay: t.allDay };
  } catch {
    return null;
  }
}

/** The form's own fields of `v` (the note as its key, whether `v` holds it as a key or as the server's object). */
export function pickForm(v: EventFormValues | LatestEvent): EventFormValues {
  const note = typeof v.eventNote === 'string' ? v.eventNote : noteKey(v.eventNote ?? null);
  return { title: v.title, description: v.description, location: v.location, roomUrl: v.roomUrl, timeZone: v.timeZone, allDay: v.allDay, start: v.start, end: v.end, eventNote: note };
}

/** The request body of a save: the form's values with the note as the object the API takes ({} = no note). */
export function requestBody(v: EventFormValues): Record<string, unknown> {
  return { ...v, eventNote: noteFromKey(v.eventNote) };
}

/** A note language's own name ("Nederlands"), "All languages" for "", else the tag (form and event page). */
export function noteLanguageName(lang: string): string {
  if (lang === '') return 'All languages';
  const known = messageLocales.find((l) => l.tag === lang) ?? messageLocales.find((l) => l.tag.startsWith(`${lang}-`));
  return known ? known.label.replace(/ \(.*\)$/, '') : lang;
}
