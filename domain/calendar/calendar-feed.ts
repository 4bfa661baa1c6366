/**
 * A person's calendar feed (subscription `.ics`): their live bookings as VEVENTs, with the same UID and SEQUENCE as
 * the invitations they were sent, so a calendar holding both an invitation and the feed shows one entry. Pure: all
 * inputs explicit (DTSTAMP included).
 *
 * Rules, with their source:
 *  - `METHOD:PUBLISH` (RFC 5546 §3.2.1): a published calendar asks for no reply; ORGANIZER is written, ATTENDEE
 *    is not (PUBLISH: "MUST NOT" carry ATTENDEE). Each VEVENT is built by domain/calendar/calendar-invite.ts
 *    `calendarEntry` (the same zones, escaping and folding as the invitations).
 *  - Zones: one VTIMEZONE per zone used, written once (RFC 5545 §3.6.5: the TZID must be unique in the calendar).
 *  - Alarms (RFC 5545 §3.6.6): `ACTION:DISPLAY` with a relative `TRIGGER` from the start (`-PT…` before it,
 *    `PT…` after) and the entry's title as DESCRIPTION (required for DISPLAY). One per distinct offset.
 *  - `X-WR-CALNAME` names the calendar (Apple's and Google's de-facto property), `REFRESH-INTERVAL` /
 *    `X-PUBLISHED-TTL` (RFC 7986 §5.7, Microsoft's) ask clients to refresh hourly.
 */
import ical, { ICalAlarmType, ICalCalendarMethod } from 'ical-generator';
import { calendarEntry, CALENDAR_INVITE_PRODID, type CalendarEntryInput } from './calendar-invite';

/** One feed entry: the VEVENT and its alarms in whole seconds before the start (negative = after the start). */
export interface CalendarFeedEntry {
  entry: Omit<CalendarEntryInput, 'attendee'>;
  alarmSecondsBefore: number[];
}

/** Everything a feed says: the calendar's display name and its entries (in any order; written by start). */
export interface CalendarFeedInput {
  name: string;
  entries: CalendarFeedEntry[];
}

/** How often clients should refetch, in seconds (1 hour). */
export const FEED_REFRESH_SECONDS = 3600;

/**
 * The `.ics` text of a feed: CRLF line endings, folded, ending with `END:VCALENDAR` + CRLF.
 * @throws CalendarInviteError (domain/calendar/calendar-invite.ts) naming the field of an entry that is wrong.
 */
export function buildCalendarFeed(input: CalendarFeedInput): string {
  const built = input.entries
    .map((e) => ({ ...calendarEntry({ ...e.entry, attendee: null }), alarms: e.alarmSecondsBefore, title: e.entry.title, startsAt: e.entry.startsAt }))
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || String(a.data.id).localeCompare(String(b.data.id)));
  const zones = new Map<string, string>();
  for (const b of built) if (b.zone && b.vtimezone) zones.set(b.zone, b.vtimezone);
  const calendar = ical({
    prodId: CALENDAR_INVITE_PRODID.slice(1),
    method: ICalCalendarMethod.PUBLISH,
    name: input.name.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim() || null,
    ttl: FEED_REFRESH_SECONDS,
    // ical-generator writes each zone's block once, however many events use it.
    timezone: { name: null, generator: (zone) => zones.get(zone) ?? null },
  });
  for (const b of built) {
    const event = calendar.createEvent(b.data);
    for (const s of distinct(b.alarms)) {
      const description = b.title.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '') || ' ';
      if (s >= 0) event.createAlarm({ type: ICalAlarmType.display, triggerBefore: s, description });
      else event.createAlarm({ type: ICalAlarmType.display, triggerAfter: -s, description });
    }
  }
  return `${calendar.toString()}\r\n`;
}

function distinct(xs: number[]): number[] {
  return [...new Set(xs.map((x) => Math.round(x)))].sort((a, b) => b - a);
}

/**
 * The alarm offsets of one booking from its planned reminders: for each due instant (UTC), seconds before (rounded to whole seconds)
 * `startsAt` (negative when due after the start, e.g. a follow-up after the end), distinct, largest first. So the
 * phone rings when the email goes out. Pure.
 */
export function alarmOffsets(startsAt: Date, dueAts: readonly Date[]): number[] {
  return distinct(dueAts.map((d) => Math.round((startsAt.getTime() - d.getTime()) / 1000)));
}
