/**
 * Recurrence expansion for the iCalendar import (domain/calendar/ics.ts readIcs, "Recurrence", RFC 5545 §3.8.5): a
 * recurring VEVENT's DTSTART, every RRULE and every RDATE, minus EXDATEs, inside the horizon, with RECURRENCE-ID
 * overrides replacing their instance; what falls outside is counted, not returned. The rule iterator is ical.js's,
 * with the step budget of domain/calendar/ics-ical.ts.
 */
import ICAL, { type IcalTime } from './ics-ical';
import { overrideTexts, toIcsEvent, type VEvent } from './ics-events';
import type { IcsEvent } from './ics-types';
import { keyOf, readTimeSpecs, resolveStart, wallMs, wallOf, type Ctx, type Start, type TimeSpec, type Wall } from './ics-zones';

/** Recurrence steps walked per series before giving up (a MINUTELY rule from 1970 would never reach today). */
const MAX_ITERATIONS = 100_000;
/** Occurrences after the horizon counted one by one per series; beyond that the series "continues". */
const AFTER_WINDOW_COUNT = 500;
/** Every UTC offset in use lies within ±14 hours. */
const OFFSET_BOUND_MS = 14 * 3_600_000;

/**
 * Expands a recurring master (see readIcs, "Recurrence"): DTSTART ∪ each RRULE ∪ each RDATE, by instant,
 * minus EXDATEs; overrides replace their instance. Counts what falls outside the horizon in ctx.stats.
 */
export function expandSeries(ctx: Ctx, identity: string, master: VEvent, overrides: Map<string, VEvent>): IcsEvent[] {
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
