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
 */
import ICAL from 'ical.js';
import { IANAZone } from 'luxon';
import { applyOffset, fromLocalWithOffsets } from '@/domain/scheduling/due-instant';
import { noUidIdentity, repeatedUidIdentity } from '@/domain/calendar/ics-identity';
import { unfoldIcsBytes } from '@/domain/calendar/ics-unfold';
import { checkObservanceRrule, checkRrule } from '@/domain/calendar/rrule-guard';
import { findMatchingZone, ianaOffsetAt, offsetsAgree, type OffsetAt } from '@/domain/scheduling/zone-agreement';
import { bidiControlProblem, showBidiControls } from '@/domain/text';

type IcalComponent = InstanceType<typeof ICAL.Component>;
type IcalProperty = InstanceType<typeof ICAL.Property>;
type IcalTime = InstanceType<typeof ICAL.Time>;

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
interface IcsReadStats {
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

const DEFAULT_MAX_OCCURRENCES = 500;
/** Recurrence steps walked per series before giving up (a MINUTELY rule from 1970 would never reach today). */
const MAX_ITERATIONS = 100_000;

/**
 * Steps ical.js's rule iterator may take inside ONE `next()` call before we give up on the rule. Its `next()`
 * loops internally until a candidate passes the rule's BYxxx filters, so a rule that can never match again
 * (`FREQ=DAILY;INTERVAL=7;BYDAY=MO;BYMONTHDAY=15` from a Friday: every step lands on a Friday) would loop for
 * ever; domain/calendar/rrule-guard.ts refuses the patterns it can prove impossible, and this budget stops the rest.
 * A real rule needs at most about ten thousand steps between two instances (MINUTELY within one hour of one
 * weekday: 7 × 1440); each step costs tens of µs, so giving up takes a second or two.
 */
const MAX_STEPS_PER_INSTANCE = 30_000;
{
  // Count the filter checks of each next() call (the library offers no hook; the method names are its own).
  type Stepping = { check_contracting_rules(): boolean; next(again?: boolean): unknown; __stepsLeft?: number };
  const proto = (ICAL as unknown as { RecurIterator: { prototype: Stepping } }).RecurIterator.prototype;
  const check = proto.check_contracting_rules;
  const next = proto.next;
  proto.next = function (this: Stepping, again = false) {
    if (!again) this.__stepsLeft = MAX_STEPS_PER_INSTANCE;
    return next.call(this, again);
  };
  proto.check_contracting_rules = function (this: Stepping) {
    if (this.__stepsLeft !== undefined && --this.__stepsLeft < 0) {
      throw new Error(`no further instance within ${MAX_STEPS_PER_INSTANCE} steps: the rule's parts can never match again`);
    }
    return check.call(this);
  };
}
/** Occurrences after the horizon counted one by one per series; beyond that the series "continues". */
const AFTER_WINDOW_COUNT = 500;
const UNTITLED = 'Untitled event';
/** Every UTC offset in use lies within ±14 hours. */
const OFFSET_BOUND_MS = 14 * 3_600_000;
/** A TZOFFSETFROM/TZOFFSETTO beyond this is impossible (RFC 5545 §3.3.14 allows ±23:59; no zone ever used more than ±15). */
const MAX_ZONE_OFFSET_MINUTES = 18 * 60;
/** No occurrence may reach this wall clock: events live in the years 1900–2199 (see toIcsEvent). */
const LAST_WALL_MS = Date.UTC(2200, 0, 1);
/** STANDARD/DAYLIGHT observances per VTIMEZONE: real zones have a few dozen; thousands take minutes to expand. */
const MAX_OBSERVANCES = 200;

/** `readIcs(…).events`: see there. */
export function parseIcs(input: string | Uint8Array, opts: ParseIcsOptions): IcsEvent[] {
  return readIcs(input, opts).events;
}

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
    throw new Error(`parseIcs: defaultTimeZone "${opts.defaultTimeZone}" is not an IANA zone`);
  }
  if (!(opts.horizonEnd.getTime() >= opts.horizonStart.getTime())) {
    throw new Error('parseIcs: horizonEnd must not be before horizonStart');
  }
  const max = opts.maxOccurrencesPerEvent ?? DEFAULT_MAX_OCCURRENCES;
  if (!Number.isInteger(max) || max < 1) throw new Error('parseIcs: maxOccurrencesPerEvent must be a positive integer');

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

/**
 * Maps an iCalendar TZID to an IANA zone name, or null when it cannot. Tried in order:
 *  1. the TZID itself when it is an IANA name (case-insensitive; returned in canonical spelling);
 *  2. a vendor prefix stripped: `/mozilla.org/20050126_1/America/New_York`, `/softwarestudio.org/Olson_…/Europe/Paris`
 *     → the longest trailing `Area/City` that is an IANA name;
 *  3. `xLicLocation`, the X-LIC-LOCATION of the file's VTIMEZONE for this TZID (written by Mozilla and Google);
 *  4. a Windows zone name as Outlook/Exchange write them (`W. Europe Standard Time` → `Europe/Berlin`), by the
 *     CLDR windowsZones "001" mapping for the common zones (WINDOWS_ZONES below).
 * UTC spellings (`UTC`, `GMT`, `Etc/UTC`, `Z`…) return `UTC`. The NAME only: whether the file's VTIMEZONE
 * agrees with it is decided by `readIcs`.
 */
export function resolveTzid(tzid: string, xLicLocation?: string | null): string | null {
  const t = tzid.trim().replace(/^"(.*)"$/, '$1');
  if (/^(?:z|utc|gmt|ut|uct|zulu|universal|greenwich|etc\/(?:utc|gmt|uct|universal|zulu|greenwich))$/i.test(t)) return 'UTC';
  const candidates: string[] = [t];
  const segments = t.split('/').filter(Boolean);
  for (let i = 1; i < segments.length; i++) candidates.push(segments.slice(i).join('/'));
  if (xLicLocation) candidates.push(xLicLocation.trim());
  for (const c of candidates) {
    if (c && IANAZone.isValidZone(c)) return canonicalZone(c);
  }
  const win = WINDOWS_ZONES[t.toLowerCase()];
  return win && IANAZone.isValidZone(win) ? canonicalZone(win) : null;
}

// ---------------------------------------------------------------------------------------------------------
// Structural pre-pass over the unfolded lines: physical line numbers, BEGIN/END nesting, content-line shape,
// TZOFFSET sanity, and where each VTIMEZONE and VEVENT is. No ical.js here: it only remembers line ranges.

interface VEventRef {
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
interface Scan {
  /** The unfolded content lines: `line(i)` (BEGIN/END normalised to upper case; '' for blank lines). */
  line: (i: number) => string;
  physicalLine: number[];
  vevents: VEventRef[];
  /** Per VCALENDAR: TZID → its VTIMEZONE. */
  cals: Map<string, VTimezoneRef>[];
}

const NAME = /^([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)?)[;:]/;

/** Shortens `s` for an error message and makes control characters (text-direction controls too) visible. */
function clip(s: string, n = 60): string {
  const v = showBidiControls(s.replace(/[\u0000-\u001f\u007f]/g, '\uFFFD'));
  return v.length > n ? `${v.slice(0, n)}…` : v;
}

/** Minutes east of UTC of a UTC-OFFSET value (`+0100`, `-053000`), or null when malformed or beyond ±18:00. */
function parseUtcOffset(v: string): number | null {
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

function scanStructure(text: string, physicalLine: number[]): Scan {
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
function parseComponent(scan: Scan, first: number, last: number): IcalComponent {
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

// ---------------------------------------------------------------------------------------------------------
// Zones.

interface Ctx {
  defaultZone: string;
  horizonStart: number;
  horizonEnd: number;
  max: number;
  /** resolveTzid results by TZID (+ X-LIC-LOCATION): Intl look-ups are slow and a series repeats them. */
  tzids: Map<string, string | null>;
  /** Zone decisions by calendar, TZID and year. */
  zones: Map<string, ZoneRef | null>;
  scan: Scan;
  stats: IcsReadStats;
}

function cachedTzid(ctx: Ctx, tzid: string, lic: string | null): string | null {
  const k = `${tzid}\u0000${lic ?? ''}`;
  if (!ctx.tzids.has(k)) ctx.tzids.set(k, resolveTzid(tzid, lic));
  return ctx.tzids.get(k)!;
}

/** How to turn a wall-clock reading into an instant, and the zone the event is planned in. */
type ZoneRef =
  | { kind: 'utc' }
  | { kind: 'floating' }
  | { kind: 'iana'; zone: string }
  /** The file's VTIMEZONE decides the instant; `planned` is the IANA zone whose offsets agree (or the default). */
  | { kind: 'vtimezone'; tzid: string; offsetAt: OffsetAt; planned: string };

/**
 * The UTC offset (minutes east) of a VTIMEZONE at a UTC instant, by RFC 5545 §3.6.5: each STANDARD/DAYLIGHT
 * observance starts at its DTSTART, RRULE and RDATE onsets (wall clock in the offset in force before it,
 * TZOFFSETFROM) and sets TZOFFSETTO; before the first onset the earliest observance's TZOFFSETFROM holds.
 * (ical.js's own UTC→local conversion is an hour off near transitions, so it is not used.) Onsets are computed
 * lazily up to the latest year asked for.
 */
function vtimezoneOffsetAt(comp: IcalComponent, fail: (detail: string) => never): OffsetAt {
  interface Observance { from: number; to: number; start: Wall; rules: InstanceType<typeof ICAL.Recur>[]; rdates: Wall[] }
  const obs: Observance[] = [];
  for (const o of [...comp.getAllSubcomponents('standard'), ...comp.getAllSubcomponents('daylight')]) {
    const from = parseUtcOffset(String(o.getFirstProperty('tzoffsetfrom')?.toJSON()[3] ?? '').replaceAll(':', ''));
    const to = parseUtcOffset(String(o.getFirstProperty('tzoffsetto')?.toJSON()[3] ?? '').replaceAll(':', ''));
    const start = parseRawTime(o.getFirstProperty('dtstart')?.toJSON()[3]);
    if (from === null || to === null || !start) fail(`VTIMEZONE ${String(comp.getFirstPropertyValue('tzid'))}: an observance needs DTSTART, TZOFFSETFROM and TZOFFSETTO`);
    const rdates = o
      .getAllProperties('rdate')
      .flatMap((p) => (p.toJSON() as unknown[]).slice(3).map((v) => parseRawTime(Array.isArray(v) ? v[0] : v)?.wall))
      .filter((w): w is Wall => !!w);
    obs.push({ from: from!, to: to!, start: start!.wall, rules: o.getAllProperties('rrule').map((p) => p.getFirstValue() as InstanceType<typeof ICAL.Recur>), rdates });
  }
  if (obs.length === 0) fail(`VTIMEZONE ${String(comp.getFirstPropertyValue('tzid'))} has no STANDARD or DAYLIGHT observance`);
  const earliest = obs.reduce((a, b) => (wallMs(b.start) < wallMs(a.start) ? b : a));
  let transitions: { at: number; to: number }[] = [];
  let upTo = -Infinity;
  const build = (year: number) => {
    const end = Date.UTC(year + 2, 0, 1);
    const list: { at: number; to: number }[] = [];
    for (const o of obs) {
      const push = (w: Wall) => list.push({ at: wallMs(w) - o.from * 60_000, to: o.to });
      push(o.start);
      o.rdates.forEach(push);
      for (const r of o.rules) {
        const rule = r.clone();
        const until = rule.until ? rule.until.toUnixTime() * 1000 : Infinity;
        rule.until = null;
        const s = o.start;
        const it = rule.iterator(ICAL.Time.fromData({ year: s.year, month: s.month, day: s.day, hour: s.hour, minute: s.minute, second: s.second }));
        for (let n = 0; n < 5000; n++) {
          const t = it.next() as IcalTime | undefined;
          if (!t) break;
          const w = wallOf(t);
          const at = wallMs(w) - o.from * 60_000;
          if (at > until || wallMs(w) > end) break;
          list.push({ at, to: o.to });
        }
      }
    }
    transitions = list.sort((a, b) => a.at - b.at);
    upTo = end;
  };
  return (ms) => {
    if (ms >= upTo) build(new Date(ms).getUTCFullYear());
    let lo = 0;
    let hi = transitions.length - 1;
    if (hi < 0 || ms < transitions[0].at) return earliest.from;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (transitions[mid].at <= ms) lo = mid;
      else hi = mid - 1;
    }
    return transitions[lo].to;
  };
}

let allZones: string[] | null = null;
/** Candidates for a VTIMEZONE's planned zone, preferred first (see readIcs). */
function zoneCandidates(ctx: Ctx, named: string | null, xlic: string | null): string[] {
  allZones ??= [...new Set([...Object.values(WINDOWS_ZONES), ...Intl.supportedValuesOf('timeZone')])];
  return [...(named && named !== 'UTC' ? [named] : []), ...(xlic ? [xlic] : []), ctx.defaultZone, ...allZones];
}

/** The zone of a TZID in calendar `cal` for a wall-clock reading in `year`; null for an unknown TZID. */
function zoneFor(ctx: Ctx, cal: number, tzid: string, year: number): ZoneRef | null {
  const key = `${cal}\u0000${tzid}\u0000${year}`;
  const hit = ctx.zones.get(key);
  if (hit !== undefined) return hit;
  const vtz = ctx.scan.cals[cal]?.get(tzid);
  const named = cachedTzid(ctx, tzid, vtz?.xlic ?? null);
  let ref: ZoneRef | null;
  if (!vtz) ref = named === 'UTC' ? { kind: 'utc' } : named ? { kind: 'iana', zone: named } : null;
  else {
    const line = ctx.scan.physicalLine[vtz.first];
    vtz.offsetAt ??= vtimezoneOffsetAt(parseComponent(ctx.scan, vtz.first, vtz.last), (detail) => {
      throw new IcsError(detail, { line });
    });
    const off = vtz.offsetAt;
    const from = Date.UTC(year, 0, 1);
    const to = Date.UTC(year + 1, 0, 1);
    if (named && offsetsAgree(off, named === 'UTC' ? () => 0 : ianaOffsetAt(named), from, to)) {
      ref = named === 'UTC' ? { kind: 'utc' } : { kind: 'iana', zone: named };
    } else {
      const planned = findMatchingZone(off, from, to, zoneCandidates(ctx, named, vtz.xlic)) ?? ctx.defaultZone;
      ref = { kind: 'vtimezone', tzid, offsetAt: off, planned: canonicalZone(planned) };
    }
  }
  ctx.zones.set(key, ref);
  return ref;
}

// ---------------------------------------------------------------------------------------------------------
// VEVENT reading. Times are read from the raw values (never through ical.js's own TZID look-up, which would
// take `GMT` for UTC whatever the file's VTIMEZONE says).

/** A wall-clock reading as written in the file. */
interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  isDate: boolean;
}
/** A DATE/DATE-TIME value: its wall clock and how the file qualifies it. */
interface TimeSpec {
  wall: Wall;
  zone: { kind: 'utc' } | { kind: 'floating' } | { kind: 'tzid'; tzid: string };
}

interface Start {
  spec: TimeSpec;
  ref: ZoneRef;
  instant: Date;
}

/** Length of an event: exact milliseconds (from DTEND) or an ISO-8601 duration applied by RFC 5545 §3.3.6. */
type Length = { kind: 'exact'; ms: number } | { kind: 'nominal'; iso: string };

interface VEvent {
  uid: string | null;
  cal: number;
  label: string;
  line: number;
  props: Map<string, number>;
  sequence: number;
  /** null for a master / single event; the key of the instance it overrides otherwise. */
  recurrenceKey: string | null;
  recurring: boolean;
  /** Per RRULE (file order): true when only DTSTART can occur by it (domain/calendar/rrule-guard.ts): not expanded. */
  dtstartOnly: boolean[];
  comp: IcalComponent;
  start: Start;
  length: Length;
  allDay: boolean;
  title: string | null;
  description: string | null;
  location: string | null;
  cancelled: boolean;
  fail: (detail: string, prop?: string) => never;
}

/** Longest accepted value per text property (characters); longer is an error naming the property. */
const TEXT_LIMITS: Record<string, number> = { uid: 512, summary: 1000, location: 1000, description: 20_000, status: 64 };
/** The TEXT properties people read in messages: checked for text-direction controls (domain/text.ts). */
const TYPED_TEXT = new Set(['summary', 'location', 'description']);

/**
 * A TEXT property's value, trimmed, with control characters other than tab and newline removed (they have
 * no business in a title and can corrupt a terminal or an email header); null when absent or empty.
 * @throws IcsError (via `fail`) when longer than TEXT_LIMITS, or when SUMMARY, LOCATION or DESCRIPTION holds a
 *   text-direction control (U+202A–U+202E, U+2066–U+2069; domain/text.ts bidiControlProblem).
 */
function text(comp: IcalComponent, name: string, fail?: (detail: string, prop?: string) => never): string | null {
  const v = comp.getFirstPropertyValue(name);
  if (v === null || v === undefined) return null;
  // eslint-disable-next-line no-control-regex
  const s = String(v).replace(/[\u0000-\u0008\u000b-\u001f\u007f\u0080-\u009f]/g, '').trim();
  const limit = TEXT_LIMITS[name];
  if (limit && s.length > limit) {
    const detail = `${name.toUpperCase()} is ${s.length.toLocaleString('en')} characters long; at most ${limit.toLocaleString('en')} are accepted`;
    if (fail) fail(detail, name.toUpperCase());
    throw new IcsError(detail);
  }
  // Text shown to people (the event's title, place and description reach every message) must not hold a
  // text-direction control (domain/text.ts): the event is refused naming the property, as for any bad value.
  const bidi = TYPED_TEXT.has(name) ? bidiControlProblem(s) : null;
  if (bidi) {
    const detail = `${name.toUpperCase()} ${bidi}`;
    if (fail) fail(detail, name.toUpperCase());
    throw new IcsError(detail);
  }
  return s === '' ? null : s;
}

/** Every property `name` (upper case) directly inside the VEVENT, in file order: physical line and raw value. */
function rawProps(scan: Scan, ref: VEventRef, name: string): { line: number; value: string }[] {
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
function propLines(scan: Scan, ref: VEventRef): { lines: Map<string, number>; values: Map<string, string> } {
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

function readVEvent(ctx: Ctx, ref: VEventRef): VEvent {
  const line = ctx.scan.physicalLine[ref.first];
  const comp = parseComponent(ctx.scan, ref.first, ref.last);
  const { lines: props, values } = propLines(ctx.scan, ref);
  const rawUid = String(comp.getFirstPropertyValue('uid') ?? '');
  const rawSummary = String(comp.getFirstPropertyValue('summary') ?? '');
  const label = `VEVENT #${ref.index}${rawUid.trim() ? ` (UID ${clip(rawUid, 80)})` : rawSummary ? ` (SUMMARY "${clip(rawSummary)}")` : ''}`;
  const fail = (detail: string, prop?: string): never => {
    throw new IcsError(detail, { line: (prop ? props.get(prop.toUpperCase()) : undefined) ?? line, component: label });
  };
  const uid = text(comp, 'uid', fail);
  const summary = text(comp, 'summary', fail);

  const rid = comp.getFirstProperty('recurrence-id');
  const dtstartProp = comp.getFirstProperty('dtstart') ?? rid;
  if (!dtstartProp) fail('missing DTSTART');
  const read = (prop: IcalProperty, name: string): Start => {
    const spec = readTimeSpec(prop, fail, name, values.get(name));
    return resolveStart(ctx, ref.cal, spec, fail, name);
  };
  const start = read(dtstartProp!, comp.getFirstProperty('dtstart') ? 'DTSTART' : 'RECURRENCE-ID');
  const allDay = start.spec.wall.isDate;

  let length: Length;
  const dtend = comp.getFirstProperty('dtend');
  const duration = comp.getFirstProperty('duration');
  if (dtend) {
    const end = read(dtend, 'DTEND');
    if (end.spec.wall.isDate !== allDay) fail('DTEND must have the same value type (DATE or DATE-TIME) as DTSTART', 'DTEND');
    // A start inside a spring-forward gap moves forward (RFC 5545 §3.3.5) and may pass an end that was
    // after it on the wall clock (02:30–03:00 on a 02:00→03:00 day): keep the event, with no length.
    const wallEnd = wallMs(end.spec.wall) - wallMs(start.spec.wall);
    if (end.instant.getTime() < start.instant.getTime() && !(wallEnd >= 0 && start.instant.getTime() - end.instant.getTime() <= 3 * 3600_000)) {
      fail('DTEND is before DTSTART', 'DTEND');
    }
    if (end.instant.getTime() < start.instant.getTime()) end.instant = start.instant;
    length = allDay
      ? { kind: 'nominal', iso: `P${Math.round((wallMs(end.spec.wall) - wallMs(start.spec.wall)) / 86_400_000)}D` }
      : { kind: 'exact', ms: end.instant.getTime() - start.instant.getTime() };
  } else if (duration) {
    let iso: string;
    try {
      const d = duration.getFirstValue() as InstanceType<typeof ICAL.Duration>;
      if (d.isNegative) fail('DURATION must not be negative', 'DURATION');
      iso = d.toString();
    } catch (e) {
      if (e instanceof IcsError) throw e;
      return fail(`invalid DURATION: ${(e as Error).message}`, 'DURATION');
    }
    const d = duration.getFirstValue() as InstanceType<typeof ICAL.Duration>;
    // Only weeks and days are nominal (§3.3.6); a duration of hours, minutes and seconds is exact.
    length = d.weeks === 0 && d.days === 0 ? { kind: 'exact', ms: d.toSeconds() * 1000 } : { kind: 'nominal', iso };
  } else {
    length = allDay ? { kind: 'nominal', iso: 'P1D' } : { kind: 'exact', ms: 0 };
  }

  let recurrenceKey: string | null = null;
  if (rid) recurrenceKey = keyOf(read(rid, 'RECURRENCE-ID'));

  // Judge every RRULE before ical.js sees it: a rule that can never match, or a huge INTERVAL, makes its
  // iterator loop for ever (domain/calendar/rrule-guard.ts).
  const dtstartOnly: boolean[] = [];
  if (!rid) {
    for (const r of rawProps(ctx.scan, ref, 'RRULE')) {
      const verdict = checkRrule(r.value, wallMs(start.spec.wall), LAST_WALL_MS);
      if (verdict.kind === 'refuse') throw new IcsError(verdict.detail, { line: r.line, component: label });
      dtstartOnly.push(verdict.kind === 'dtstart-only');
    }
  }

  let recurring = false;
  try {
    recurring = !rid && (comp.hasProperty('rrule') || comp.hasProperty('rdate'));
    if (recurring) comp.getAllProperties('rrule').forEach((p) => p.getFirstValue());
  } catch (e) {
    fail(`invalid RRULE: ${(e as Error).message}`, 'RRULE');
  }

  const seq = Number(comp.getFirstPropertyValue('sequence') ?? 0);
  return {
    uid,
    cal: ref.cal,
    label,
    line,
    props,
    sequence: Number.isFinite(seq) ? seq : 0,
    recurrenceKey,
    recurring,
    dtstartOnly,
    comp,
    start,
    length,
    allDay,
    title: summary,
    description: text(comp, 'description', fail),
    location: text(comp, 'location', fail),
    cancelled: (text(comp, 'status', fail) ?? '').toUpperCase() === 'CANCELLED',
    fail,
  };
}

/** A jCal DATE (`2025-01-31`) or DATE-TIME (`2025-01-31T09:00:00`, optionally `Z`) → wall clock, or null. */
function parseRawTime(raw: unknown): { wall: Wall; utc: boolean } | null {
  if (typeof raw !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(Z)?)?$/.exec(raw);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [h, mi, se] = m[4] === undefined ? [0, 0, 0] : [Number(m[4]), Number(m[5]), Number(m[6])];
  // Years before 1000 are typos in practice (and Date.UTC reads 0–99 as 1900–1999).
  if (y < 1000 || mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return null;
  if (h > 23 || mi > 59 || se > 60) return null;
  return { wall: { year: y, month: mo, day: d, hour: h, minute: mi, second: Math.min(se, 59), isDate: m[4] === undefined }, utc: m[7] === 'Z' };
}

/** The raw values of a DATE/DATE-TIME/PERIOD property (a PERIOD by its start), each with the property's zone. */
function readTimeSpecs(prop: IcalProperty, fail: (detail: string, prop?: string) => never, name: string, shown: string | undefined): TimeSpec[] {
  const json = prop.toJSON() as unknown[];
  const params = (json[1] ?? {}) as Record<string, unknown>;
  const tzid = typeof params.tzid === 'string' && params.tzid !== '' ? params.tzid : null;
  return json.slice(3).map((v) => {
    const raw = Array.isArray(v) ? v[0] : v; // PERIOD: [start, end | duration]
    const t = parseRawTime(raw);
    if (!t) {
      return fail(`invalid ${name} value "${clip(shown ?? String(raw))}" (expected a DATE such as 20250131 or a DATE-TIME such as 20250131T090000)`, name);
    }
    const zone: TimeSpec['zone'] = t.wall.isDate ? { kind: 'floating' } : t.utc ? { kind: 'utc' } : tzid ? { kind: 'tzid', tzid } : { kind: 'floating' };
    return { wall: t.wall, zone };
  });
}

function readTimeSpec(prop: IcalProperty, fail: (detail: string, prop?: string) => never, name: string, shown: string | undefined): TimeSpec {
  const specs = readTimeSpecs(prop, fail, name, shown);
  if (specs.length === 0) return fail(`invalid ${name} value "${clip(shown ?? '')}"`, name);
  return specs[0];
}

/** Resolves a TimeSpec's zone and instant. @throws IcsError (via `fail`) for an unknown TZID. */
function resolveStart(ctx: Ctx, cal: number, spec: TimeSpec, fail: (detail: string, prop?: string) => never, name: string): Start {
  let ref: ZoneRef;
  if (spec.wall.isDate || spec.zone.kind === 'floating') ref = { kind: 'floating' };
  else if (spec.zone.kind === 'utc') ref = { kind: 'utc' };
  else {
    const r = zoneFor(ctx, cal, spec.zone.tzid, spec.wall.year);
    if (!r) {
      return fail(
        `unknown time zone TZID "${spec.zone.tzid}": not an IANA zone name, not a known Windows zone, and no VTIMEZONE for it in the file`,
        name,
      );
    }
    ref = r;
  }
  return { spec, ref, instant: instantOf(ctx, spec.wall, ref) };
}

function wallMs(w: Wall): number {
  return Date.UTC(w.year, w.month - 1, w.day, w.isDate ? 0 : w.hour, w.isDate ? 0 : w.minute, w.isDate ? 0 : w.second);
}

const BUCKET = 86_400_000;
const zoneOffsets = new Map<string, OffsetAt>();
/**
 * An IANA zone's offset function, remembered per UTC day: luxon asks Intl for every offset (≈ 10 µs), and
 * fromLocal needs three or four per event. A day whose two ends have the same offset is taken to have it
 * throughout (no zone in the tz database changes its offset and back within one day); a day with a
 * transition is never cached.
 */
function ianaOffsets(zone: string): OffsetAt {
  let f = zoneOffsets.get(zone);
  if (!f) {
    const z = IANAZone.create(zone);
    const days = new Map<number, number>();
    f = (ms) => {
      const d = Math.floor(ms / BUCKET);
      const hit = days.get(d);
      if (hit !== undefined) return hit;
      const a = z.offset(d * BUCKET);
      if (a !== z.offset((d + 1) * BUCKET)) return z.offset(ms);
      if (days.size > 200_000) days.clear();
      days.set(d, a);
      return a;
    };
    zoneOffsets.set(zone, f);
  }
  return f;
}

/** The UTC instant of a wall clock read in `ref` (DATE values: local midnight in the default zone). */
function instantOf(ctx: Ctx, w: Wall, ref: ZoneRef): Date {
  const local = { year: w.year, month: w.month, day: w.day, hour: 0, minute: 0, second: 0, millisecond: 0 };
  if (w.isDate) return fromLocalWithOffsets(local, ianaOffsets(ctx.defaultZone));
  Object.assign(local, { hour: w.hour, minute: w.minute, second: w.second });
  switch (ref.kind) {
    case 'utc':
      return new Date(wallMs(w));
    case 'floating':
      return fromLocalWithOffsets(local, ianaOffsets(ctx.defaultZone));
    case 'iana':
      return fromLocalWithOffsets(local, ianaOffsets(ref.zone));
    case 'vtimezone':
      return fromLocalWithOffsets(local, ref.offsetAt);
  }
}

/** The IANA zone an event is planned in. */
function eventZone(ctx: Ctx, allDay: boolean, ref: ZoneRef): string {
  if (allDay) return ctx.defaultZone;
  return ref.kind === 'iana' ? ref.zone : ref.kind === 'vtimezone' ? ref.planned : ctx.defaultZone;
}

/** The zone in which a nominal duration (days, weeks) is counted. */
function arithmeticZone(ctx: Ctx, allDay: boolean, ref: ZoneRef): string {
  return !allDay && ref.kind === 'utc' ? 'UTC' : eventZone(ctx, allDay, ref);
}

function endOf(ctx: Ctx, start: Date, length: Length, allDay: boolean, ref: ZoneRef): Date {
  return length.kind === 'exact'
    ? new Date(start.getTime() + length.ms)
    : applyOffset(start, length.iso, arithmeticZone(ctx, allDay, ref));
}

/** Recurrence key: the original start as `YYYY-MM-DD` (DATE) or a UTC instant without milliseconds. */
function keyOf(s: { spec: TimeSpec; instant: Date }): string {
  if (s.spec.wall.isDate) {
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    return `${p(s.spec.wall.year, 4)}-${p(s.spec.wall.month)}-${p(s.spec.wall.day)}`;
  }
  return s.instant.toISOString().replace(/\.000Z$/, 'Z');
}

/** Instants beyond these are not events anyone is reminded of (and beyond what PostgreSQL or JS dates hold). */
const EARLIEST = Date.parse('1900-01-01T00:00:00Z');
const LATEST = Date.parse('2200-01-01T00:00:00Z');

function toIcsEvent(ctx: Ctx, uid: string, group: string | null, texts: Texts, allDay: boolean, start: Start, length: Length): IcsEvent {
  const endsAt = endOf(ctx, start.instant, length, allDay, start.ref);
  for (const [name, d] of [['DTSTART', start.instant], ['the end (DTEND or DTSTART + DURATION)', endsAt]] as const) {
    if (Number.isNaN(d.getTime()) || d.getTime() < EARLIEST || d.getTime() > LATEST) {
      throw new IcsError(`event UID ${clip(uid, 80)}: ${name} is outside the years 1900–2199`, { component: `VEVENT (UID ${clip(uid, 80)})` });
    }
  }
  return {
    uid,
    group,
    title: texts.title ?? UNTITLED,
    description: texts.description,
    location: texts.location,
    startsAt: start.instant,
    endsAt,
    allDay,
    timeZone: eventZone(ctx, allDay, start.ref),
    cancelled: texts.cancelled,
  };
}

type Texts = Pick<VEvent, 'title' | 'description' | 'location' | 'cancelled'>;

/** An override's texts: its own where it has the property, else the master's (RFC 5545 §3.8.4.4). */
function overrideTexts(master: VEvent, o: VEvent): Texts {
  return {
    title: o.comp.hasProperty('summary') ? o.title : master.title,
    description: o.comp.hasProperty('description') ? o.description : master.description,
    location: o.comp.hasProperty('location') ? o.location : master.location,
    cancelled: master.cancelled || o.cancelled,
  };
}

function wallOf(t: IcalTime): Wall {
  return { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: Math.min(t.second, 59), isDate: t.isDate };
}

/**
 * Expands a recurring master (see readIcs, "Recurrence"): DTSTART ∪ each RRULE ∪ each RDATE, by instant,
 * minus EXDATEs; overrides replace their instance. Counts what falls outside the horizon in ctx.stats.
 */
function expandSeries(ctx: Ctx, identity: string, master: VEvent, overrides: Map<string, VEvent>): IcsEvent[] {
  const fail = master.fail;
  const startSpec = master.start.spec;
  /** key → start, for occurrences near or inside the horizon. */
  const occurrences = new Map<string, Start>();
  /** Wall-clock keys of occurrences clearly before / after the horizon (DTSTART's zone: one wall clock, one instant). */
  const before = new Set<string>();
  const after = new Set<string>();
  let continuing = false;
  const sameZone = (z: TimeSpec['zone']) =>
    z.kind === startSpec.zone.kind && (z.kind !== 'tzid' || (startSpec.zone.kind === 'tzid' && z.tzid === startSpec.zone.tzid));
  /** Key of an occurrence outside the horizon: DTSTART's wall clock when it is in DTSTART's zone. */
  const farKey = (s: { spec: TimeSpec; instant: Date }) => (!s.spec.wall.isDate && sameZone(s.spec.zone) ? `w${wallMs(s.spec.wall)}` : keyOf(s));
  const add = (s: Start) => {
    const t = s.instant.getTime();
    if (t < ctx.horizonStart) before.add(farKey(s));
    else if (t > ctx.horizonEnd) after.add(farKey(s));
    else if (!occurrences.has(keyOf(s))) occurrences.set(keyOf(s), s);
  };
  const resolveWall = (w: Wall): Start => resolveStart(ctx, master.cal, { wall: w, zone: startSpec.zone }, fail, 'RRULE');
  add(master.start); // DTSTART is always the first instance (§3.8.5.3)

  let steps = 0;
  for (const [ruleIndex, prop] of master.comp.getAllProperties('rrule').entries()) {
    if (master.dtstartOnly[ruleIndex]) continue; // its second occurrence lies after 2199: DTSTART is already in
    let it;
    let until: { instant?: number; wall?: number } | null = null;
    try {
      const rule = (prop.getFirstValue() as InstanceType<typeof ICAL.Recur>).clone();
      if (rule.until) {
        // Compare UNTIL ourselves: a UTC UNTIL is an instant (§3.3.10); ical.js would compare it with the wall clock.
        const u = rule.until;
        until = u.zone?.tzid === 'UTC' && !u.isDate ? { instant: u.toUnixTime() * 1000 } : { wall: wallMs({ ...wallOf(u), isDate: u.isDate || startSpec.wall.isDate }) };
        rule.until = null;
      }
      const w = startSpec.wall;
      const dtstart = ICAL.Time.fromData({ year: w.year, month: w.month, day: w.day, hour: w.hour, minute: w.minute, second: w.second, isDate: w.isDate });
      it = rule.iterator(dtstart);
    } catch (e) {
      return fail(`cannot expand the recurrence: ${(e as Error).message}`, 'RRULE');
    }
    let afterCount = 0;
    for (;;) {
      let occ: IcalTime | undefined;
      try {
        occ = it.next() as IcalTime | undefined;
      } catch (e) {
        return fail(`cannot expand the recurrence: ${(e as Error).message}`, 'RRULE');
      }
      if (!occ) break;
      if (++steps > MAX_ITERATIONS) {
        fail(`the recurrence has more than ${MAX_ITERATIONS} instances before the import horizon ends; too dense to expand`, 'RRULE');
      }
      const w = wallOf(occ);
      const wall = wallMs(w);
      if (until?.wall !== undefined && wall > until.wall) break;
      if (until?.instant !== undefined && wall - OFFSET_BOUND_MS > until.instant) break;
      // Cheap bounds first: UTC offsets lie within ±14 h, so instances far from the horizon (and from UNTIL)
      // need no zone lookup.
      const farFromUntil = until?.instant === undefined || wall + OFFSET_BOUND_MS < until.instant;
      if (wall + OFFSET_BOUND_MS < ctx.horizonStart && farFromUntil && !w.isDate) {
        before.add(`w${wall}`);
        continue;
      }
      if (wall - OFFSET_BOUND_MS > ctx.horizonEnd && farFromUntil && !w.isDate) {
        if (++afterCount > AFTER_WINDOW_COUNT) {
          continuing = true;
          break;
        }
        after.add(`w${wall}`);
        continue;
      }
      const s = resolveWall(w);
      if (until?.instant !== undefined && s.instant.getTime() > until.instant) break;
      if (s.instant.getTime() > ctx.horizonEnd && ++afterCount > AFTER_WINDOW_COUNT) {
        continuing = true;
        break;
      }
      add(s);
    }
  }
  for (const prop of master.comp.getAllProperties('rdate')) {
    for (const spec of readTimeSpecs(prop, fail, 'RDATE', undefined)) add(resolveStart(ctx, master.cal, spec, fail, 'RDATE'));
  }
  for (const prop of master.comp.getAllProperties('exdate')) {
    for (const spec of readTimeSpecs(prop, fail, 'EXDATE', undefined)) {
      const s = resolveStart(ctx, master.cal, spec, fail, 'EXDATE');
      occurrences.delete(keyOf(s));
      for (const k of [keyOf(s), farKey(s)]) {
        before.delete(k);
        after.delete(k);
      }
    }
  }

  const found: IcsEvent[] = [];
  const sorted = [...occurrences.entries()].sort((a, b) => a[1].instant.getTime() - b[1].instant.getTime());
  for (const [key, s] of sorted) {
    if (overrides.has(key)) continue;
    found.push(toIcsEvent(ctx, `${identity}#${key}`, null, master, master.allDay, s, master.length));
  }
  for (const [key, o] of overrides) {
    const t = o.start.instant.getTime();
    if (t < ctx.horizonStart) before.add(`o${key}`);
    else if (t > ctx.horizonEnd) after.add(`o${key}`);
    else found.push(toIcsEvent(ctx, `${identity}#${key}`, null, overrideTexts(master, o), o.allDay, o.start, o.length));
  }
  found.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
  ctx.stats.beforeWindow += before.size;
  ctx.stats.occurrences += before.size;
  if (continuing) ctx.stats.seriesContinuing++;
  else {
    ctx.stats.afterWindow += after.size;
    ctx.stats.occurrences += after.size;
  }
  const beyond = Math.max(0, found.length - ctx.max);
  ctx.stats.beyondLimit += beyond;
  ctx.stats.occurrences += beyond;
  return found.slice(0, ctx.max);
}

/**
 * The zone's usual spelling when only its case differs (`america/new_york` → `America/New_York`). Links keep
 * the file's name: ICU would turn `Asia/Kolkata` into the legacy `Asia/Calcutta`.
 */
function canonicalZone(zone: string): string {
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
  } catch {
    return zone;
  }
}

/**
 * Windows zone names (as Outlook and Exchange write TZIDs) → IANA, from the Unicode CLDR windowsZones table
 * (territory "001", the zone's main city). Common zones only; a TZID not listed here still imports when the
 * file defines its VTIMEZONE. Keys are lower-case.
 */
const WINDOWS_ZONES: Record<string, string> = Object.fromEntries(
  (
    [
      ['Dateline Standard Time', 'Etc/GMT+12'],
      ['UTC-11', 'Etc/GMT+11'],
      ['Aleutian Standard Time', 'America/Adak'],
      ['Hawaiian Standard Time', 'Pacific/Honolulu'],
      ['Alaskan Standard Time', 'America/Anchorage'],
      ['Pacific Standard Time (Mexico)', 'America/Tijuana'],
      ['Pacific Standard Time', 'America/Los_Angeles'],
      ['US Mountain Standard Time', 'America/Phoenix'],
      ['Mountain Standard Time (Mexico)', 'America/Mazatlan'],
      ['Mountain Standard Time', 'America/Denver'],
      ['Central America Standard Time', 'America/Guatemala'],
      ['Central Standard Time', 'America/Chicago'],
      ['Central Standard Time (Mexico)', 'America/Mexico_City'],
      ['Canada Central Standard Time', 'America/Regina'],
      ['SA Pacific Standard Time', 'America/Bogota'],
      ['Eastern Standard Time (Mexico)', 'America/Cancun'],
      ['Eastern Standard Time', 'America/New_York'],
      ['US Eastern Standard Time', 'America/Indiana/Indianapolis'],
      ['Cuba Standard Time', 'America/Havana'],
      ['Paraguay Standard Time', 'America/Asuncion'],
      ['Atlantic Standard Time', 'America/Halifax'],
      ['Venezuela Standard Time', 'America/Caracas'],
      ['SA Western Standard Time', 'America/La_Paz'],
      ['Pacific SA Standard Time', 'America/Santiago'],
      ['Newfoundland Standard Time', 'America/St_Johns'],
      ['E. South America Standard Time', 'America/Sao_Paulo'],
      ['Argentina Standard Time', 'America/Argentina/Buenos_Aires'],
      ['SA Eastern Standard Time', 'America/Cayenne'],
      ['Montevideo Standard Time', 'America/Montevideo'],
      ['UTC-02', 'Etc/GMT+2'],
      ['Azores Standard Time', 'Atlantic/Azores'],
      ['Cape Verde Standard Time', 'Atlantic/Cape_Verde'],
      ['UTC', 'Etc/UTC'],
      ['GMT Standard Time', 'Europe/London'],
      ['Greenwich Standard Time', 'Atlantic/Reykjavik'],
      ['Morocco Standard Time', 'Africa/Casablanca'],
      ['W. Europe Standard Time', 'Europe/Berlin'],
      ['Central Europe Standard Time', 'Europe/Budapest'],
      ['Romance Standard Time', 'Europe/Paris'],
      ['Central European Standard Time', 'Europe/Warsaw'],
      ['W. Central Africa Standard Time', 'Africa/Lagos'],
      ['Jordan Standard Time', 'Asia/Amman'],
      ['GTB Standard Time', 'Europe/Bucharest'],
      ['Middle East Standard Time', 'Asia/Beirut'],
      ['Egypt Standard Time', 'Africa/Cairo'],
      ['E. Europe Standard Time', 'Europe/Chisinau'],
      ['Syria Standard Time', 'Asia/Damascus'],
      ['South Africa Standard Time', 'Africa/Johannesburg'],
      ['FLE Standard Time', 'Europe/Kiev'],
      ['Israel Standard Time', 'Asia/Jerusalem'],
      ['Kaliningrad Standard Time', 'Europe/Kaliningrad'],
      ['Libya Standard Time', 'Africa/Tripoli'],
      ['Namibia Standard Time', 'Africa/Windhoek'],
      ['Arabic Standard Time', 'Asia/Baghdad'],
      ['Turkey Standard Time', 'Europe/Istanbul'],
      ['Arab Standard Time', 'Asia/Riyadh'],
      ['Belarus Standard Time', 'Europe/Minsk'],
      ['Russian Standard Time', 'Europe/Moscow'],
      ['E. Africa Standard Time', 'Africa/Nairobi'],
      ['Iran Standard Time', 'Asia/Tehran'],
      ['Arabian Standard Time', 'Asia/Dubai'],
      ['Azerbaijan Standard Time', 'Asia/Baku'],
      ['Mauritius Standard Time', 'Indian/Mauritius'],
      ['Georgian Standard Time', 'Asia/Tbilisi'],
      ['Caucasus Standard Time', 'Asia/Yerevan'],
      ['Afghanistan Standard Time', 'Asia/Kabul'],
      ['West Asia Standard Time', 'Asia/Tashkent'],
      ['Ekaterinburg Standard Time', 'Asia/Yekaterinburg'],
      ['Pakistan Standard Time', 'Asia/Karachi'],
      ['India Standard Time', 'Asia/Kolkata'],
      ['Sri Lanka Standard Time', 'Asia/Colombo'],
      ['Nepal Standard Time', 'Asia/Kathmandu'],
      ['Bangladesh Standard Time', 'Asia/Dhaka'],
      ['Myanmar Standard Time', 'Asia/Yangon'],
      ['SE Asia Standard Time', 'Asia/Bangkok'],
      ['North Asia Standard Time', 'Asia/Krasnoyarsk'],
      ['China Standard Time', 'Asia/Shanghai'],
      ['North Asia East Standard Time', 'Asia/Irkutsk'],
      ['Singapore Standard Time', 'Asia/Singapore'],
      ['W. Australia Standard Time', 'Australia/Perth'],
      ['Taipei Standard Time', 'Asia/Taipei'],
      ['Tokyo Standard Time', 'Asia/Tokyo'],
      ['Korea Standard Time', 'Asia/Seoul'],
      ['Yakutsk Standard Time', 'Asia/Yakutsk'],
      ['Cen. Australia Standard Time', 'Australia/Adelaide'],
      ['AUS Central Standard Time', 'Australia/Darwin'],
      ['E. Australia Standard Time', 'Australia/Brisbane'],
      ['AUS Eastern Standard Time', 'Australia/Sydney'],
      ['Tasmania Standard Time', 'Australia/Hobart'],
      ['Vladivostok Standard Time', 'Asia/Vladivostok'],
      ['Magadan Standard Time', 'Asia/Magadan'],
      ['UTC+12', 'Etc/GMT-12'],
      ['New Zealand Standard Time', 'Pacific/Auckland'],
      ['Fiji Standard Time', 'Pacific/Fiji'],
      ['Tonga Standard Time', 'Pacific/Tongatapu'],
      ['Samoa Standard Time', 'Pacific/Apia'],
      ['Line Islands Standard Time', 'Pacific/Kiritimati'],
    ] as const
  ).map(([win, iana]) => [win.toLowerCase(), iana]),
);

/** Exposed for tests: the Windows zone table (lower-case Windows name → IANA). */
export const windowsZones: Readonly<Record<string, string>> = WINDOWS_ZONES;
