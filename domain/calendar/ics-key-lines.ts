/**
 * The lines of an iCalendar object a person checks first when an invitation looks wrong (the mailbox's
 * "Calendar invitation" box): the calendar's METHOD, and the first VEVENT's UID, SEQUENCE, DTSTART, DTEND,
 * STATUS, SUMMARY, LOCATION and URL (the place and the online room an updated invitation moves) — each as the unfolded content line, verbatim (parameters such as `TZID=` included).
 * Pure; no validation beyond what reading needs.
 *
 * Rules, with their source:
 *  - Content lines are unfolded first: a CRLF (or bare LF) followed by one space or tab is removed
 *    (RFC 5545 §3.1). Lines may end in CRLF or LF.
 *  - A property name is the text before the first `;` or `:` and is case-insensitive (RFC 5545 §3.1, §2).
 *  - METHOD is a calendar property (§3.7.2): only read at the VCALENDAR level, directly inside it.
 *  - The event properties are read only directly inside the FIRST VEVENT: VTIMEZONE's STANDARD/DAYLIGHT
 *    sub-components also have DTSTART lines (§3.6.5), and a VALARM inside the VEVENT has its own properties;
 *    neither is an event line. A second VEVENT (another recurrence instance) is ignored.
 *  - The first occurrence of each property wins; a property that is absent is left out (SEQUENCE absent means
 *    0, §3.8.7.4, but the box shows what the file says, not a default).
 */

/** The property names returned, in display order. */
const icsKeyProperties = ['METHOD', 'UID', 'SEQUENCE', 'DTSTART', 'DTEND', 'STATUS', 'SUMMARY', 'LOCATION', 'URL'] as const;
export type IcsKeyProperty = (typeof icsKeyProperties)[number];

/** One key line: its property name (upper case) and the whole unfolded content line as written. */
export interface IcsKeyLine {
  name: IcsKeyProperty;
  line: string;
}

const eventProperties: ReadonlySet<string> = new Set(icsKeyProperties.filter((p) => p !== 'METHOD'));

/**
 * The key lines of `ics` (an iCalendar text, RFC 5545), in {@link icsKeyProperties} order, each present
 * property once. Returns [] when the text holds no VCALENDAR. Never throws.
 */
export function icsKeyLines(ics: string): IcsKeyLine[] {
  const lines = ics.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  const stack: string[] = [];
  const found = new Map<IcsKeyProperty, string>();
  let eventsSeen = 0;
  let sawCalendar = false;
  for (const line of lines) {
    if (line === '') continue;
    const name = line.slice(0, line.search(/[;:]|$/)).toUpperCase();
    const value = line.slice(line.indexOf(':') + 1).trim().toUpperCase();
    if (name === 'BEGIN') {
      stack.push(value);
      if (value === 'VCALENDAR') sawCalendar = true;
      if (value === 'VEVENT' && stack.length === 2 && stack[0] === 'VCALENDAR') eventsSeen++;
      continue;
    }
    if (name === 'END') {
      const at = stack.lastIndexOf(value);
      if (at >= 0) stack.length = at;
      continue;
    }
    const inCalendar = stack.length === 1 && stack[0] === 'VCALENDAR';
    const inFirstEvent = stack.length === 2 && stack[0] === 'VCALENDAR' && stack[1] === 'VEVENT' && eventsSeen === 1;
    if (name === 'METHOD' && inCalendar && !found.has('METHOD')) found.set('METHOD', line);
    else if (inFirstEvent && eventProperties.has(name) && !found.has(name as IcsKeyProperty)) found.set(name as IcsKeyProperty, line);
  }
  if (!sawCalendar) return [];
  return icsKeyProperties.filter((p) => found.has(p)).map((name) => ({ name, line: found.get(name)! }));
}
