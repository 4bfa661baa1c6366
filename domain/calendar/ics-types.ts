/**
 * The iCalendar import's public shapes (domain/calendar/ics.ts readIcs): the events it returns, the counts that
 * explain them, its options, and the error a file that cannot be imported raises.
 */

/** One event to import. Instants are UTC `Date`s; `timeZone` is the IANA zone the event is planned in. */
export interface IcsEvent {
  /**
   * The identity (stored as `events.external_uid`): the UID; `UID#c-<hex>` for one of several VEVENTs sharing
   * a UID; `nouid:<hex>` without UID; plus `#RECURRENCE-ID` for an expanded occurrence — `…#2012-08-01T12:00:00Z`
   * (UTC) or `…#2012-08-01` (all-day).
   */
  uid: string;
  /**
   * For a single (non-recurring) event with a UID: that UID. The importer matches a session of a repeated UID
   * whose identity is new against the other records of this UID (domain/calendar/ics-identity.ts `matchSessions`).
   * null for occurrences of a series and for events without UID.
   */
  group: string | null;
  /** SUMMARY, or "Untitled event" when the VEVENT has none. */
  title: string;
  /** DESCRIPTION; empty or blank → null. */
  description: string | null;
  /** LOCATION; empty or blank → null. */
  location: string | null;
  startsAt: Date;
  endsAt: Date;
  /** DTSTART was a DATE (RFC 5545 §3.3.4): startsAt/endsAt are local midnights in `timeZone`, end exclusive. */
  allDay: boolean;
  timeZone: string;
  /** STATUS:CANCELLED on the VEVENT, on its series, or on the overriding instance of an occurrence. */
  cancelled: boolean;
}

/** What was read, so that every VEVENT and occurrence is accounted for (see ImportIcsSummary). */
export interface IcsReadStats {
  /** VEVENT components in the file. */
  vevents: number;
  /** Of them, without UID (given a `nouid:` identity). */
  withoutUid: number;
  /** UIDs that more than one VEVENT (without RECURRENCE-ID) uses: each such VEVENT has a content identity. */
  repeatedUids: number;
  /** Occurrences found: events returned + every count below. */
  occurrences: number;
  /** Occurrences of recurring series that start before the horizon. */
  beforeWindow: number;
  /** Occurrences of recurring series that start after the horizon (series that end within 500 more). */
  afterWindow: number;
  /** Recurring series that go on after the horizon for more than 500 occurrences (or forever): not counted one by one. */
  seriesContinuing: number;
  /** Occurrences inside the horizon beyond `maxOccurrencesPerEvent` of their series. */
  beyondLimit: number;
  /** VEVENTs identical to an earlier one (same UID or none, same start, title and location): one event is kept. */
  duplicates: number;
}

export interface ParseIcsOptions {
  /** IANA zone for UTC (`Z`), floating and DATE values, and the fall-back zone of a VTIMEZONE no IANA zone matches. */
  defaultTimeZone: string;
  /** Recurring series are expanded to the occurrences whose start lies in [horizonStart, horizonEnd]. */
  horizonStart: Date;
  horizonEnd: Date;
  /** At most this many occurrences per recurring series (the earliest ones win). Default 500. */
  maxOccurrencesPerEvent?: number;
  /** Called now and then while VEVENTs are read: `done` of `total` VEVENTs. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * A file that cannot be imported. `message` names where: "line 12: …", or "line 40, VEVENT #3 (UID abc): …".
 * `line` is the 1-based physical line in the file; `component` names the VEVENT when there is one.
 */
export class IcsError extends Error {
  readonly line?: number;
  readonly component?: string;

  constructor(detail: string, where: { line?: number; component?: string } = {}) {
    const prefix = [where.line !== undefined ? `line ${where.line}` : null, where.component ?? null].filter(Boolean).join(', ');
    super(prefix ? `${prefix}: ${detail}` : detail);
    this.name = 'IcsError';
    this.line = where.line;
    this.component = where.component;
  }
}
