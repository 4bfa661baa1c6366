/**
 * iCalendar invitations for booking emails (issue #9 §6): the `.ics` text that a confirmation, reschedule or
 * cancellation email carries. Pure: every input is explicit (DTSTAMP included), nothing reads a clock or a file.
 *
 * Built with ical-generator (serialisation, TEXT escaping, line folding) and timezones-ical-library (the
 * VTIMEZONE of an IANA zone). Rules, with their source:
 *  - iTIP (RFC 5546 §3.2.2, §3.2.5): `METHOD:REQUEST` for a confirmation or a reschedule, `METHOD:CANCEL` for a
 *    cancellation; exactly one VEVENT with UID, SEQUENCE, DTSTAMP, DTSTART, ORGANIZER and one ATTENDEE. The
 *    caller keeps ONE UID per booking and passes a higher SEQUENCE on every reschedule and on the cancellation
 *    (§2.1.4: a calendar client applies an update only when its SEQUENCE is not lower than the one it holds).
 *    REQUEST carries `STATUS:CONFIRMED`, CANCEL `STATUS:CANCELLED` (RFC 5545 §3.8.1.11).
 *  - Timed events (RFC 5545 §3.3.5 form #3, §3.6.5): `DTSTART;TZID=<zone>:YYYYMMDDTHHMMSS` and DTEND likewise,
 *    as wall-clock times in the event's own zone, with that zone's VTIMEZONE in the calendar (its TZID line
 *    says the zone name exactly as given, e.g. Europe/Kiev, while X-LIC-LOCATION keeps the library's current
 *    name). Seconds precision: milliseconds are dropped. Before using it, the VTIMEZONE is checked against the
 *    runtime's zone data (luxon): it must map both wall-clock times back to the very instants given. When it
 *    does not — the library lacks the zone, its rules differ from the runtime's (timezones-ical-library 2.3.2
 *    has tzdata 2026c, Node 20's ICU an older one: e.g. America/Vancouver, Africa/Casablanca), the date is
 *    before 1970 (where its rules start), or the start is the second occurrence of a repeated local time
 *    (RFC 5545 §3.3.5 reads a repeated time as the first; ical.js reads it as the second, so a repeated time
 *    is never written with TZID, whichever occurrence it is) — DTSTART/DTEND are written as UTC instants
 *    (`…Z`, form #2) without VTIMEZONE: the instant is then right in every client, which shows it in the
 *    reader's own zone. The zone `UTC` is always written that way.
 *  - All-day events (RFC 5545 §3.3.4, §3.6.1): `DTSTART;VALUE=DATE:` the local date of `startsAt` in the event
 *    zone, `DTEND;VALUE=DATE:` the exclusive end date — the local date of `endsAt` when that is a local
 *    midnight, else the day after it; at least one day after the start. No VTIMEZONE (DATE values are
 *    floating).
 *  - ORGANIZER/ATTENDEE (RFC 5545 §3.8.4.1, §3.8.4.3): `ORGANIZER;CN="<name>":mailto:<email>` and
 *    `ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE;CN="<name>":MAILTO:<email>` (URI
 *    schemes are case-insensitive, RFC 3986 §3.1; no reply is asked for, though calendar apps send one when
 *    the person answers: server/calendar/replies.ts reads those). In a CN, a double quote and a caret are written per RFC 6868 (`^'`, `^^`), control
 *    characters and line breaks become spaces, and a backslash becomes `/` (a parameter value has no escape
 *    for it, and ical-generator would double it). A blank name falls back to the address.
 *  - TEXT values (SUMMARY, DESCRIPTION, LOCATION; RFC 5545 §3.3.11): backslash, semicolon, comma and line
 *    breaks are escaped; control characters other than TAB and line breaks (not allowed in TEXT) are
 *    removed; a lone UTF-16 surrogate becomes U+FFFD. Emoji and non-Latin text are kept (UTF-8).
 *  - URL (RFC 5545 §3.8.4.6, a URI): normalised by WHATWG `URL`; `;` `,` `\` are percent-encoded so that
 *    ical-generator's TEXT escaping (which it also applies to URIs) has nothing to escape.
 *  - Lines end with CRLF, the last one included, and are folded at 75 octets without splitting a UTF-8
 *    character (RFC 5545 §3.1).
 *  - PRODID names Punctual (§3.7.3).
 */
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus, type ICalEventData } from 'ical-generator';
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { tzlib_get_ical_block, tzlib_get_timezones } from 'timezones-ical-library';
import { isValidZone } from '@/domain/zones';

/** iTIP method of an invitation: REQUEST (new or changed booking) or CANCEL (booking or event cancelled). */
type CalendarInviteMethod = 'REQUEST' | 'CANCEL';

/** A person in the invitation: display name and email address. */
interface CalendarInvitePerson {
  name: string;
  email: string;
}

/** Everything an invitation says. Instants are UTC `Date`s; `timeZone` is the IANA zone the event is planned in. */
export interface CalendarInviteInput {
  method: CalendarInviteMethod;
  /** One stable UID per booking, e.g. `booking-<uuid>@punctual.local`: no control characters, `,`, `;` or `\`. */
  uid: string;
  /** 0 for the first invitation, then higher on every reschedule and on the cancellation (integer ≥ 0). */
  sequence: number;
  title: string;
  description: string | null;
  location: string | null;
  /** An absolute URL (e.g. the booking's page), or null. */
  url: string | null;
  /** UTC instant. All-day: the local midnight starting the first day in `timeZone`. */
  startsAt: Date;
  /** UTC instant, exclusive end. All-day: the local midnight after the last day. Not before `startsAt`. */
  endsAt: Date;
  allDay: boolean;
  /** IANA zone name (domain/zones.ts `isValidZone`). */
  timeZone: string;
  organizer: CalendarInvitePerson;
  attendee: CalendarInvitePerson;
  /** DTSTAMP: the UTC instant the invitation is created (the caller's clock; nothing here reads one). */
  stamp: Date;
}

/** A wrong input to `buildCalendarInvite`; `field` names the input property. */
export class CalendarInviteError extends Error {
  constructor(
    message: string,
    readonly field: keyof CalendarInviteInput | 'organizer.email' | 'attendee.email',
  ) {
    super(message);
    this.name = 'CalendarInviteError';
  }
}

/** PRODID value (RFC 5545 §3.7.3), as written: `PRODID:-//Punctual//Punctual//EN`. */
export const CALENDAR_INVITE_PRODID = '-//Punctual//Punctual//EN';

/** Attachment file name: `invite.ics` for REQUEST, `cancel.ics` for CANCEL. */
export function calendarInviteFilename(method: CalendarInviteMethod): 'invite.ics' | 'cancel.ics' {
  return method === 'CANCEL' ? 'cancel.ics' : 'invite.ics';
}

/**
 * The `.ics` text of one invitation (see the module comment for every rule). CRLF line endings, folded,
 * ending with `END:VCALENDAR` + CRLF.
 *
 * @throws CalendarInviteError naming the field: a method other than REQUEST/CANCEL; an empty UID or one with
 *   control characters, `,`, `;` or `\`; a sequence that is not an integer ≥ 0; an invalid Date; `endsAt`
 *   before `startsAt`; a zone that is not an IANA name; an organizer or attendee address that is not a plain
 *   `local@domain` (no spaces, quotes, commas, semicolons, colons, angle brackets or backslashes); a URL that
 *   is not absolute.
 */
export function buildCalendarInvite(input: CalendarInviteInput): string {
  const { method } = input;
  if (method !== 'REQUEST' && method !== 'CANCEL') throw new CalendarInviteError(`method must be REQUEST or CANCEL (got ${String(method)})`, 'method');
  const entry = calendarEntry({ ...input, cancelled: method === 'CANCEL' });
  const calendar = ical({
    prodId: CALENDAR_INVITE_PRODID.slice(1), // ical-generator writes the leading "-"
    method: method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
    // No calendar-wide zone (it would also write DTSTAMP in local time and add X-WR-TIMEZONE); the generator
    // is asked for each event's zone.
    timezone: { name: null, generator: (zone) => (zone === entry.zone ? entry.vtimezone : null) },
  });
  calendar.createEvent(entry.data);
  return `${calendar.toString()}\r\n`;
}

/**
 * What one calendar entry says, for an invitation or a feed (domain/calendar/calendar-feed.ts): the invitation's
 * input without the method; `cancelled` writes `STATUS:CANCELLED` (else CONFIRMED); `attendee` null writes no
 * ATTENDEE (a PUBLISH feed has none, RFC 5546 §3.2.1).
 */
export type CalendarEntryInput = Omit<CalendarInviteInput, 'method' | 'attendee'> & { cancelled: boolean; attendee: CalendarInvitePerson | null };

/**
 * One VEVENT's ical-generator data, checked and normalised by every rule of the module comment, plus the zone it
 * is written in and that zone's VTIMEZONE block (both null when written in UTC or as DATE values).
 * @throws CalendarInviteError as {@link buildCalendarInvite} does (except for the method).
 */
export function calendarEntry(input: CalendarEntryInput): { data: ICalEventData; zone: string | null; vtimezone: string | null } {
  const { uid, sequence, timeZone } = input;
  if (typeof uid !== 'string' || uid === '' || /[\u0000-\u001f\u007f,;\\]/.test(uid)) {
    throw new CalendarInviteError('uid must be non-empty, without control characters, commas, semicolons or backslashes', 'uid');
  }
  if (!Number.isSafeInteger(sequence) || sequence < 0) throw new CalendarInviteError('sequence must be an integer ≥ 0', 'sequence');
  for (const f of ['startsAt', 'endsAt', 'stamp'] as const) {
    if (!(input[f] instanceof Date) || Number.isNaN(input[f].getTime())) throw new CalendarInviteError(`${f} must be a valid Date`, f);
  }
  if (input.endsAt.getTime() < input.startsAt.getTime()) throw new CalendarInviteError('endsAt must not be before startsAt', 'endsAt');
  if (!isValidZone(timeZone)) throw new CalendarInviteError(`timeZone "${timeZone}" is not an IANA zone`, 'timeZone');
  const organizerEmail = checkEmail(input.organizer.email, 'organizer.email');
  const attendeeEmail = input.attendee ? checkEmail(input.attendee.email, 'attendee.email') : null;
  const url = input.url === null ? null : checkUrl(input.url);

  // Whole seconds: iCalendar DATE-TIME has no fraction (RFC 5545 §3.3.5).
  const startMs = Math.floor(input.startsAt.getTime() / 1000) * 1000;
  const endMs = Math.floor(input.endsAt.getTime() / 1000) * 1000;

  let times: { start: DateTime; end: DateTime; timezone: string | null; allDay: boolean };
  let vtimezone: string | null = null;
  if (input.allDay) {
    const first = DateTime.fromMillis(startMs, { zone: timeZone }).startOf('day');
    const endLocal = DateTime.fromMillis(endMs, { zone: timeZone });
    let last = endLocal.startOf('day');
    if (last.toMillis() !== endLocal.toMillis()) last = last.plus({ days: 1 });
    if (last.toISODate()! <= first.toISODate()!) last = first.plus({ days: 1 });
    // Dates as UTC midnights: ical-generator writes a non-system-zone luxon value's own date for DATE values.
    times = { start: asUtcDate(first), end: asUtcDate(last), timezone: null, allDay: true };
  } else {
    vtimezone = timeZone === 'UTC' ? null : verifiedVtimezone(timeZone, [startMs, endMs]);
    times = vtimezone
      ? { start: DateTime.fromMillis(startMs, { zone: timeZone }), end: DateTime.fromMillis(endMs, { zone: timeZone }), timezone: timeZone, allDay: false }
      : { start: DateTime.fromMillis(startMs, { zone: 'utc' }), end: DateTime.fromMillis(endMs, { zone: 'utc' }), timezone: null, allDay: false };
  }

  // ical-generator's event constructor defaults `id` and `stamp` from crypto/clock; both are replaced here.
  const data: ICalEventData = {
    id: uid,
    sequence,
    stamp: DateTime.fromMillis(input.stamp.getTime(), { zone: 'utc' }),
    start: times.start,
    end: times.end,
    allDay: times.allDay,
    timezone: times.timezone,
    summary: text(input.title),
    description: blankToNull(input.description),
    location: blankToNull(input.location),
    url,
    status: input.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: commonName(input.organizer.name, organizerEmail), email: organizerEmail },
    attendees:
      input.attendee && attendeeEmail
        ? [
            {
              name: commonName(input.attendee.name, attendeeEmail),
              email: attendeeEmail,
              role: ICalAttendeeRole.REQ,
              status: ICalAttendeeStatus.NEEDSACTION,
              rsvp: false,
            },
          ]
        : [],
  };
  return { data, zone: times.timezone, vtimezone };
}

function asUtcDate(d: DateTime): DateTime {
  return DateTime.utc(d.year, d.month, d.day);
}

/** Control characters TEXT may not hold (RFC 5545 §3.3.11: TSAFE-CHAR excludes CONTROL; HT, CR, LF are handled). */
const TEXT_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function text(s: string): string {
  return s.replace(TEXT_CONTROLS, '').replace(LONE_SURROGATE, '\ufffd');
}

function blankToNull(s: string | null): string | null {
  if (s === null) return null;
  const t = text(s);
  return t.trim() === '' ? null : t;
}

/**
 * A CN parameter value (RFC 5545 §3.2 param-value, RFC 6868): ical-generator quotes it and backslash-escapes
 * `"` and `\` (which no reader undoes), so neither may reach it: `"` → `^'`, `^` → `^^` (RFC 6868), `\` → `/`;
 * control characters and line breaks → space.
 */
function commonName(name: string, email: string): string {
  const cleaned = text(name)
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim();
  if (cleaned === '') return email;
  return cleaned.replace(/\^/g, '^^').replace(/"/g, "^'").replace(/\\/g, '/');
}

function checkEmail(email: string, field: 'organizer.email' | 'attendee.email'): string {
  if (typeof email !== 'string' || !/^[^\s@"(),:;<>[\\\]]+@[^\s@"(),:;<>[\\\]]+$/u.test(email)) {
    throw new CalendarInviteError(`${field} "${String(email)}" is not a plain email address`, field);
  }
  return email;
}

function checkUrl(url: string): string {
  let href: string;
  try {
    href = new URL(url).href;
  } catch {
    throw new CalendarInviteError(`url "${url}" is not an absolute URL`, 'url');
  }
  return href.replace(/[;,\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

let libraryZones: Set<string> | null = null;
const vtimezones = new Map<string, { block: string; zone: InstanceType<typeof ICAL.Timezone> } | null>();

/**
 * True when the wall-clock time of `w` also happens at another instant in its zone (a fall-back overlap).
 * Transitions are looked for within a day either side (no zone changes its offset twice in a day).
 */
function isRepeatedWallTime(w: DateTime): boolean {
  const wallMs = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const ms = w.toMillis();
  const offsets = new Set([-86_400_000, 0, 86_400_000].map((d) => w.zone.offset(ms + d)));
  for (const o of offsets) {
    const other = wallMs - o * 60_000;
    if (other !== ms && w.zone.offset(other) === o) return true;
  }
  return false;
}

/**
 * The VTIMEZONE for `zone` (its TZID line set to `zone`), or null when the library lacks the zone or its rules
 * do not map the wall-clock time of every instant in `instantsMs` (UTC ms, whole seconds) back to that instant,
 * or one of those wall-clock times is repeated (fall-back overlap) in the runtime's zone data.
 */
function verifiedVtimezone(zone: string, instantsMs: number[]): string | null {
  let entry = vtimezones.get(zone);
  if (entry === undefined) {
    libraryZones ??= new Set(tzlib_get_timezones() as string[]);
    entry = null;
    if (libraryZones.has(zone)) {
      const got = tzlib_get_ical_block(zone);
      const raw = Array.isArray(got) ? got[0] : '';
      if (raw && /^TZID:/m.test(raw)) {
        const block = raw.replace(/\r?\n/g, '\r\n').replace(/^TZID:.*$/m, `TZID:${zone}`);
        entry = { block, zone: new ICAL.Timezone(new ICAL.Component(ICAL.parse(block))) };
      }
    }
    vtimezones.set(zone, entry);
  }
  if (entry === null) return null;
  for (const ms of instantsMs) {
    const w = DateTime.fromMillis(ms, { zone });
    if (isRepeatedWallTime(w)) return null;
    const t = ICAL.Time.fromData({ year: w.year, month: w.month, day: w.day, hour: w.hour, minute: w.minute, second: w.second, isDate: false }, entry.zone);
    if (t.toUnixTime() * 1000 !== ms) return null;
  }
  return entry.block;
}
