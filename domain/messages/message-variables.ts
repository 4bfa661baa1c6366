/**
 * The variables a message kind's text may use (DESIGN §3 "Message text", issue #22 §2): typed per kind, named as the
 * built-in text names them (emails/messages/en.ts — test/unit/message-variables.test.ts proves every variable the
 * English text of a kind uses is listed here for that kind), each with how it may be used in ICU MessageFormat and a
 * sample value of typical length (used to estimate an SMS's segments before any real data exists). Pure.
 *
 * The values come from the template data (emails/schema.ts) the send path validates before the claim:
 * - `eventTitle`, `tenantName` — typed text, never empty (schema: non-empty).
 * - `when` — the start (all-day: the days) formatted in the message's locale and the event's zone.
 * - `allDay` — "yes" | "no"; use it with `select`.
 * - `time` (room-opening) — the clock time the online room opens, in the event's zone.
 * - `url` (room-opening) — the online room's link.
 * - `was`, `now` (event-rescheduled) — the old and the new start, each formatted in its own zone.
 * - `eventNote` — the event's note for participants in the reader's language (domain/scheduling/event-note.ts), plain
 *   text of at most 500 characters, possibly several lines; the EMPTY string when the event has none for them. A
 *   paragraph (or list item) that holds nothing but `{eventNote}` is left out when it is empty, so write it on a line of
 *   its own. A variable of the messages to people who are coming to the event — the reminders (attendee, host, room
 *   opening) and the booking confirmation — and not of the others: a cancellation has nothing to bring, a reschedule
 *   notice says what changed (the next reminder carries the note), and a host hears it in the host reminder.
 * The reader's name is not a variable of the text staff write: the email layout greets by name ("Hello Jonas,", or
 * "Hello," when none is stored) above the body, so no text can print an empty name.
 */
import type { MessageKind } from '@/domain/vocabulary';

/**
 * How a variable may be used: `text` — as `{name}` only; `link` — a URL: as `{name}`, or as the target of a Markdown
 * link `[text]({name})`; `choice` — only with `select` over its `values`; `number` — as `{n}`, `{n, number}`,
 * `{n, plural, …}` or `{n, selectordinal, …}`.
 */
export type VariableType = 'text' | 'link' | 'choice' | 'number';

export interface MessageVariable {
  name: string;
  type: VariableType;
  /** For `choice`: every value it can have (a `select` option outside these never matches). */
  values?: readonly string[];
  /** What it is, in a staff member's words (shown in the editor's variable list). */
  description: string;
  /** A value of typical length (English), for estimating SMS segments of a draft. */
  sample: string;
  /**
   * May be empty (the event's note): in an email body it must stand on a line of its own (alone, or as a "- " list
   * item, possibly in `*`/`**`), so the line is left out when it is empty instead of printing "Note: " with nothing.
   */
  ownLine?: boolean;
}

const tenantName: MessageVariable = { name: 'tenantName', type: 'text', description: "your organisation's name", sample: 'Glaze Studio Amsterdam' };
const eventTitle: MessageVariable = { name: 'eventTitle', type: 'text', description: "the event's title", sample: 'Pottery for beginners' };
const when: MessageVariable = {
  name: 'when',
  type: 'text',
  description: "when the event starts (all-day: its days), in the reader's language and the event's time zone",
  sample: 'Thu, Dec 3, 6:30 PM CET',
};
const eventNote: MessageVariable = {
  name: 'eventNote',
  type: 'text',
  description: "the event's note for participants in the reader's language (empty when there is none: put it on a line of its own)",
  sample: 'Bring an apron; we start on time.',
  ownLine: true,
};
const allDay: MessageVariable = { name: 'allDay', type: 'choice', values: ['yes', 'no'], description: 'whether the event lasts all day: yes or no (use with select)', sample: 'no' };

/** The variables of each message kind, in the order the editor lists them. */
export const messageVariables: Readonly<Record<MessageKind, readonly MessageVariable[]>> = {
  'attendee-reminder': [eventTitle, when, allDay, eventNote, tenantName],
  'room-opening': [
    eventTitle,
    { name: 'time', type: 'text', description: 'when the online room opens (a clock time in the event time zone)', sample: '6:20 PM' },
    { name: 'url', type: 'link', description: "the online room's link", sample: 'https://meet.example.com/r/9f3k2' },
    eventNote,
    tenantName,
  ],
  'host-reminder': [eventTitle, when, allDay, eventNote, tenantName],
  'booking-confirmed': [eventTitle, when, allDay, eventNote, tenantName],
  'booking-cancelled': [eventTitle, when, tenantName],
  'event-rescheduled': [
    eventTitle,
    { name: 'was', type: 'text', description: 'the old start, in the time zone it was planned in', sample: 'Thu, Dec 3, 6:30 PM CET' },
    { name: 'now', type: 'text', description: 'the new start, in the event time zone', sample: 'Fri, Dec 4, 7:00 PM CET' },
    tenantName,
  ],
  'event-cancelled': [eventTitle, when, allDay, tenantName],
  'host-added': [eventTitle, when, allDay, tenantName],
  'event-details-changed': [
    eventTitle,
    when,
    allDay,
    { name: 'changes', type: 'text', description: 'what changed: one sentence per changed detail with its new and old value', sample: 'Where: now Garden B (was Room A).' },
    tenantName,
  ],
  'confirmation-request': [eventTitle, when, allDay, tenantName],
  'booking-declined': [
    eventTitle,
    when,
    { name: 'participantName', type: 'text', description: 'who cannot come: their name, else their email address', sample: 'Ana Lima' },
    tenantName,
  ],
  // An announcement staff write to the people of one event: the event's own facts, like a reminder's.
  announcement: [eventTitle, when, allDay, tenantName],
};

/** The names of a kind's variables, in the editor's order. */
export function variableNames(kind: MessageKind): string[] {
  return messageVariables[kind].map((v) => v.name);
}

/** Sample values of a kind's variables (for formatting a draft before real data exists). */
export function sampleValues(kind: MessageKind): Record<string, string> {
  return Object.fromEntries(messageVariables[kind].map((v) => [v.name, v.sample]));
}
