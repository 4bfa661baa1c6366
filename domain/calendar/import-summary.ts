/**
 * What an iCalendar import did, and how the CLI says it. Pure: the summary is data; `formatImportSummary`
 * turns it into lines. Every VEVENT occurrence read lands in exactly one place:
 *   occurrences = imported (created + updated + rescheduled + unchanged + cancelled)
 *               + outside the window (before + after; plus series that go on after it, counted as series)
 *               + beyond the per-series limit + duplicates + skipped (a reason each).
 */

interface ImportSkip {
  /** The identity the event would have had (external_uid). */
  uid: string;
  title: string;
  reason: string;
}

export interface ImportIcsSummary {
  /** New events (schedule version 1). */
  created: number;
  /** Title, description or location changed; timing unchanged. */
  updated: number;
  /** Timing changed: schedule version bumped, old reminders superseded, new ones planned. */
  rescheduled: number;
  /** Nothing to change — including a cancelled VEVENT that was never imported or is already cancelled. */
  unchanged: number;
  /** STATUS:CANCELLED in the file; the event was active and is now cancelled with its reminders. */
  cancelled: number;
  /** created + updated + rescheduled + unchanged + cancelled. */
  total: number;
  /** VEVENT components in the file and the occurrences they make. */
  read: { vevents: number; occurrences: number };
  /** VEVENTs without UID (imported under a derived `nouid:` identity). */
  withoutUid: number;
  /** UIDs shared by several VEVENTs (each imported under a content identity `UID#c-…`). */
  repeatedUids: number;
  /** The expansion window of recurring series (UTC instants, inclusive). */
  window: { start: Date; end: Date };
  /** Occurrences of recurring series outside the window; `seriesContinuing` series go on after it (not counted one by one). */
  outsideWindow: { before: number; after: number; seriesContinuing: number };
  /** Occurrences inside the window beyond the per-series limit. */
  beyondLimit: number;
  /** VEVENTs identical to an earlier one in the file (same identity). */
  duplicates: number;
  /** Events not imported, each with why (e.g. a changed session that matches more than one stored event). */
  skipped: ImportSkip[];
  /**
   * Of `total`, the events not cancelled in the file that started before the import instant: one-off events are
   * imported whatever their age (a recurring series is windowed instead), but no reminder is worth sending for them
   * (domain/scheduling/planning.ts stores what a past event would get as `expired`), so the report says how many there are.
   */
  past: number;
}

const n = (v: number) => v.toLocaleString('en');
const plural = (v: number, one: string, many = `${one}s`) => `${n(v)} ${v === 1 ? one : many}`;
const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * "162 events are in the past: imported, no reminders planned" ("1 event is …"): `past` of the imported events
 * started before the import instant.
 */
function pastLine(past: number): string {
  return `${past === 1 ? '1 event is' : `${n(past)} events are`} in the past: imported, no reminders planned`;
}

/**
 * The CLI's report: the first line `imported FILE into TENANT: N events (… created, … updated, …)`, then one
 * indented line per non-empty bucket (including how many imported events lie in the past), and — when nothing was imported — a line that says why.
 */
export function formatImportSummary(file: string, tenant: string, s: ImportIcsSummary): string[] {
  const lines = [
    `imported ${file} into ${tenant}: ${plural(s.total, 'event')} (${n(s.created)} created, ${n(s.updated)} updated, ` +
      `${n(s.rescheduled)} rescheduled, ${n(s.unchanged)} unchanged, ${n(s.cancelled)} cancelled)`,
  ];
  lines.push(`  read ${plural(s.read.vevents, 'VEVENT')} → ${plural(s.read.occurrences, 'occurrence')}`);
  if (s.withoutUid > 0) lines.push(`  ${plural(s.withoutUid, 'VEVENT')} had no UID: identified by start, title and location`);
  if (s.repeatedUids > 0) lines.push(`  ${plural(s.repeatedUids, 'UID')} used by several VEVENTs: each identified by UID, start, title and location`);
  const out = s.outsideWindow.before + s.outsideWindow.after;
  const win = `${day(s.window.start)} … ${day(s.window.end)}`;
  if (out > 0 || s.outsideWindow.seriesContinuing > 0) {
    const parts = [`${n(s.outsideWindow.before)} before`, `${n(s.outsideWindow.after)} after`];
    const cont = s.outsideWindow.seriesContinuing > 0 ? `; ${plural(s.outsideWindow.seriesContinuing, 'series', 'series')} ${s.outsideWindow.seriesContinuing === 1 ? 'goes' : 'go'} on after it` : '';
    lines.push(`  skipped ${plural(out, 'occurrence')} outside the import window ${win} (${parts.join(', ')})${cont}`);
  }
  if (s.beyondLimit > 0) lines.push(`  skipped ${plural(s.beyondLimit, 'occurrence')} beyond the limit per recurring series`);
  if (s.duplicates > 0) lines.push(`  skipped ${plural(s.duplicates, 'duplicate VEVENT')} (same identity as an earlier one)`);
  for (const k of s.skipped) lines.push(`  skipped "${k.title}" (${k.uid}): ${k.reason}`);
  if (s.past > 0) lines.push(`  ${pastLine(s.past)}`);
  if (s.total === 0) {
    lines.push(
      s.read.vevents === 0
        ? '  nothing imported: the file has no VEVENT'
        : out > 0 || s.outsideWindow.seriesContinuing > 0
          ? `  nothing imported: every occurrence lies outside the import window ${win} (use --horizon-days to look further ahead)`
          : '  nothing imported: see the reasons above',
    );
  }
  return lines;
}
