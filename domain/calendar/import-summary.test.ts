import { describe, expect, it } from 'vitest';
import { formatImportSummary, type ImportIcsSummary } from './import-summary';

const base: ImportIcsSummary = {
  created: 0, updated: 0, rescheduled: 0, unchanged: 0, cancelled: 0, total: 0,
  read: { vevents: 0, occurrences: 0 }, withoutUid: 0, repeatedUids: 0,
  window: { start: new Date('2026-11-02T09:00:00Z'), end: new Date('2027-12-02T09:00:00Z') },
  outsideWindow: { before: 0, after: 0, seriesContinuing: 0 }, beyondLimit: 0, duplicates: 0, skipped: [], past: 0,
};

describe('formatImportSummary', () => {
  it.each<[string, Partial<ImportIcsSummary>, string[]]>([
    ['a plain import', { created: 3, total: 3, read: { vevents: 3, occurrences: 3 } }, [
      'imported f.ics into acme: 3 events (3 created, 0 updated, 0 rescheduled, 0 unchanged, 0 cancelled)',
      '  read 3 VEVENTs → 3 occurrences',
    ]],
    ['every occurrence outside the window says why', { read: { vevents: 1, occurrences: 24 }, outsideWindow: { before: 24, after: 0, seriesContinuing: 0 } }, [
      'imported f.ics into acme: 0 events (0 created, 0 updated, 0 rescheduled, 0 unchanged, 0 cancelled)',
      '  read 1 VEVENT → 24 occurrences',
      '  skipped 24 occurrences outside the import window 2026-11-02 … 2027-12-02 (24 before, 0 after)',
      '  nothing imported: every occurrence lies outside the import window 2026-11-02 … 2027-12-02 (use --horizon-days to look further ahead)',
    ]],
    ['no UID, duplicates, a skipped session, a series going on', {
      created: 2, unchanged: 1, total: 3, read: { vevents: 5, occurrences: 9 }, withoutUid: 2, duplicates: 1, beyondLimit: 2,
      outsideWindow: { before: 1, after: 0, seriesContinuing: 1 },
      skipped: [{ uid: 'u#c-0123456789ab', title: 'Open Space', reason: 'ambiguous' }],
    }, [
      'imported f.ics into acme: 3 events (2 created, 0 updated, 0 rescheduled, 1 unchanged, 0 cancelled)',
      '  read 5 VEVENTs → 9 occurrences',
      '  2 VEVENTs had no UID: identified by start, title and location',
      '  skipped 1 occurrence outside the import window 2026-11-02 … 2027-12-02 (1 before, 0 after); 1 series goes on after it',
      '  skipped 2 occurrences beyond the limit per recurring series',
      '  skipped 1 duplicate VEVENT (same identity as an earlier one)',
      '  skipped "Open Space" (u#c-0123456789ab): ambiguous',
    ]],
    ['past one-off events are said to be past (pyconuk-2015: 162)', { created: 162, total: 162, read: { vevents: 162, occurrences: 162 }, past: 162 }, [
      'imported f.ics into acme: 162 events (162 created, 0 updated, 0 rescheduled, 0 unchanged, 0 cancelled)',
      '  read 162 VEVENTs → 162 occurrences',
      '  162 events are in the past: imported, no reminders planned',
    ]],
    ['some of the events past', { created: 5, total: 5, read: { vevents: 5, occurrences: 5 }, past: 2 }, [
      'imported f.ics into acme: 5 events (5 created, 0 updated, 0 rescheduled, 0 unchanged, 0 cancelled)',
      '  read 5 VEVENTs → 5 occurrences',
      '  2 events are in the past: imported, no reminders planned',
    ]],
    ['one past event of several', { created: 1, unchanged: 2, total: 3, read: { vevents: 3, occurrences: 3 }, past: 1 }, [
      'imported f.ics into acme: 3 events (1 created, 0 updated, 0 rescheduled, 2 unchanged, 0 cancelled)',
      '  read 3 VEVENTs → 3 occurrences',
      '  1 event is in the past: imported, no reminders planned',
    ]],
    ['an empty calendar', {}, [
      'imported f.ics into acme: 0 events (0 created, 0 updated, 0 rescheduled, 0 unchanged, 0 cancelled)',
      '  read 0 VEVENTs → 0 occurrences',
      '  nothing imported: the file has no VEVENT',
    ]],
  ])('%s', (_n, over, lines) => {
    expect(formatImportSummary('f.ics', 'acme', { ...base, ...over })).toEqual(lines);
  });
});
