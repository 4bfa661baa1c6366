/**
 * Times and zones of the iCalendar import (domain/calendar/ics.ts readIcs, "Zones"): DATE/DATE-TIME values read from
 * their raw text as wall clocks (never through ical.js's own TZID look-up, which would take `GMT` for UTC whatever the
 * file's VTIMEZONE says), the decision per TZID and year whether the IANA name is trusted or the file's VTIMEZONE
 * governs (RFC 5545 §3.6.5, domain/scheduling/zone-agreement.ts), and wall clock → UTC instant. Also the reading
 * context `Ctx` shared by the import's modules (horizon, caches, the scan, the counts).
 */
import { IANAZone } from 'luxon';
import { fromLocalWithOffsets } from '@/domain/scheduling/due-instant';
import { findMatchingZone, ianaOffsetAt, offsetsAgree, type OffsetAt } from '@/domain/scheduling/zone-agreement';
import ICAL, { type IcalComponent, type IcalProperty, type IcalTime } from './ics-ical';
import { clip, parseComponent, parseUtcOffset, type Scan } from './ics-scan';
import { canonicalZone, resolveTzid, WINDOWS_ZONES } from './ics-tzid';
import { IcsError, type IcsReadStats } from './ics-types';

// ---------------------------------------------------------------------------------------------------------
// Zones.

export interface Ctx {
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
export type ZoneRef =
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

/** A wall-clock reading as written in the file. */
export interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  isDate: boolean;
}
/** A DATE/DATE-TIME value: its wall clock and how the file qualifies it. */
export interface TimeSpec {
  wall: Wall;
  zone: { kind: 'utc' } | { kind: 'floating' } | { kind: 'tzid'; tzid: string };
}

export interface Start {
  spec: TimeSpec;
  ref: ZoneRef;
  instant: Date;
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
export function readTimeSpecs(prop: IcalProperty, fail: (detail: string, prop?: string) => never, name: string, shown: string | undefined): TimeSpec[] {
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

/** The first value of a DATE/DATE-TIME property (readTimeSpecs). @throws IcsError (via `fail`) when it has none or it is invalid. */
export function readTimeSpec(prop: IcalProperty, fail: (detail: string, prop?: string) => never, name: string, shown: string | undefined): TimeSpec {
  const specs = readTimeSpecs(prop, fail, name, shown);
  if (specs.length === 0) return fail(`invalid ${name} value "${clip(shown ?? '')}"`, name);
  return specs[0];
}

/** Resolves a TimeSpec's zone and instant. @throws IcsError (via `fail`) for an unknown TZID. */
export function resolveStart(ctx: Ctx, cal: number, spec: TimeSpec, fail: (detail: string, prop?: string) => never, name: string): Start {
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

/** A wall-clock reading as if it were UTC, in milliseconds (DATE values: midnight): for ordering and arithmetic on walls. */
export function wallMs(w: Wall): number {
  return Date.UTC(w.year, w.month - 1, w.day, w.isDate ? 0 : w.hour, w.isDate ? 0 : w.minute, w.isDate ? 0 : w.second);
}

/** The wall clock of an ical.js time (leap second 60 read as 59). */
export function wallOf(t: IcalTime): Wall {
  return { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: Math.min(t.second, 59), isDate: t.isDate };
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
export function eventZone(ctx: Ctx, allDay: boolean, ref: ZoneRef): string {
  if (allDay) return ctx.defaultZone;
  return ref.kind === 'iana' ? ref.zone : ref.kind === 'vtimezone' ? ref.planned : ctx.defaultZone;
}

/** The zone in which a nominal duration (days, weeks) is counted. */
export function arithmeticZone(ctx: Ctx, allDay: boolean, ref: ZoneRef): string {
  return !allDay && ref.kind === 'utc' ? 'UTC' : eventZone(ctx, allDay, ref);
}

/** Recurrence key: the original start as `YYYY-MM-DD` (DATE) or a UTC instant without milliseconds. */
export function keyOf(s: { spec: TimeSpec; instant: Date }): string {
  if (s.spec.wall.isDate) {
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    return `${p(s.spec.wall.year, 4)}-${p(s.spec.wall.month)}-${p(s.spec.wall.day)}`;
  }
  return s.instant.toISOString().replace(/\.000Z$/, 'Z');
}
