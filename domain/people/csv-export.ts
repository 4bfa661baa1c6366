/**
 * CSV files staff download (issue #13: an event's participants, the deliveries log, the audit log). Pure: text
 * in, text out — no I/O, no clock reads. The writing itself is csv-stringify's (node-csv, the same family as
 * csv-parse); this module fixes the dialect every export shares:
 *
 * - **UTF-8 with a BOM** (U+FEFF first): without it Excel reads a .csv in the machine's legacy code page and
 *   "Zoë, Łódź" arrives as "ZoÃ«, ÅÃ³dÅº". Other readers (LibreOffice, Numbers, csv-parse with `bom: true`,
 *   Python's `utf-8-sig`) skip it.
 * - **RFC 4180**: records end with CRLF (the last one too); a field is quoted when it holds a comma, a double
 *   quote (doubled inside), CR or LF — so a note over two lines stays one field.
 * - **CSV-injection guard** (OWASP "CSV Injection"): a text cell whose first character is `=` `+` `-` `@`, TAB
 *   or CR — or their full-width forms U+FF1D U+FF0B U+FF0D U+FF20, which some spreadsheets also read as
 *   formula starts — gets a leading apostrophe (`'=HYPERLINK(…)`), so a spreadsheet shows it as text instead
 *   of running it. The apostrophe is then part of the value: a phone number in E.164 reads `'+31612345678`
 *   (without it a spreadsheet turns it into the number 31612345678). Numbers passed as numbers are never
 *   prefixed (a negative count stays a number). Column headings go through the same writer.
 * - **No locale-dependent formats**: numbers are written as JavaScript prints them (`1234.5`, no grouping);
 *   an instant is two cells — UTC ISO 8601 (`2026-12-01T08:30:00Z`) and the wall-clock time in a named zone
 *   (`2026-12-01 09:30:00`, the zone's IANA name in the column heading).
 */
import { stringify } from 'csv-stringify/sync';
import { DateTime } from 'luxon';

/** The byte-order mark that opens every export (U+FEFF, bytes EF BB BF in UTF-8). */
export const CSV_BOM = '\uFEFF';

/** One cell: text, a number (written as is), or nothing (an empty field). */
export type CsvCell = string | number | null | undefined;

/** Most rows an export writes; past it the file ends with {@link cappedNote} and says to narrow the filters. */
export const EXPORT_ROW_CAP = 100_000;

/**
 * `rows` as CSV records, each ending with CRLF, quoted and guarded as the module doc says. Empty input → ''.
 * Cells that are null/undefined are empty fields; numbers are written with `String(n)` (no locale).
 */
export function csvRecords(rows: readonly (readonly CsvCell[])[]): string {
  if (rows.length === 0) return '';
  return stringify(
    rows.map((r) => r.map((c) => (c === null || c === undefined ? '' : c))),
    // `quote_record_delimiter` must be said: with an explicit `record_delimiter` csv-stringify 6.9 otherwise quotes
    // only fields holding the whole CRLF, and a note with a bare LF would break its record in two.
    { record_delimiter: '\r\n', quote_record_delimiter: true, eof: true, escape_formulas: true },
  );
}

/** The start of an export file: the BOM and the heading record. */
export function csvStart(headings: readonly string[]): string {
  return CSV_BOM + csvRecords([headings]);
}

/**
 * The last record of an export that stopped at `cap` rows: one cell saying so, so a reader of the file (not
 * only of the page) knows it is incomplete. Starts with a letter, so the injection guard leaves it as is.
 */
export function cappedNote(cap: number, what: string): string {
  return csvRecords([[`Export stopped at ${cap} ${what}: there are more. Narrow the filters (a shorter date range) and export again.`]]);
}

/** `d` as UTC ISO 8601 to the second (`2026-12-01T08:30:05Z`); '' for null. Milliseconds are dropped (a spreadsheet would not parse them). */
export function utcCell(d: Date | null | undefined): string {
  if (!d) return '';
  return DateTime.fromJSDate(d, { zone: 'UTC' }).toFormat("yyyy-LL-dd'T'HH:mm:ss'Z'");
}

/**
 * `d` as wall-clock time in IANA `zone`, `2026-12-01 09:30:05` (a form spreadsheets read as a date-time in any
 * locale); '' for null; `invalid zone` when `zone` is not one luxon knows.
 */
export function localCell(d: Date | null | undefined, zone: string): string {
  if (!d) return '';
  const dt = DateTime.fromJSDate(d).setZone(zone);
  return dt.isValid ? dt.toFormat('yyyy-LL-dd HH:mm:ss') : 'invalid zone';
}

/** The two headings of an instant column pair: `<label> (UTC)` and `<label> (<zone>)`. */
export function instantHeadings(label: string, zone: string): [string, string] {
  return [`${label} (UTC)`, `${label} (${zone})`];
}

/** The two cells of an instant: UTC ISO 8601 and local wall-clock time in `zone` (see {@link instantHeadings}). */
export function instantCells(d: Date | null | undefined, zone: string): [string, string] {
  return [utcCell(d), localCell(d, zone)];
}

/**
 * A download's file name: `<org slug>-<what>[-<subject>]-<yyyy-mm-dd>.csv`, the date being `now`'s calendar day
 * in `zone`. `subject` (an event title) is reduced to ASCII letters, digits and single hyphens, at most 40
 * characters; dropped when nothing is left. domain/platform/content-disposition.ts makes the header of it.
 */
export function exportFileName(orgSlug: string, what: string, now: Date, zone: string, subject?: string): string {
  const day = DateTime.fromJSDate(now).setZone(zone);
  const date = (day.isValid ? day : DateTime.fromJSDate(now, { zone: 'UTC' })).toFormat('yyyy-LL-dd');
  const slug = (subject ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return [orgSlug, what, ...(slug ? [slug] : []), date].join('-') + '.csv';
}

// What the guard may have prefixed and is plainly not a formula: a phone number (digits with the usual separators,
// an optional leading + or -, at least five digits) or a date or date-time as the exports write them.
const GUARDED_PHONE = /^'[+\-\uFF0B\uFF0D]?[\d\s().\-/]+$/;
const GUARDED_DATE = /^'[+\-]?\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * The reverse of the export's CSV-injection guard, for an importer reading a file Punctual (or a spreadsheet saving
 * it again) wrote: `'+31612345678` → `+31612345678`. Only a cell that is plainly a phone number (at least five
 * digits) or a date keeps its value without the apostrophe; anything else — `'=HYPERLINK(…)`, `'-2+3` — stays as
 * it is, so a formula the guard neutralised is never armed again. Pure.
 */
export function unguardCsvCell(value: string): string {
  if (!value.startsWith("'")) return value;
  if (GUARDED_PHONE.test(value) && (value.match(/\d/g) ?? []).length >= 5) return value.slice(1);
  if (GUARDED_DATE.test(value)) return value.slice(1);
  return value;
}
