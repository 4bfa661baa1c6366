/**
 * The iCalendar import's structural pre-pass (domain/calendar/ics.ts): over the unfolded lines, it knows physical line
 * numbers (errors read "line 12: …"), checks BEGIN/END nesting, content-line shape and VTIMEZONE offsets, and records
 * where each VTIMEZONE and VEVENT is, so that each component is later parsed by ical.js on its own (parseComponent)
 * and the file is never held as one jCal tree. Also the raw-line look-ups a VEVENT's reader needs (rawProps,
 * propLines) and `clip` for error messages.
 */
import ICAL, { type IcalComponent } from './ics-ical';
import { IcsError } from './ics-types';
import { checkObservanceRrule } from './rrule-guard';
import type { OffsetAt } from '@/domain/scheduling/zone-agreement';
import { showBidiControls } from '@/domain/text';

// ---------------------------------------------------------------------------------------------------------
// Structural pre-pass over the unfolded lines: physical line numbers, BEGIN/END nesting, content-line shape,
// TZOFFSET sanity, and where each VTIMEZONE and VEVENT is. No ical.js here: it only remembers line ranges.

/** A TZOFFSETFROM/TZOFFSETTO beyond this is impossible (RFC 5545 §3.3.14 allows ±23:59; no zone ever used more than ±15). */
const MAX_ZONE_OFFSET_MINUTES = 18 * 60;
/** STANDARD/DAYLIGHT observances per VTIMEZONE: real zones have a few dozen; thousands take minutes to expand. */
export const MAX_OBSERVANCES = 200;

export interface VEventRef {
  /** 1-based number of the VEVENT in the file (error messages: "VEVENT #3"). */
  index: number;
  /** Index of its VCALENDAR (TZIDs are looked up in the same calendar). */
  cal: number;
  /** Unfolded line indexes of its BEGIN and END lines. */
  first: number;
  last: number;
  /** The UID line's raw value (trimmed), or null without a (non-empty) UID. */
  uid: string | null;
}
interface VTimezoneRef {
  first: number;
  last: number;
  xlic: string | null;
  /** Built on first use. */
  offsetAt?: OffsetAt;
}
export interface Scan {
  /** The unfolded content lines: `line(i)` (BEGIN/END normalised to upper case; '' for blank lines). */
  line: (i: number) => string;
  physicalLine: number[];
  vevents: VEventRef[];
  /** Per VCALENDAR: TZID → its VTIMEZONE. */
  cals: Map<string, VTimezoneRef>[];
}

const NAME = /^([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)?)[;:]/;

/** Shortens `s` for an error message and makes control characters (text-direction controls too) visible. */
export function clip(s: string, n = 60): string {
  const v = showBidiControls(s.replace(/[\u0000-\u001f\u007f]/g, '\uFFFD'));
  return v.length > n ? `${v.slice(0, n)}…` : v;
}

/** Minutes east of UTC of a UTC-OFFSET value (`+0100`, `-053000`), or null when malformed or beyond ±18:00. */
export function parseUtcOffset(v: string): number | null {
  const m = /^([+-])(\d{2})(\d{2})(\d{2})?$/.exec(v.trim());
  if (!m) return null;
  const [h, mi, s] = [Number(m[2]), Number(m[3]), Number(m[4] ?? 0)];
  if (mi > 59 || s > 59) return null;
  const total = h * 60 + mi + s / 60;
  return total > MAX_ZONE_OFFSET_MINUTES ? null : (m[1] === '-' ? -1 : 1) * total;
}

/** Removes the iCalendar TEXT escapes (§3.3.11) from a raw value. */
function unescapeText(v: string): string {
  return v.replace(/\\([\\;,nN])/g, (_m, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/**
 * Splits the unfolded text into lines (by offsets, not strings) and checks the file's structure: BEGIN/END nesting,
 * content-line shape, TZOFFSET values and VTIMEZONE observances; remembers where each VEVENT and VTIMEZONE is.
 * @param physicalLine per unfolded line, its 1-based physical line in the file (domain/calendar/ics-unfold.ts).
 * @throws IcsError naming the physical line: empty file, not iCalendar, NUL, a malformed content line, BEGIN/END
 *   mismatch or a truncated file, an impossible TZOFFSET, too many observances or an observance RRULE refused by
 *   domain/calendar/rrule-guard.ts checkObservanceRrule.
 */
export function scanStructure(text: string, physicalLine: number[]): Scan {
  // Line starts as offsets into the one text (a million small strings would cost more than the file).
  const starts = new Int32Array(physicalLine.length + 1);
  for (let i = 1, at = 0; i <= physicalLine.length; i++) {
    const nl = text.indexOf('\n', at);
    at = nl < 0 ? text.length + 1 : nl + 1;
    starts[i] = at;
  }
  const count = physicalLine.length;
  let firstContent = -1;
  const raw = (i: number) => text.slice(starts[i], starts[i + 1] - 1);
  for (let i = 0; i < count; i++) {
    if (raw(i).trim() !== '') {
      firstContent = i;
      break;
    }
  }
  if (firstContent < 0) throw new IcsError('empty file: not an iCalendar file (expected BEGIN:VCALENDAR)');
  const lineAt = (i: number): string => {
    if (i < firstContent) return '';
    const l = i === firstContent ? raw(i).trimStart() : raw(i);
    const m = /^(begin|end)[;:]/i.exec(l);
    if (!m) return l;
    return `${m[1].toUpperCase()}:${l.slice(l.indexOf(':') + 1).trim().toUpperCase()}`;
  };
  const outside = (i: number) =>
    new IcsError(
      i === firstContent
        ? `not an iCalendar file: expected BEGIN:VCALENDAR, found "${clip(raw(i).trim())}"`
        : `"${clip(raw(i))}" after END:VCALENDAR (expected BEGIN:VCALENDAR or the end of the file)`,
      { line: physicalLine[i] },
    );
  const stack: { name: string; line: number }[] = [];
  const vevents: VEventRef[] = [];
  const cals: Map<string, VTimezoneRef>[] = [];
  let vevent: VEventRef | null = null;
  let vtz: { first: number; tzid: string | null; xlic: string | null; observances: number } | null = null;
  for (let i = firstContent; i < count; i++) {
    const l = lineAt(i);
    if (l === '') continue; // blank lines carry nothing (ical.js skips them too)
    const line = physicalLine[i];
    if (l.includes('\u0000')) throw new IcsError('NUL character: binary data is not iCalendar text (RFC 5545 §3.1)', { line });
    const m = NAME.exec(l);
    const colon = l.indexOf(':');
    if (!m || colon < 0) {
      if (stack.length === 0) throw outside(i);
      throw new IcsError(`invalid content line (expected NAME:VALUE): "${clip(l)}"`, { line });
    }
    const name = m[1].toUpperCase();
    if (name === 'BEGIN' || name === 'END') {
      const value = l.slice(colon + 1);
      if (stack.length === 0 && !(name === 'BEGIN' && value === 'VCALENDAR')) throw outside(i);
      if (name === 'BEGIN') {
        if (!/^[A-Z0-9-]+$/.test(value)) throw new IcsError(`invalid component name in "${clip(l)}"`, { line });
        if (stack.length === 0) cals.push(new Map());
        if (stack.length === 1 && value === 'VEVENT') {
          vevent = { index: vevents.length + 1, cal: cals.length - 1, first: i, last: i, uid: null };
          vevents.push(vevent);
        }
        if (stack.length === 1 && value === 'VTIMEZONE') vtz = { first: i, tzid: null, xlic: null, observances: 0 };
        if (stack.length === 2 && vtz && (value === 'STANDARD' || value === 'DAYLIGHT') && ++vtz.observances > MAX_OBSERVANCES) {
          throw new IcsError(`VTIMEZONE has more than ${MAX_OBSERVANCES} STANDARD/DAYLIGHT observances (real time zones have a few dozen)`, { line });
        }
        stack.push({ name: value, line });
      } else {
        const open = stack.pop();
        if (!open || open.name !== value) {
          throw new IcsError(`END:${value} does not close BEGIN:${open?.name} (opened at line ${open?.line})`, { line });
        }
        if (stack.length === 1 && value === 'VEVENT' && vevent) {
          vevent.last = i;
          vevent = null;
        }
        if (stack.length === 1 && value === 'VTIMEZONE' && vtz) {
          if (vtz.tzid !== null && !cals[cals.length - 1].has(vtz.tzid)) {
            cals[cals.length - 1].set(vtz.tzid, { first: vtz.first, last: i, xlic: vtz.xlic });
          }
          vtz = null;
        }
      }
      continue;
    }
    if (stack.length === 2 && vevent && name === 'UID' && vevent.uid === null) {
      const v = unescapeText(l.slice(colon + 1)).trim();
      vevent.uid = v === '' ? null : v;
    } else if (stack.length === 2 && vtz) {
      if (name === 'TZID' && vtz.tzid === null) vtz.tzid = unescapeText(l.slice(colon + 1));
      if (name === 'X-LIC-LOCATION' && vtz.xlic === null) vtz.xlic = l.slice(colon + 1).trim();
    } else if (stack.length === 3 && vtz && name === 'RRULE') {
      const why = checkObservanceRrule(l.slice(colon + 1));
      if (why) throw new IcsError(why, { line });
    } else if (stack.length === 3 && vtz && (name === 'TZOFFSETFROM' || name === 'TZOFFSETTO')) {
      const v = l.slice(colon + 1);
      if (parseUtcOffset(v) === null) {
        throw new IcsError(`${name} "${clip(v.trim())}" is not a possible UTC offset (expected ±HHMM, at most ±18:00)`, { line });
      }
    }
  }
  if (stack.length > 0) {
    const open = stack[stack.length - 1];
    throw new IcsError(`BEGIN:${open.name} is never closed (missing END:${open.name}; is the file truncated?)`, {
      line: open.line,
    });
  }
  return { line: lineAt, physicalLine, vevents, cals };
}

/** Parses lines [first, last] (one component) with ical.js; a failure names the first line it rejects. */
export function parseComponent(scan: Scan, first: number, last: number): IcalComponent {
  const parts: string[] = [];
  for (let i = first; i <= last; i++) {
    const l = scan.line(i);
    if (l !== '') parts.push(l);
  }
  try {
    return new ICAL.Component(ICAL.parse(parts.join('\r\n')) as never);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    for (let i = first; i <= last; i++) {
      const l = scan.line(i);
      if (l === '' || /^(BEGIN|END):/.test(l)) continue;
      try {
        ICAL.parse.property(l, ICAL.design.icalendar);
      } catch (inner) {
        throw new IcsError(inner instanceof Error ? inner.message : String(inner), { line: scan.physicalLine[i] });
      }
    }
    throw new IcsError(`cannot parse the component: ${reason}`, { line: scan.physicalLine[first] });
  }
}

/** Every property `name` (upper case) directly inside the VEVENT, in file order: physical line and raw value. */
export function rawProps(scan: Scan, ref: VEventRef, name: string): { line: number; value: string }[] {
  const out: { line: number; value: string }[] = [];
  let depth = 0;
  for (let i = ref.first + 1; i < ref.last; i++) {
    const l = scan.line(i);
    if (l === '') continue;
    if (l.startsWith('BEGIN:')) depth++;
    else if (l.startsWith('END:')) depth--;
    else if (depth === 0 && NAME.exec(l)?.[1].toUpperCase() === name) {
      out.push({ line: scan.physicalLine[i], value: l.slice(l.lastIndexOf(':') + 1) });
    }
  }
  return out;
}

/** First physical line of each property (upper-case name) directly inside the VEVENT, and its raw value. */
export function propLines(scan: Scan, ref: VEventRef): { lines: Map<string, number>; values: Map<string, string> } {
  const lines = new Map<string, number>();
  const values = new Map<string, string>();
  let depth = 0;
  for (let i = ref.first + 1; i < ref.last; i++) {
    const l = scan.line(i);
    if (l === '') continue;
    if (l.startsWith('BEGIN:')) depth++;
    else if (l.startsWith('END:')) depth--;
    else if (depth === 0) {
      const m = NAME.exec(l);
      if (!m) continue;
      const name = m[1].toUpperCase();
      if (!lines.has(name)) {
        lines.set(name, scan.physicalLine[i]);
        values.set(name, l.slice(l.lastIndexOf(':') + 1));
      }
    }
  }
  return { lines, values };
}
