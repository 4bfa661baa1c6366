/**
 * iCalendar (RFC 5545) → Punctual events. PURE: no database, no clock; the horizon is an input.
 *
 * Parsing is ical.js (Mozilla's parser), one component at a time; this module adds what an import needs:
 *  - bytes first: the file is unfolded on its BYTES and only then decoded as strict UTF-8
 *    (domain/calendar/ics-unfold.ts, RFC 5545 §3.1), so a fold inside a multi-byte character keeps the character;
 *  - a structural pre-pass over the unfolded lines that knows physical line numbers (errors read "line 12: …")
 *    and splits the file into components: VTIMEZONEs are parsed first, then each VEVENT on its own — the
 *    file is never held as one jCal tree (a 100 000-VEVENT file needs a few hundred MB, not gigabytes);
 *  - TZID → zone: the file's own VTIMEZONE governs its TZIDs (see `readIcs`);
 *  - recurrence expansion of every RRULE and RDATE, minus EXDATEs, with RECURRENCE-ID overrides, inside a
 *    bounded horizon, each occurrence becoming its own event `<identity>#RECURRENCE-ID`;
 *  - identities that do not depend on position (domain/calendar/ics-identity.ts).
 *
 * Components other than VEVENT (VTODO, VJOURNAL, VFREEBUSY) are ignored; VTIMEZONE is read for TZIDs.
 *
 * This module is the entry (readIcs, and the public names re-exported); the parts, all pure:
 * ics-types.ts (IcsEvent, IcsReadStats, ParseIcsOptions, IcsError), ics-scan.ts (the structural pre-pass),
 * ics-tzid.ts (TZID → IANA name, Windows zones), ics-zones.ts (wall clocks, VTIMEZONE vs IANA, instants),
 * ics-events.ts (one VEVENT read, an IcsEvent made), ics-recurrence.ts (series expansion) and ics-ical.ts
 * (ical.js with the rule iterator's step budget).
 */
import { IANAZone } from 'luxon';
import { noUidIdentity, repeatedUidIdentity } from './ics-identity';
import { unfoldIcsBytes } from './ics-unfold';
import { toIcsEvent, readVEvent, UNTITLED, type VEvent } from './ics-events';
import { expandSeries } from './ics-recurrence';
import { scanStructure, type VEventRef } from './ics-scan';
import { IcsError, type IcsEvent, type IcsReadStats, type ParseIcsOptions } from './ics-types';
import type { Ctx } from './ics-zones';

export { IcsError, type IcsEvent, type IcsReadStats, type ParseIcsOptions } from './ics-types';
export { resolveTzid, windowsZones } from './ics-tzid';
export { MAX_OBSERVANCES } from './ics-scan';

const DEFAULT_MAX_OCCURRENCES = 500;

/**
 * Reads an iCalendar file into the events to import and the counts that explain them.
 *
 * Rules (RFC 5545 sections in brackets):
 *  - Bytes: folds are removed on the bytes, then the whole is decoded as UTF-8 with a fatal decoder (§3.1,
 *    §3.1.4); invalid UTF-8 is an error naming the physical line (domain/calendar/ics-unfold.ts). A string input is
 *    encoded as UTF-8 first.
 *  - Identity (§3.8.4.7; domain/calendar/ics-identity.ts): a UID used by one VEVENT (or one recurring series) is the
 *    identity. When several VEVENTs without RECURRENCE-ID share a UID, each gets `UID#c-<hash of start,
 *    SUMMARY, LOCATION>`; one without UID gets `nouid:<hash>`. A VEVENT with the same identity as an earlier
 *    one (same UID, start, title and location) is a duplicate: counted, not returned. Overrides
 *    (RECURRENCE-ID) belong to the first recurring VEVENT of their UID; two overrides of one instance: the
 *    higher SEQUENCE wins (§3.8.7.4), then the later one in the file.
 *  - Zones: `Z` (UTC) and floating values keep their instant and are planned in `defaultTimeZone`. A TZID:
 *      · without a VTIMEZONE in the file: mapped to an IANA zone by `resolveTzid` (unknown → error);
 *      · with a VTIMEZONE: the name is trusted (instants by the IANA zone, planned in it) only when the IANA
 *        zone it resolves to (by name, vendor prefix, X-LIC-LOCATION or Windows name) has the same UTC
 *        offsets as the VTIMEZONE throughout the event's year (domain/scheduling/zone-agreement.ts). Otherwise the
 *        VTIMEZONE's own rules give the instant (§3.6.5), and the event is planned in the first IANA zone
 *        whose offsets agree with the VTIMEZONE over that year — tried in order: the resolved name, the
 *        X-LIC-LOCATION, `defaultTimeZone`, the main zone of every Windows zone, then every zone the runtime
 *        knows — so that its wall clock reads as the file says; when none agrees, in `defaultTimeZone`. E.g.
 *        `TZID:GMT` with British summer rules: 2027-07-22 10:20 is 09:20Z, planned in Europe/London.
 *      · a TZOFFSETFROM/TZOFFSETTO beyond ±18:00 (or malformed) is an error naming its line.
 *  - DATE-only DTSTART → all-day: startsAt/endsAt are local midnights in `defaultTimeZone`; DTEND is
 *    exclusive; without DTEND/DURATION the event lasts one day (§3.6.1).
 *  - DURATION instead of DTEND: days and weeks are nominal (wall-clock), hours/minutes/seconds are exact
 *    (§3.3.6). A DATE-TIME DTSTART with neither DTEND nor DURATION ends when it starts (§3.6.1).
 *  - Recurrence (§3.8.5): the recurrence set is DTSTART, plus the occurrences of EVERY RRULE (each expanded
 *    on its own by ical.js's rule iterator in DTSTART's wall clock; UNTIL compared as an instant when it is
 *    UTC, §3.3.10), plus every RDATE (a PERIOD counts by its start), deduplicated by instant, minus every
 *    EXDATE. Each occurrence whose start lies in [horizonStart, horizonEnd] (inclusive) becomes an event
 *    `<identity>#RECURRENCE-ID` — the original start as a UTC instant (`2012-08-01T12:00:00Z`) or, all-day, its
 *    date. An overriding VEVENT (same UID, RECURRENCE-ID) replaces that occurrence (its own times, texts and
 *    STATUS) and is kept when its own start lies in the horizon; RANGE=THISANDFUTURE is treated as
 *    overriding that one instance. At most `maxOccurrencesPerEvent` (default 500) per series, earliest first.
 *    Occurrences have the series' length: DTEND gives an exact length, DURATION a nominal one.
 *    A non-recurring VEVENT is returned whatever its date; the horizon bounds only expansion.
 *    Before ical.js sees an RRULE it is judged by domain/calendar/rrule-guard.ts (ical.js's iterator would loop for
 *    ever): a rule that can never occur (BYMONTH=2;BYMONTHDAY=30), an empty rule, or an INTERVAL that is not a
 *    positive integer is REFUSED naming its line; an INTERVAL whose second period begins after 2199 leaves
 *    only DTSTART (refused when the rule has BYxxx parts).
 *  - A VTIMEZONE may have at most MAX_OBSERVANCES (200) STANDARD/DAYLIGHT observances, and an observance
 *    RRULE must be MONTHLY or YEARLY; otherwise the file is refused naming the line.
 *  - STATUS:CANCELLED (§3.8.1.11) → returned with `cancelled: true`.
 *
 * @param input the whole file: bytes (preferred) or text; CRLF, LF or CR line breaks; folded lines allowed.
 * @returns events (groups in order of their UID's first appearance; occurrences of a series in start order)
 *   and the counts in IcsReadStats.
 * @throws IcsError naming the line and/or the VEVENT: not UTF-8, not an iCalendar file, a line ical.js cannot
 *   parse, BEGIN/END mismatch or a truncated file, an impossible TZOFFSET, missing DTSTART (§3.6.1), an
 *   unparseable date, DTEND before DTSTART, a TZID that is neither IANA, a known Windows name nor defined by a
 *   VTIMEZONE, a recurrence too dense to expand, an RRULE refused by domain/calendar/rrule-guard.ts, a VTIMEZONE
 *   with too many or too frequent observances, or a SUMMARY, LOCATION or DESCRIPTION holding a text-direction
 *   control (U+202A–U+202E, U+2066–U+2069, domain/text.ts: refused like any text people type, never stripped).
 */
export function readIcs(input: string | Uint8Array, opts: ParseIcsOptions): { events: IcsEvent[]; stats: IcsReadStats } {
  if (!IANAZone.isValidZone(opts.defaultTimeZone)) {
    throw new Error(`readIcs: defaultTimeZone "${opts.defaultTimeZone}" is not an IANA zone`);
  }
  if (!(opts.horizonEnd.getTime() >= opts.horizonStart.getTime())) {
    throw new Error('readIcs: horizonEnd must not be before horizonStart');
  }
  const max = opts.maxOccurrencesPerEvent ?? DEFAULT_MAX_OCCURRENCES;
  if (!Number.isInteger(max) || max < 1) throw new Error('readIcs: maxOccurrencesPerEvent must be a positive integer');

  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const unfolded = unfoldIcsBytes(bytes);
  if (!unfolded.ok) throw new IcsError(unfolded.detail, { line: unfolded.line });
  const scan = scanStructure(unfolded.value.text, unfolded.value.physicalLine);

  const stats: IcsReadStats = {
    vevents: scan.vevents.length,
    withoutUid: 0,
    repeatedUids: 0,
    occurrences: 0,
    beforeWindow: 0,
    afterWindow: 0,
    seriesContinuing: 0,
    beyondLimit: 0,
    duplicates: 0,
  };
  const ctx: Ctx = {
    defaultZone: opts.defaultTimeZone,
    horizonStart: opts.horizonStart.getTime(),
    horizonEnd: opts.horizonEnd.getTime(),
    max,
    tzids: new Map(),
    zones: new Map(),
    scan,
    stats,
  };

  // Group VEVENTs by UID (first appearance decides the output order); a VEVENT without UID is its own group.
  const groups = new Map<string, VEventRef[]>();
  for (const v of scan.vevents) {
    const k = v.uid === null ? `\u0000${v.index}` : v.uid;
    const g = groups.get(k);
    if (g) g.push(v);
    else groups.set(k, [v]);
  }

  const out: IcsEvent[] = [];
  const seen = new Set<string>();
  let done = 0;
  const emit = (e: IcsEvent) => {
    stats.occurrences++;
    if (seen.has(e.uid)) stats.duplicates++;
    else {
      seen.add(e.uid);
      out.push(e);
    }
  };
  for (const refs of groups.values()) {
    const ves = refs.map((r) => readVEvent(ctx, r));
    done += refs.length;
    if (opts.onProgress && done % 1000 < refs.length) opts.onProgress(done, scan.vevents.length);
    const masters = ves.filter((v) => v.recurrenceKey === null);
    const overrides = new Map<string, VEvent>();
    for (const o of ves) {
      if (o.recurrenceKey === null) continue;
      const prev = overrides.get(o.recurrenceKey);
      if (!prev || o.sequence >= prev.sequence) overrides.set(o.recurrenceKey, o);
    }
    if (ves[0].uid === null) stats.withoutUid++;
    if (masters.length > 1) stats.repeatedUids++;
    const owner = masters.find((m) => m.recurring);
    for (const m of masters) {
      const content = { startsAt: m.start.instant, title: m.title ?? UNTITLED, location: m.location };
      const identity = m.uid === null ? noUidIdentity(content) : masters.length > 1 ? repeatedUidIdentity(m.uid, content) : m.uid;
      if (m.recurring) {
        for (const e of expandSeries(ctx, identity, m, m === owner ? overrides : new Map())) emit(e);
      } else {
        emit(toIcsEvent(ctx, identity, m.uid, m, m.allDay, m.start, m.length));
      }
    }
    if (!owner) {
      // Overrides without a recurring master (absent, or without RRULE/RDATE) stand alone.
      const base = ves[0].uid ?? '';
      for (const [key, o] of overrides) {
        const identity = o.uid === null ? noUidIdentity({ startsAt: o.start.instant, title: o.title ?? UNTITLED, location: o.location }) : `${base}#${key}`;
        emit(toIcsEvent(ctx, identity, null, o, o.allDay, o.start, o.length));
      }
    }
  }
  if (opts.onProgress) opts.onProgress(scan.vevents.length, scan.vevents.length);
  return { events: out, stats };
}
