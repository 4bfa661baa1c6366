/**
 * Participants from a CSV file (issue #13 "import participants for an event from CSV"): the file read into rows,
 * each row checked, and the preview staff see before anything is written. Pure: no I/O, no clock.
 *
 * The file ({@link readParticipantCsv}, csv-parse's sync API):
 * - UTF-8, with or without a byte-order mark; a file that was not UTF-8 (U+FFFD after decoding) is refused with
 *   a hint to save it as "CSV UTF-8";
 * - delimiter `,`, `;` (European spreadsheets) or tab, detected from the header line (the one of them that
 *   occurs most there outside quotes; a header of one column is comma-separated);
 * - CRLF, LF or CR line ends (mixed too); quoted fields may hold delimiters, quotes (`""`) and line breaks;
 * - the header is the first non-empty line; its names are matched without regard to case, spaces, `-` or `_`,
 *   with a few aliases ({@link HEADER_ALIASES}: "E-mail", "Time zone"/"timezone"/"tz", "Language"/"locale" …);
 *   an email column is required (else ONE error for the file); other unknown columns are listed as ignored;
 * - empty lines and rows whose fields are all empty are skipped (they are not participants);
 * - at most {@link MAX_IMPORT_ROWS} participants (more → one error for the file, saying so).
 *
 * Numbering: "row N" is the row number a spreadsheet shows for it (the header is row 1; an empty line is a row of
 * its own there, a value over several lines is not); `line` is the file line the row starts on (1-based), which
 * the preview shows when it differs from the row (after a value over several lines).
 *
 * Punctual's own exports read back unchanged (server/people/csv-exports.ts): their headings are aliases here ("Their
 * time zone", "Locale"), a row whose "Booking status" is `cancelled` is left out — a cancelled booking in an export
 * is not someone to book again ({@link ImportPreview} `cancelledRows`); another value than confirmed, cancelled or
 * empty is a problem of its row; two such columns refuse the file —, their other columns (booked at, ids, a plain
 * "Status") are listed as ignored, and the
 * CSV-injection guard's leading apostrophe (domain/people/csv-export.ts) is removed again from a cell that is
 * plainly a phone number or a date ({@link unguardCsvCell}).
 *
 * The checks of one row are the add-participant form's (domain/scheduling/booking-form.ts `bookingFormSchema`: address,
 * name — which refuses text-direction controls, domain/text.ts, as a `bad_name` problem of the name column —, mobile number), plus: a role of the booking vocabulary (empty → attendee; `external` cannot be imported:
 * a guest needs their own organisation), a tz database zone (domain/zones.ts, with a suggestion), and a known
 * language tag (domain/locales.ts canonical form, a language the runtime can name). Across rows
 * ({@link previewParticipantCsv}): the same address twice in the file (the later row names the earlier), and a
 * person already booked on the event (the caller's lookup).
 */
import { createHash } from 'node:crypto';
import { CsvError, parse } from 'csv-parse/sync';
import { bookingFormSchema } from '@/domain/scheduling/booking-form';
import { keptDetails, type ContactDetails, type KeptDetail } from '@/domain/scheduling/contact-kept';
import { canonicalLocale } from '@/domain/locales';
import { bookingRoles } from '@/domain/vocabulary';
import { showBidiControls } from '@/domain/text';
import { isValidZone, suggestZone } from '@/domain/zones';
import { unguardCsvCell } from './csv-export';

/** Most participants one file may hold (one transaction books them all; a larger list is split by the user). */
export const MAX_IMPORT_ROWS = 5_000;

/** The columns an import understands, in the template's order. */
const csvFields = ['name', 'email', 'phone', 'role', 'timeZone', 'locale'] as const;
export type CsvField = (typeof csvFields)[number];

/** The header each field has in the template file. */
const templateHeaders: Record<CsvField, string> = { name: 'name', email: 'email', phone: 'phone', role: 'role', timeZone: 'time zone', locale: 'locale' };

/**
 * Header names per field, compared after lower-casing and removing spaces, `-`, `_` and `.` ("E-mail",
 * "Time zone", "time_zone" and "TZ" all match).
 */
const HEADER_ALIASES: Record<CsvField, readonly string[]> = {
  name: ['name', 'fullname', 'participant', 'participantname', 'contactname', 'displayname'],
  email: ['email', 'emailaddress', 'mail', 'mailaddress'],
  phone: ['phone', 'phonenumber', 'mobile', 'mobilenumber', 'mobilephone', 'cell', 'cellphone', 'sms', 'tel', 'telephone'],
  role: ['role', 'bookingrole'],
  timeZone: ['timezone', 'tz', 'zone', 'iana', 'ianazone', 'ianatimezone', 'theirtimezone', 'participanttimezone'],
  locale: ['locale', 'language', 'lang', 'languagetag', 'messagelanguage'],
};

/** The template file: the header row and one example participant (CRLF, as spreadsheets write it). */
export const PARTICIPANT_CSV_TEMPLATE = `${csvFields.map((f) => templateHeaders[f]).join(',')}\r\nZoë Nowak,zoe.nowak@example.com,+48 601 234 567,attendee,Europe/Warsaw,pl\r\n`;

/** What is wrong with a row (one row may have several). */
type RowProblemKind =
  | 'missing_address'
  | 'bad_address'
  | 'bad_name'
  | 'bad_phone'
  | 'unknown_role'
  | 'unknown_zone'
  | 'unknown_locale'
  | 'extra_fields'
  | 'duplicate'
  | 'already_booked'
  | 'unknown_status';

export interface RowProblem {
  kind: RowProblemKind;
  /** The column at fault, or null for the row as a whole (extra fields). */
  field: CsvField | null;
  /** In words for staff, naming the value, e.g. `time zone "Mars/Olympus": not a time zone …`. */
  message: string;
}

/** One participant to book: `addBookingsBulk`'s input (server/scheduling/bookings.ts BulkBookingInput), values normalised. */
interface ImportPerson {
  role: 'attendee' | 'host';
  contact: { email: string; name?: string; phone?: string; timeZone?: string; locale?: string };
}

interface ParticipantCsvRow {
  /** The spreadsheet's row number (module doc: the header is row 1). */
  row: number;
  /** 1-based file line the row starts on. */
  line: number;
  /** The row's values as in the file (trimmed), '' for an empty or absent column. */
  values: Record<CsvField, string>;
  problems: RowProblem[];
  /** The participant, when the row's own values are all acceptable (cross-row checks may still add problems). */
  person: ImportPerson | null;
  /** True when the file's booking status column says `cancelled` (an export's cancelled booking): the row is left out. */
  cancelled?: boolean;
}

/**
 * The header (as {@link headerKey} reads it) of a booking status column: Punctual's export writes "Booking status". A
 * plain "Status" column is not read as one (it may mean anything in someone's spreadsheet) and is listed as ignored.
 */
const STATUS_HEADER = 'bookingstatus';
/** The booking statuses a status cell may hold (Punctual's own, as its export writes them); empty = not said. */
const BOOKING_STATUS_VALUES = ['confirmed', 'cancelled'] as const;

type CsvRead =
  | { ok: false; error: string }
  | {
      ok: true;
      delimiter: ',' | ';' | '\t';
      /** The columns used: field and the header as written in the file. */
      columns: { field: CsvField; header: string }[];
      /** Headers not understood (their values are ignored), as written. */
      ignored: string[];
      rows: ParticipantCsvRow[];
    };

/** SHA-256 of the text (its UTF-8 bytes), lower-case hex: the preview's digest that a commit must repeat. */
export function csvDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

const headerKey = (h: string) => h.toLowerCase().replace(/[\s\-_.]+/g, '');
const FIELD_OF = new Map<string, CsvField>(csvFields.flatMap((f) => HEADER_ALIASES[f].map((a) => [a, f] as const)));
const FIELD_LABEL: Record<CsvField, string> = { name: 'name', email: 'email', phone: 'phone', role: 'role', timeZone: 'time zone', locale: 'locale' };

/** The first non-empty line of `text` (no BOM), as far as its first line break outside quotes. */
function headerLine(text: string): string {
  let inQuotes = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (c === '\n' || c === '\r')) {
      if (text.slice(start, i).trim() !== '') return text.slice(start, i);
      start = i + 1;
    }
  }
  return text.slice(start);
}

/** `,`, `;` or tab: the one occurring most in the header line outside quotes (ties and none: comma). */
export function detectDelimiter(text: string): ',' | ';' | '\t' {
  const line = headerLine(text.replace(/^\uFEFF/, ''));
  const count = { ',': 0, ';': 0, '\t': 0 };
  let inQuotes = false;
  for (const c of line) {
    if (c === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (c === ',' || c === ';' || c === '\t')) count[c]++;
  }
  if (count[';'] > count[','] && count[';'] >= count['\t']) return ';';
  if (count['\t'] > count[','] && count['\t'] > count[';']) return '\t';
  return ',';
}

/**
 * The file line a record ends on, from csv-parse's `info.bytes` (UTF-8 bytes consumed up to and including the
 * record's line end). csv-parse's own `info.lines` counts a CRLF inside a quoted field twice, so lines are counted
 * here: CRLF, LF and CR are one line end each. Calls must come with non-decreasing offsets (one pass over the file).
 */
function endLines(text: string): (bytes: number) => number {
  const buf = Buffer.from(text, 'utf8');
  let at = 0;
  let line = 1;
  return (bytes) => {
    let end = bytes;
    // The record's own line end is consumed with it: not a line of the record.
    if (end > 0 && buf[end - 1] === 0x0a) end -= end > 1 && buf[end - 2] === 0x0d ? 2 : 1;
    else if (end > 0 && buf[end - 1] === 0x0d) end -= 1;
    for (; at < end; at++) {
      const c = buf[at];
      if (c === 0x0a || (c === 0x0d && buf[at + 1] !== 0x0a)) line++;
    }
    return line;
  };
}

const lineBreaks = (s: string) => (s.match(/\r\n|\r|\n/g) ?? []).length;
// Text-direction controls made visible, so a refused name cannot reorder the problem line that quotes it.
const shown = (v: string) => showBidiControls(JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v));
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/**
 * A language tag the import accepts, canonical (`EN-gb` → `en-GB`): well-formed (domain/locales.ts
 * canonicalLocale) and of a language the runtime can name (so "german" or "xx" are refused, not stored).
 */
export function importLocale(value: string): string | null {
  const tag = canonicalLocale(value);
  if (!tag) return null;
  try {
    return languageNames.of(new Intl.Locale(tag).language) ? tag : null;
  } catch {
    return null;
  }
}

/** A language's English name → its tag, for the "did you mean" of an unknown language ("German" → de). */
function languageSuggestion(value: string): string | null {
  const v = value.trim().toLowerCase();
  for (const code of ['en', 'de', 'fr', 'nl', 'es', 'it', 'pt', 'pl', 'uk', 'he', 'ar', 'ja', 'zh', 'da', 'sv', 'nb', 'fi', 'cs', 'hu', 'ro', 'el', 'tr', 'ru', 'ko']) {
    if (languageNames.of(code)?.toLowerCase() === v) return code;
    const own = new Intl.DisplayNames([code], { type: 'language', fallback: 'none' }).of(code);
    if (own?.toLowerCase() === v) return code;
  }
  return null;
}

const importRoles = bookingRoles.filter((r): r is 'attendee' | 'host' => r !== 'external');

/** The checks of one row's own values (module doc); `person` when there is no problem. */
export function checkRowValues(values: Record<CsvField, string>): { problems: RowProblem[]; person: ImportPerson | null } {
  const problems: RowProblem[] = [];
  const add = (kind: RowProblemKind, field: CsvField | null, message: string) => problems.push({ kind, field, message });
  const shape = bookingFormSchema.shape;
  const contact: ImportPerson['contact'] = { email: values.email };

  if (values.email === '') add('missing_address', 'email', 'email: missing (every participant needs an email address)');
  else {
    const r = shape.email.safeParse(values.email);
    if (!r.success) add('bad_address', 'email', `email ${shown(values.email)}: ${r.error.issues[0]?.message ?? 'must be an email address'}`);
  }
  if (values.name !== '') {
    const r = shape.name.safeParse(values.name);
    if (r.success) contact.name = r.data;
    else add('bad_name', 'name', `name ${shown(values.name)}: ${r.error.issues[0]?.message}`);
  }
  if (values.phone !== '') {
    const r = shape.phone.safeParse(values.phone);
    if (r.success && r.data) contact.phone = r.data;
    else add('bad_phone', 'phone', `phone: ${r.success ? 'not a phone number' : r.error.issues[0]?.message}`);
  }
  let role: ImportPerson['role'] = 'attendee';
  if (values.role !== '') {
    const v = values.role.toLowerCase();
    if (v === 'external') {
      add('unknown_role', 'role', 'role "external": an external guest needs their own organisation — add them on the event page instead');
    } else if ((importRoles as readonly string[]).includes(v)) role = v as ImportPerson['role'];
    else add('unknown_role', 'role', `role ${shown(values.role)}: not a role — use ${importRoles.join(' or ')} (empty means attendee)`);
  }
  if (values.timeZone !== '') {
    if (isValidZone(values.timeZone)) contact.timeZone = values.timeZone;
    else {
      const guess = suggestZone(values.timeZone);
      add('unknown_zone', 'timeZone', `time zone ${shown(values.timeZone)}: not a time zone — use a tz database name such as Europe/Amsterdam${guess ? ` (did you mean ${guess}?)` : ''}`);
    }
  }
  if (values.locale !== '') {
    const tag = importLocale(values.locale);
    if (tag) contact.locale = tag;
    else {
      const guess = languageSuggestion(values.locale);
      add('unknown_locale', 'locale', `locale ${shown(values.locale)}: not a language tag we know — use one such as en, de or pt-BR${guess ? ` (did you mean ${guess}?)` : ''}`);
    }
  }
  return { problems, person: problems.length === 0 ? { role, contact } : null };
}

/**
 * Reads a participants CSV (module doc for what is accepted) into rows with their own problems.
 * @returns `{ ok: false, error }` for a file that cannot be imported as a whole — empty, not UTF-8, no email
 *   column, two columns for one field, a quote never closed, more than {@link MAX_IMPORT_ROWS} participants —
 *   in words naming the line or column; else the rows (each with the problems of its own values).
 */
export function readParticipantCsv(input: string): CsvRead {
  const text = input.replace(/^\uFEFF/, '');
  if (text.trim() === '') return { ok: false, error: 'The file is empty: it needs a header line (name, email, …) and one line per participant.' };
  const bad = text.indexOf('\uFFFD');
  if (bad >= 0) {
    const line = lineBreaks(text.slice(0, bad)) + 1;
    return { ok: false, error: `The file is not UTF-8 text (line ${line} has a character that could not be read). Save it as "CSV UTF-8" and choose it again.` };
  }
  if (text.includes('\u0000')) return { ok: false, error: 'The file holds a NUL character: it is not a CSV text file.' };
  const delimiter = detectDelimiter(text);
  let records: { record: string[]; info: { bytes: number } }[];
  try {
    records = parse(text, {
      delimiter,
      bom: true,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      record_delimiter: ['\r\n', '\n', '\r'],
    }) as unknown as { record: string[]; info: { bytes: number } }[];
  } catch (e) {
    if (e instanceof CsvError) {
      const where = (e as CsvError & { lines?: number }).lines;
      if (e.code === 'CSV_QUOTE_NOT_CLOSED') return { ok: false, error: 'The file has a quote (") that is never closed: look for a value that starts with a quote and check that it ends with one.' };
      return { ok: false, error: `The file could not be read as CSV${where ? ` at line ${where}` : ''}: ${e.message}` };
    }
    throw e;
  }
  const [head, ...data] = records;
  if (!head) return { ok: false, error: 'The file is empty: it needs a header line (name, email, …) and one line per participant.' };

  const columns: { field: CsvField; header: string; index: number }[] = [];
  const ignored: string[] = [];
  const statusColumns: { header: string; index: number }[] = [];
  head.record.forEach((raw, index) => {
    const header = raw.trim();
    const field = FIELD_OF.get(headerKey(header));
    if (!field) {
      if (headerKey(header) === STATUS_HEADER) statusColumns.push({ header, index });
      else if (header !== '') ignored.push(header);
      return;
    }
    columns.push({ field, header, index });
  });
  for (const f of csvFields) {
    const twice = columns.filter((c) => c.field === f);
    if (twice.length > 1) return { ok: false, error: `Two columns mean ${FIELD_LABEL[f]}: ${twice.map((c) => `"${c.header}"`).join(' and ')}. Keep one of them.` };
  }
  if (statusColumns.length > 1) return { ok: false, error: `Two columns mean booking status: ${statusColumns.map((c) => `"${c.header}"`).join(' and ')}. Keep one of them.` };
  const statusIndex = statusColumns[0]?.index ?? -1;
  if (!columns.some((c) => c.field === 'email')) {
    const found = head.record.map((h) => h.trim()).filter(Boolean);
    return {
      ok: false,
      error: `The file has no email column. The first line must name the columns, e.g. "name,email,phone,role,time zone,locale"${found.length ? `; it names ${found.map((h) => `"${h.length > 30 ? `${h.slice(0, 30)}…` : h}"`).join(', ')}` : ''}.`,
    };
  }
  if (data.length > MAX_IMPORT_ROWS) {
    return { ok: false, error: `The file lists ${data.length.toLocaleString('en')} participants; at most ${MAX_IMPORT_ROWS.toLocaleString('en')} can be imported at once. Split it into smaller files.` };
  }
  if (data.length === 0) return { ok: false, error: 'The file has a header line but no participants.' };

  const width = head.record.length;
  const lineOfEnd = endLines(text);
  lineOfEnd(head.info.bytes);
  // Line breaks inside the values of the records so far: file lines that are no spreadsheet rows of their own.
  let innerBreaks = head.record.reduce((n, v) => n + lineBreaks(v), 0);
  const rows = data.map(({ record, info }): ParticipantCsvRow => {
    const values = Object.fromEntries(csvFields.map((f) => [f, ''])) as Record<CsvField, string>;
    for (const c of columns) values[c.field] = unguardCsvCell((record[c.index] ?? '').trim());
    const own = checkRowValues(values);
    // A row with more fields than the header usually has an unquoted comma in a value: its columns are shifted.
    const extra = record.slice(width).some((v) => v.trim() !== '');
    const problems = extra
      ? [{ kind: 'extra_fields' as const, field: null, message: `has ${record.length} fields but the header has ${width} — a value holding "${delimiter === '\t' ? 'tab' : delimiter}" must be in double quotes` }, ...own.problems]
      : [...own.problems];
    const rawStatus = statusIndex >= 0 ? (record[statusIndex] ?? '').trim() : '';
    const status = rawStatus.toLowerCase() === 'canceled' ? 'cancelled' : rawStatus.toLowerCase();
    // Anything but Punctual's own statuses is said, not guessed: "void" or "cancelled by organiser" could mean either.
    if (status !== '' && !(BOOKING_STATUS_VALUES as readonly string[]).includes(status)) {
      problems.push({ kind: 'unknown_status', field: null, message: `booking status ${shown(rawStatus)}: not a booking status — use confirmed, cancelled (left out) or leave it empty` });
    }
    const breaks = record.reduce((n, v) => n + lineBreaks(v), 0);
    const line = lineOfEnd(info.bytes) - breaks;
    const row = line - innerBreaks;
    innerBreaks += breaks;
    const cancelled = status === 'cancelled';
    return { row, line, values, problems, person: problems.length === 0 ? own.person : null, ...(cancelled ? { cancelled } : {}) };
  });
  return { ok: true, delimiter, columns: columns.map(({ field, header }) => ({ field, header })), ignored, rows };
}

/** What the tenant already has for the file's addresses (the caller's lookups, keyed by lower-cased address). */
export interface ImportContext {
  /** Addresses with a live booking on this event. */
  booked: ReadonlySet<string>;
  /** Stored details of addresses already in the tenant's contacts (a booking keeps them as they are). */
  known: ReadonlyMap<string, ContactDetails>;
}

/** A row of the preview: the row, plus what a known contact keeps (empty for a new person). */
type PreviewRow = ParticipantCsvRow & { known: boolean; kept: KeptDetail[] };

export interface ImportPreview {
  rows: PreviewRow[];
  /** Rows without problems (the participants that would be booked when `withProblems` is 0). */
  ready: number;
  /** Rows with at least one problem; any makes the import impossible (all or nothing). */
  withProblems: number;
  /** Ready rows whose address is already a contact: booked with their stored details, kept as they are. */
  known: number;
  /** Of those, how many the file gives other details for (the stored ones are kept: edit the participant). */
  keptDiffering: number;
  /** The participants to book, in file order — only when there is no problem (else empty). */
  people: ImportPerson[];
  /** Rows left out because the file marks their booking `cancelled` (spreadsheet row numbers); not in `rows`. */
  cancelledRows: number[];
}

/**
 * The preview of a read file against the tenant's state: rows the file marks cancelled are left out (listed in
 * `cancelledRows`, checked no further); to each other row it adds the cross-row problems — the same
 * address (case-insensitive) as an earlier row ("duplicate", naming both rows; the earlier row stays as it is)
 * and a person already booked on this event — and whether the address is a known contact and which of the
 * file's details differ from the stored ones (domain/scheduling/contact-kept.ts keptDetails: they are kept, not applied).
 */
export function previewParticipantCsv(allRows: readonly ParticipantCsvRow[], ctx: ImportContext): ImportPreview {
  const firstRow = new Map<string, number>();
  let known = 0;
  let keptDiffering = 0;
  const rows = allRows.filter((r) => !r.cancelled);
  const out = rows.map((r): PreviewRow => {
    const problems = [...r.problems];
    const key = r.values.email.toLowerCase();
    const addressOk = r.values.email !== '' && !problems.some((p) => p.kind === 'bad_address');
    if (addressOk) {
      const first = firstRow.get(key);
      if (first !== undefined) problems.push({ kind: 'duplicate', field: 'email', message: `email ${shown(r.values.email)}: the same address as row ${first} — row ${first} and row ${r.row} are one person; keep one of them` });
      else firstRow.set(key, r.row);
      if (ctx.booked.has(key)) problems.push({ kind: 'already_booked', field: 'email', message: `email ${shown(r.values.email)}: already booked on this event` });
    }
    const stored = addressOk ? ctx.known.get(key) : undefined;
    const kept = stored && r.person ? keptDetails(stored, r.person.contact) : [];
    const ok = problems.length === 0;
    if (ok && stored) {
      known++;
      if (kept.length > 0) keptDiffering++;
    }
    return { ...r, problems, person: ok ? r.person : null, known: !!stored, kept };
  });
  const withProblems = out.filter((r) => r.problems.length > 0).length;
  return {
    rows: out,
    ready: out.length - withProblems,
    withProblems,
    known,
    keptDiffering,
    people: withProblems === 0 ? out.map((r) => r.person!) : [],
    cancelledRows: allRows.filter((r) => r.cancelled).map((r) => r.row),
  };
}
