/**
 * iCalendar (RFC 5545) → Punctual events. PURE: no database, no clock; the horizon is an input.
 *
 * Parsing is ical.js (Mozilla's parser); this module adds what an import needs on top of it:
 *  - a structural pre-pass that knows line numbers, so a malformed file is reported as "line 12: …";
 *  - TZID → IANA zone resolution (see `resolveTzid`), with instants computed by the project's own
 *    wall-clock rules (domain/due-instant.ts: a nonexistent local time moves forward by the gap, an
 *    ambiguous one takes the earlier instant — RFC 5545 §3.3.5);
 *  - recurrence expansion (RRULE, RDATE, EXDATE, overridden instances with RECURRENCE-ID) inside a bounded
 *    horizon, each occurrence becoming its own event with a stable identity `UID#RECURRENCE-ID`.
 *
 * Components other than VEVENT (VTODO, VJOURNAL, VFREEBUSY) are ignored; VTIMEZONE is read for TZIDs.
 */
import ICAL from 'ical.js';
import { IANAZone } from 'luxon';
import { applyOffset, fromLocal } from '../domain/due-instant';

type IcalComponent = InstanceType<typeof ICAL.Component>;
type IcalProperty = InstanceType<typeof ICAL.Property>;
type IcalTime = InstanceType<typeof ICAL.Time>;

/** One event to import. Instants are UTC `Date`s; `timeZone` is the IANA zone the event is planned in. */
export interface IcsEvent {
  /** The VEVENT's UID; for an expanded occurrence `UID#2012-08-01T12:00:00Z` (UTC) or `UID#2012-08-01` (all-day). */
  uid: string;
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

export interface ParseIcsOptions {
  /** IANA zone for UTC (`Z`), floating and DATE values, and for TZIDs known only by their VTIMEZONE. */
  defaultTimeZone: string;
  /** Recurring series are expanded to the occurrences whose start lies in [horizonStart, horizonEnd]. */
  horizonStart: Date;
  horizonEnd: Date;
  /** At most this many occurrences per recurring series (the earliest ones win). Default 500. */
  maxOccurrencesPerEvent?: number;
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
const UNTITLED = 'Untitled event';
/** Every UTC offset in use lies within ±14 hours. */
const OFFSET_BOUND_MS = 14 * 3_600_000;

/**
 * Parses an iCalendar text into the events to import.
 *
 * Rules (RFC 5545 sections in brackets):
 *  - Identity is the UID (§3.8.4.7). A non-recurring VEVENT yields one event with `uid = UID`. UIDs must be
 *    unique, but real exports repeat one for different events (pyconuk-2015 does): the n-th VEVENT (n ≥ 2) in
 *    file order with an already-seen UID and no RECURRENCE-ID is kept as `UID#n`. Two overrides of the same
 *    instance: the higher SEQUENCE wins (§3.8.7.4), then the later one in the file.
 *  - Times: `Z` (UTC) and floating values keep their instant and are planned in `defaultTimeZone`; a TZID
 *    is mapped to an IANA zone by `resolveTzid` and the event is planned in that zone (§3.3.5, §3.2.19).
 *  - DATE-only DTSTART → all-day: startsAt/endsAt are local midnights in `defaultTimeZone`; DTEND is
 *    exclusive; without DTEND/DURATION the event lasts one day (§3.6.1).
 *  - DURATION instead of DTEND: days and weeks are nominal (wall-clock), hours/minutes/seconds are exact
 *    (§3.3.6). A DATE-TIME DTSTART with neither DTEND nor DURATION ends when it starts (§3.6.1).
 *  - Recurrence (§3.8.5): RRULE, RDATE and EXDATE are expanded by ical.js; each occurrence whose start lies
 *    in [horizonStart, horizonEnd] (inclusive) becomes an event `UID#RECURRENCE-ID` — the recurrence id is
 *    the occurrence's original start as a UTC instant (`2012-08-01T12:00:00Z`) or, all-day, its date. An
 *    overriding VEVENT with the same UID and a RECURRENCE-ID replaces that occurrence (its own times,
 *    texts and STATUS) and is kept when its own start lies in the horizon. RANGE=THISANDFUTURE is treated
 *    as overriding that one instance. At most `maxOccurrencesPerEvent` (default 500) per series, earliest
 *    first. Occurrences have the series' length: DTEND gives an exact length, DURATION a nominal one (§3.8.5.3).
 *    A non-recurring VEVENT is returned whatever its date; the horizon bounds only expansion.
 *    Known limit: for a TZID the file does not define as a VTIMEZONE, ical.js compares a UTC `UNTIL` with the
 *    wall clock, so the last instance can be off by one near UNTIL.
 *  - STATUS:CANCELLED (§3.8.1.11) → returned with `cancelled: true`.
 *
 * @param text the whole file (CRLF or LF; folded lines allowed, §3.1).
 * @returns events in file order; occurrences of a series in start order.
 * @throws IcsError naming the line and/or the VEVENT: not an iCalendar file, a line ical.js cannot parse,
 *   BEGIN/END mismatch or a truncated file, missing UID or DTSTART (§3.6.1), an unparseable date, DTEND
 *   before DTSTART, a TZID that is neither IANA, a known Windows name nor defined by a VTIMEZONE, or a
 *   recurrence too dense to expand.
 */
export function parseIcs(text: string, opts: ParseIcsOptions): IcsEvent[] {
  if (!IANAZone.isValidZone(opts.defaultTimeZone)) {
    throw new Error(`parseIcs: defaultTimeZone "${opts.defaultTimeZone}" is not an IANA zone`);
  }
  if (!(opts.horizonEnd.getTime() >= opts.horizonStart.getTime())) {
    throw new Error('parseIcs: horizonEnd must not be before horizonStart');
  }
  const max = opts.maxOccurrencesPerEvent ?? DEFAULT_MAX_OCCURRENCES;
  if (!Number.isInteger(max) || max < 1) throw new Error('parseIcs: maxOccurrencesPerEvent must be a positive integer');
  const scan = scanStructure(text);
  let jcal: unknown;
  try {
    jcal = ICAL.parse(scan.normalized);
  } catch (e) {
    throw locateParserError(scan.lines, e);
  }
  const roots = (Array.isArray(jcal) && typeof jcal[0] === 'string' ? [jcal] : (jcal as unknown[])).map(
    (j) => new ICAL.Component(j as never),
  );

  const ctx: Ctx = {
    defaultZone: opts.defaultTimeZone,
    horizonStart: opts.horizonStart.getTime(),
    horizonEnd: opts.horizonEnd.getTime(),
    max,
    tzids: new Map(),
  };

  // Group VEVENTs by UID (first appearance decides the output order).
  const series = new Map<string, { master?: VEvent; overrides: Map<string, VEvent> }>();
  const duplicates = new Map<string, number>();
  let index = 0;
  for (const root of roots) {
    for (const comp of root.getAllSubcomponents('vevent')) {
      const info = scan.vevents[index] ?? { line: undefined, props: new Map(), values: new Map() };
      index++;
      const ve = readVEvent(ctx, comp, root, index, info);
      let s = series.get(ve.uid);
      if (!s) series.set(ve.uid, (s = { overrides: new Map() }));
      if (ve.recurrenceKey === null) {
        if (!s.master) s.master = ve;
        else {
          // Same UID again without RECURRENCE-ID: invalid (§3.8.4.7), yet real exports do it with two
          // different events. Keep both: the n-th one in file order is `UID#n`.
          const n = (duplicates.get(ve.uid) ?? 1) + 1;
          duplicates.set(ve.uid, n);
          series.set(`${ve.uid}#${n}`, { master: ve, overrides: new Map() });
        }
      } else {
        const prev = s.overrides.get(ve.recurrenceKey);
        if (!prev || ve.sequence >= prev.sequence) s.overrides.set(ve.recurrenceKey, ve);
      }
    }
  }

  const out: IcsEvent[] = [];
  for (const [uid, s] of series) {
    if (s.master && s.master.recurring) {
      out.push(...expandSeries(ctx, uid, s.master, s.overrides));
      continue;
    }
    if (s.master) out.push(toIcsEvent(ctx, uid, s.master, s.master.allDay, s.master.start, s.master.length));
    // Overrides without a recurring master (the master is absent, or has no RRULE/RDATE) stand alone.
    for (const [key, o] of s.overrides) out.push(toIcsEvent(ctx, `${uid}#${key}`, o, o.allDay, o.start, o.length));
  }
  return out;
}

/**
 * Maps an iCalendar TZID to an IANA zone name, or null when it cannot. Tried in order:
 *  1. the TZID itself when it is an IANA name (case-insensitive; returned in canonical spelling);
 *  2. a vendor prefix stripped: `/mozilla.org/20050126_1/America/New_York`, `/softwarestudio.org/Olson_…/Europe/Paris`
 *     → the longest trailing `Area/City` that is an IANA name;
 *  3. `xLicLocation`, the X-LIC-LOCATION of the file's VTIMEZONE for this TZID (written by Mozilla and Google);
 *  4. a Windows zone name as Outlook/Exchange write them (`W. Europe Standard Time` → `Europe/Berlin`), by the
 *     CLDR windowsZones "001" mapping for the common zones (WINDOWS_ZONES below).
 * UTC spellings (`UTC`, `GMT`, `Etc/UTC`, `Z`…) return `UTC`.
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
// Structural pre-pass: unfold lines (RFC 5545 §3.1) keeping their physical line numbers, check BEGIN/END
// nesting and content-line shape, and remember where each VEVENT and its properties are.

interface ContentLine {
  line: number;
  text: string;
}
interface VEventLines {
  line: number | undefined;
  /** First physical line of each property (upper-case name) directly inside the VEVENT. */
  props: Map<string, number>;
  /** The value text (after the last ':') of the same lines, for error messages. */
  values: Map<string, string>;
}
interface Scan {
  lines: ContentLine[];
  /** The unfolded content lines joined with CRLF: what ical.js parses. */
  normalized: string;
  /** One entry per VEVENT directly inside a VCALENDAR, in file order (= ical.js's component order). */
  vevents: VEventLines[];
}

const NAME = /^([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)?)[;:]/;

/** Shortens `s` for an error message and makes control characters visible. */
function clip(s: string, n = 60): string {
  const v = s.replace(/[\u0000-\u001f\u007f]/g, '\uFFFD');
  return v.length > n ? `${v.slice(0, n)}…` : v;
}

function scanStructure(text: string): Scan {
  const physical = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const lines: ContentLine[] = [];
  physical.forEach((raw, i) => {
    if (raw === '') return; // blank lines carry nothing (ical.js skips them too)
    if ((raw[0] === ' ' || raw[0] === '\t') && lines.length > 0) {
      lines[lines.length - 1].text += raw.slice(1); // a fold: continue the previous content line
      return;
    }
    if (raw.trim() === '') return; // whitespace before the first content line
    lines.push({ line: i + 1, text: lines.length === 0 ? raw.trimStart() : raw });
  });
  if (lines.length === 0) throw new IcsError('empty file: not an iCalendar file (expected BEGIN:VCALENDAR)');

  const outside = (l: ContentLine) =>
    new IcsError(
      l === lines[0]
        ? `not an iCalendar file: expected BEGIN:VCALENDAR, found "${clip(l.text)}"`
        : `"${clip(l.text)}" after END:VCALENDAR (expected BEGIN:VCALENDAR or the end of the file)`,
      { line: l.line },
    );
  const stack: { name: string; line: number }[] = [];
  const vevents: VEventLines[] = [];
  let current: VEventLines | null = null;
  for (const l of lines) {
    if (l.text.includes('\u0000')) throw new IcsError('NUL character: binary data is not iCalendar text (RFC 5545 §3.1)', { line: l.line });
    const m = NAME.exec(l.text);
    if (!m || !l.text.includes(':')) {
      if (stack.length === 0) throw outside(l);
      throw new IcsError(`invalid content line (expected NAME:VALUE): "${clip(l.text)}"`, { line: l.line });
    }
    const name = m[1].toUpperCase();
    const value = l.text.slice(l.text.indexOf(':') + 1).trim().toUpperCase();
    if (name === 'BEGIN' || name === 'END') l.text = `${name}:${value}`;
    if (stack.length === 0 && !(name === 'BEGIN' && value === 'VCALENDAR')) throw outside(l);
    if (name === 'BEGIN') {
      if (!/^[A-Z0-9-]+$/.test(value)) throw new IcsError(`invalid component name in "${clip(l.text)}"`, { line: l.line });
      if (value === 'VEVENT' && stack.length === 1) {
        current = { line: l.line, props: new Map(), values: new Map() };
        vevents.push(current);
      }
      stack.push({ name: value, line: l.line });
    } else if (name === 'END') {
      const open = stack.pop();
      if (!open || open.name !== value) {
        throw new IcsError(`END:${value} does not close BEGIN:${open?.name} (opened at line ${open?.line})`, { line: l.line });
      }
      if (value === 'VEVENT' && stack.length === 1) current = null;
    } else if (current && stack.length === 2 && stack[1].name === 'VEVENT' && !current.props.has(name)) {
      current.props.set(name, l.line);
      current.values.set(name, l.text.slice(l.text.lastIndexOf(':') + 1));
    }
  }
  if (stack.length > 0) {
    const open = stack[stack.length - 1];
    throw new IcsError(`BEGIN:${open.name} is never closed (missing END:${open.name}; is the file truncated?)`, {
      line: open.line,
    });
  }
  return { lines, normalized: lines.map((l) => l.text).join('\r\n'), vevents };
}

/** Turns an ical.js parse failure into an IcsError naming the first content line ical.js rejects. */
function locateParserError(lines: ContentLine[], e: unknown): IcsError {
  const reason = e instanceof Error ? e.message : String(e);
  for (const l of lines) {
    if (/^(BEGIN|END):/.test(l.text)) continue;
    try {
      ICAL.parse.property(l.text, ICAL.design.icalendar);
    } catch (inner) {
      return new IcsError(inner instanceof Error ? inner.message : String(inner), { line: l.line });
    }
  }
  return new IcsError(`cannot parse the file: ${reason}`);
}

// ---------------------------------------------------------------------------------------------------------
// VEVENT reading.

interface Ctx {
  defaultZone: string;
  horizonStart: number;
  horizonEnd: number;
  max: number;
  /** resolveTzid results by TZID (+ X-LIC-LOCATION): Intl look-ups are slow and a series repeats them. */
  tzids: Map<string, string | null>;
}

function cachedTzid(ctx: Ctx, tzid: string, lic: string | null): string | null {
  const k = `${tzid}\u0000${lic ?? ''}`;
  if (!ctx.tzids.has(k)) ctx.tzids.set(k, resolveTzid(tzid, lic));
  return ctx.tzids.get(k)!;
}

/** How to turn a wall-clock reading into an instant. */
type ZoneRef =
  | { kind: 'utc' }
  | { kind: 'floating' }
  | { kind: 'iana'; zone: string }
  /** A TZID known only by its VTIMEZONE: ical.js computes the instant from the VTIMEZONE's offsets. */
  | { kind: 'vtimezone'; tzid: string };

interface Start {
  time: IcalTime;
  ref: ZoneRef;
  instant: Date;
}

/** Length of an event: exact milliseconds (from DTEND) or an ISO-8601 duration applied by RFC 5545 §3.3.6. */
type Length = { kind: 'exact'; ms: number } | { kind: 'nominal'; iso: string };

interface VEvent {
  uid: string;
  label: string;
  line: number | undefined;
  props: Map<string, number>;
  sequence: number;
  /** null for a master / single event; the key of the instance it overrides otherwise. */
  recurrenceKey: string | null;
  recurring: boolean;
  comp: IcalComponent;
  start: Start;
  length: Length;
  allDay: boolean;
  title: string | null;
  description: string | null;
  location: string | null;
  cancelled: boolean;
}

/** Longest accepted value per text property (characters); longer is an error naming the property. */
const TEXT_LIMITS: Record<string, number> = { uid: 512, summary: 1000, location: 1000, description: 20_000, status: 64 };

/**
 * A TEXT property's value, trimmed, with control characters other than tab and newline removed (they have
 * no business in a title and can corrupt a terminal or an email header); null when absent or empty.
 * @throws IcsError (via `fail`) when longer than TEXT_LIMITS.
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
  return s === '' ? null : s;
}

function readVEvent(ctx: Ctx, comp: IcalComponent, root: IcalComponent, index: number, info: VEventLines): VEvent {
  const rawUid = String(comp.getFirstPropertyValue('uid') ?? '');
  const rawSummary = String(comp.getFirstPropertyValue('summary') ?? '');
  const label = `VEVENT #${index}${rawUid ? ` (UID ${clip(rawUid, 80)})` : rawSummary ? ` (SUMMARY "${clip(rawSummary)}")` : ''}`;
  const fail = (detail: string, prop?: string): never => {
    throw new IcsError(detail, { line: (prop ? info.props.get(prop.toUpperCase()) : undefined) ?? info.line, component: label });
  };
  const uid = text(comp, 'uid', fail);
  const summary = text(comp, 'summary', fail);
  if (!uid) fail('missing UID (required by RFC 5545 §3.6.1)');

  const rid = comp.getFirstProperty('recurrence-id');
  const dtstartProp = comp.getFirstProperty('dtstart') ?? rid;
  if (!dtstartProp) fail('missing DTSTART');
  const read = (prop: IcalProperty, name: string) => readStart(ctx, root, prop, fail, name, info.values.get(name));
  const start = read(dtstartProp!, comp.getFirstProperty('dtstart') ? 'DTSTART' : 'RECURRENCE-ID');
  const allDay = start.time.isDate;

  let length: Length;
  const dtend = comp.getFirstProperty('dtend');
  const duration = comp.getFirstProperty('duration');
  if (dtend) {
    const end = read(dtend, 'DTEND');
    if (end.time.isDate !== allDay) fail('DTEND must have the same value type (DATE or DATE-TIME) as DTSTART', 'DTEND');
    // A start inside a spring-forward gap moves forward (RFC 5545 §3.3.5) and may pass an end that was
    // after it on the wall clock (02:30–03:00 on a 02:00→03:00 day): keep the event, with no length.
    const wallEnd = end.time.toUnixTime() - start.time.toUnixTime();
    if (end.instant.getTime() < start.instant.getTime() && !(wallEnd >= 0 && start.instant.getTime() - end.instant.getTime() <= 3 * 3600_000)) {
      fail('DTEND is before DTSTART', 'DTEND');
    }
    if (end.instant.getTime() < start.instant.getTime()) end.instant = start.instant;
    length = allDay
      ? { kind: 'nominal', iso: `P${Math.round(dayNumber(end.time) - dayNumber(start.time))}D` }
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
    length = { kind: 'nominal', iso };
  } else {
    length = allDay ? { kind: 'nominal', iso: 'P1D' } : { kind: 'exact', ms: 0 };
  }

  let recurrenceKey: string | null = null;
  if (rid) recurrenceKey = keyOf(read(rid, 'RECURRENCE-ID'));

  let recurring = false;
  try {
    recurring = !rid && (comp.hasProperty('rrule') || comp.hasProperty('rdate'));
    if (recurring) comp.getAllProperties('rrule').forEach((p) => p.getFirstValue());
  } catch (e) {
    fail(`invalid RRULE: ${(e as Error).message}`, 'RRULE');
  }

  const seq = Number(comp.getFirstPropertyValue('sequence') ?? 0);
  return {
    uid: uid!,
    label,
    line: info.line,
    props: info.props,
    sequence: Number.isFinite(seq) ? seq : 0,
    recurrenceKey,
    recurring,
    comp,
    start,
    length,
    allDay,
    title: summary,
    description: text(comp, 'description', fail),
    location: text(comp, 'location', fail),
    cancelled: (text(comp, 'status', fail) ?? '').toUpperCase() === 'CANCELLED',
  };
}

/** Reads a DATE / DATE-TIME property and resolves its zone. */
function readStart(
  ctx: Ctx,
  root: IcalComponent,
  prop: IcalProperty,
  fail: (detail: string, prop?: string) => never,
  name: string,
  shown: string | undefined,
): Start {
  // ical.js normalises out-of-range fields (month 13 → next January): check the raw value first.
  const raw = (prop.toJSON() as unknown[])[3];
  if (typeof raw !== 'string' || !validRawTime(raw)) {
    return fail(`invalid ${name} value "${clip(shown ?? String(raw))}" (expected a DATE such as 20250131 or a DATE-TIME such as 20250131T090000)`, name);
  }
  let time: IcalTime;
  try {
    time = prop.getFirstValue() as IcalTime;
  } catch (e) {
    return fail(`invalid ${name} value: ${(e as Error).message}`, name);
  }
  if (!(time instanceof ICAL.Time)) {
    return fail(`invalid ${name} value "${clip(shown ?? String(raw))}"`, name);
  }
  let ref: ZoneRef;
  const tzid = prop.getParameter('tzid');
  if (time.isDate) ref = { kind: 'floating' };
  else if (time.zone?.tzid === 'UTC') ref = { kind: 'utc' };
  else if (typeof tzid === 'string' && tzid !== '') {
    const r = zoneRefForTzid(ctx, root, tzid);
    if (!r) {
      return fail(
        `unknown time zone TZID "${tzid}": not an IANA zone name, not a known Windows zone, and no VTIMEZONE for it in the file`,
        name,
      );
    }
    ref = r;
  } else ref = { kind: 'floating' };
  return { time, ref, instant: instantOf(ctx, time, ref) };
}

function zoneRefForTzid(ctx: Ctx, root: IcalComponent, tzid: string): ZoneRef | null {
  const vtz = root.getAllSubcomponents('vtimezone').find((z) => z.getFirstPropertyValue('tzid') === tzid);
  const lic = vtz ? vtz.getFirstPropertyValue('x-lic-location') : null;
  const zone = cachedTzid(ctx, tzid, typeof lic === 'string' ? lic : null);
  if (zone === 'UTC') return { kind: 'utc' };
  if (zone) return { kind: 'iana', zone };
  return vtz ? { kind: 'vtimezone', tzid } : null;
}

/** A DATE (`2025-01-31`) or DATE-TIME (`2025-01-31T09:00:00`, optionally `Z`) in ical.js's decoded form, fields in range. */
function validRawTime(raw: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})Z?)?$/.exec(raw);
  if (!m) return false;
  const [y, mo, d, h = 0, mi = 0, se = 0] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v))) as number[];
  // Years before 1000 are typos in practice (and Date.UTC reads 0–99 as 1900–1999).
  if (y < 1000 || mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return false;
  return h <= 23 && mi <= 59 && se <= 60;
}

function dayNumber(t: IcalTime): number {
  return Date.UTC(t.year, t.month - 1, t.day) / 86_400_000;
}

/** The UTC instant of an ical.js time read in `ref` (DATE values: local midnight in the default zone). */
function instantOf(ctx: Ctx, t: IcalTime, ref: ZoneRef): Date {
  const local = { year: t.year, month: t.month, day: t.day, hour: 0, minute: 0, second: 0, millisecond: 0 };
  if (t.isDate) return fromLocal(local, ctx.defaultZone);
  Object.assign(local, { hour: t.hour, minute: t.minute, second: Math.min(t.second, 59) });
  switch (ref.kind) {
    case 'utc':
      return new Date(Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second));
    case 'floating':
      return fromLocal(local, ctx.defaultZone);
    case 'iana':
      return fromLocal(local, ref.zone);
    case 'vtimezone':
      return new Date(t.toUnixTime() * 1000);
  }
}

/** The IANA zone an event is planned in. */
function eventZone(ctx: Ctx, allDay: boolean, ref: ZoneRef): string {
  return !allDay && ref.kind === 'iana' ? ref.zone : ctx.defaultZone;
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
function keyOf(s: { time: IcalTime; instant: Date }): string {
  if (s.time.isDate) {
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    return `${p(s.time.year, 4)}-${p(s.time.month)}-${p(s.time.day)}`;
  }
  return s.instant.toISOString().replace(/\.000Z$/, 'Z');
}

/** Instants beyond these are not events anyone is reminded of (and beyond what PostgreSQL or JS dates hold). */
const EARLIEST = Date.parse('1900-01-01T00:00:00Z');
const LATEST = Date.parse('2200-01-01T00:00:00Z');

function toIcsEvent(ctx: Ctx, uid: string, texts: Texts, allDay: boolean, start: Start, length: Length): IcsEvent {
  const endsAt = endOf(ctx, start.instant, length, allDay, start.ref);
  for (const [name, d] of [['DTSTART', start.instant], ['the end (DTEND or DTSTART + DURATION)', endsAt]] as const) {
    if (Number.isNaN(d.getTime()) || d.getTime() < EARLIEST || d.getTime() > LATEST) {
      throw new IcsError(`event UID ${clip(uid, 80)}: ${name} is outside the years 1900–2199`, { component: `VEVENT (UID ${clip(uid, 80)})` });
    }
  }
  return {
    uid,
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

/**
 * Expands a recurring master within the horizon. ical.js walks RRULE/RDATE/EXDATE in the series' wall clock
 * (§3.8.5: recurrence is local to DTSTART's zone); each occurrence's instant is then computed by our rules.
 */
function expandSeries(ctx: Ctx, uid: string, master: VEvent, overrides: Map<string, VEvent>): IcsEvent[] {
  const found: IcsEvent[] = [];
  const fail = (detail: string, prop?: string): never => {
    throw new IcsError(detail, { line: (prop ? master.props.get(prop) : undefined) ?? master.line, component: master.label });
  };
  let it;
  try {
    it = new ICAL.Event(master.comp, { exceptions: [] }).iterator();
  } catch (e) {
    return fail(`cannot expand the recurrence: ${(e as Error).message}`, 'RRULE');
  }
  let steps = 0;
  let ruleCount = 0;
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
    // Cheap bound first: UTC offsets lie within ±14 h, so most instances far from the horizon need no zone lookup.
    const wall = Date.UTC(occ.year, occ.month - 1, occ.day, occ.isDate ? 0 : occ.hour, occ.isDate ? 0 : occ.minute);
    if (wall - OFFSET_BOUND_MS > ctx.horizonEnd) break;
    if (wall + OFFSET_BOUND_MS < ctx.horizonStart) continue;
    const ref = occurrenceRef(ctx, master, occ);
    const start: Start = { time: occ, ref, instant: instantOf(ctx, occ, ref) };
    const t = start.instant.getTime();
    if (t > ctx.horizonEnd) break;
    const key = keyOf(start);
    if (overrides.has(key) || t < ctx.horizonStart) continue;
    found.push(toIcsEvent(ctx, `${uid}#${key}`, master, master.allDay, start, master.length));
    if (++ruleCount >= ctx.max) break;
  }
  for (const [key, o] of overrides) {
    const t = o.start.instant.getTime();
    if (t < ctx.horizonStart || t > ctx.horizonEnd) continue;
    found.push(toIcsEvent(ctx, `${uid}#${key}`, overrideTexts(master, o), o.allDay, o.start, o.length));
  }
  found.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
  return found.slice(0, ctx.max);
}

/**
 * The zone of an expanded occurrence. ical.js keeps the zone of the value it came from (DTSTART or an RDATE);
 * a TZID that the file does not define as a VTIMEZONE reaches us as "floating", and is the series' zone.
 */
function occurrenceRef(ctx: Ctx, master: VEvent, occ: IcalTime): ZoneRef {
  const tzid = occ.zone?.tzid;
  if (occ.isDate) return { kind: 'floating' };
  if (tzid === 'UTC') return { kind: 'utc' };
  if (!tzid || tzid === 'floating') return master.start.ref;
  if (master.start.ref.kind === 'vtimezone' && master.start.ref.tzid === tzid) return master.start.ref;
  const zone = cachedTzid(ctx, tzid, null);
  if (zone === 'UTC') return { kind: 'utc' };
  return zone ? { kind: 'iana', zone } : { kind: 'vtimezone', tzid };
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
