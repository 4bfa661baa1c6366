/**
 * One VEVENT of the iCalendar import (domain/calendar/ics.ts): reading it (texts with their limits and text-direction
 * check, start, length, RECURRENCE-ID, RRULE verdicts) and turning an event or occurrence into the IcsEvent returned.
 */
import ICAL, { type IcalComponent, type IcalProperty } from './ics-ical';
import { checkRrule } from './rrule-guard';
import { applyOffset } from '@/domain/scheduling/due-instant';
import { bidiControlProblem } from '@/domain/text';
import { clip, propLines, rawProps, parseComponent, type VEventRef } from './ics-scan';
import { IcsError, type IcsEvent } from './ics-types';
import { arithmeticZone, eventZone, keyOf, readTimeSpec, resolveStart, wallMs, type Ctx, type Start, type ZoneRef } from './ics-zones';

/** Length of an event: exact milliseconds (from DTEND) or an ISO-8601 duration applied by RFC 5545 §3.3.6. */
type Length = { kind: 'exact'; ms: number } | { kind: 'nominal'; iso: string };

export interface VEvent {
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

export const UNTITLED = 'Untitled event';
/** No occurrence may reach this wall clock: events live in the years 1900–2199 (see toIcsEvent). */
const LAST_WALL_MS = Date.UTC(2200, 0, 1);

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

/**
 * Reads one VEVENT (lines `ref.first`–`ref.last`, parsed on its own): texts, DTSTART resolved to an instant, its
 * length (DTEND exact, DURATION nominal in days/weeks, §3.3.6), RECURRENCE-ID key, SEQUENCE, and each RRULE judged by
 * domain/calendar/rrule-guard.ts before ical.js iterates it (see readIcs for the rules).
 * @throws IcsError naming the property's line and the VEVENT: missing DTSTART, bad dates, DTEND before DTSTART,
 *   negative or invalid DURATION, an unknown TZID, a refused RRULE, a text too long or holding a text-direction control.
 */
export function readVEvent(ctx: Ctx, ref: VEventRef): VEvent {
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

/** The end of an occurrence starting at `start`: exact lengths add milliseconds, nominal ones count in the event's zone. */
function endOf(ctx: Ctx, start: Date, length: Length, allDay: boolean, ref: ZoneRef): Date {
  return length.kind === 'exact'
    ? new Date(start.getTime() + length.ms)
    : applyOffset(start, length.iso, arithmeticZone(ctx, allDay, ref));
}

/** Instants beyond these are not events anyone is reminded of (and beyond what PostgreSQL or JS dates hold). */
const EARLIEST = Date.parse('1900-01-01T00:00:00Z');
const LATEST = Date.parse('2200-01-01T00:00:00Z');

/**
 * The IcsEvent for one event or occurrence. @throws IcsError when its start or end lies outside the years 1900–2199.
 */
export function toIcsEvent(ctx: Ctx, uid: string, group: string | null, texts: Texts, allDay: boolean, start: Start, length: Length): IcsEvent {
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
export function overrideTexts(master: VEvent, o: VEvent): Texts {
  return {
    title: o.comp.hasProperty('summary') ? o.title : master.title,
    description: o.comp.hasProperty('description') ? o.description : master.description,
    location: o.comp.hasProperty('location') ? o.location : master.location,
    cancelled: master.cancelled || o.cancelled,
  };
}
