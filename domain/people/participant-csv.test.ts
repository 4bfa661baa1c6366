import { describe, expect, it } from 'vitest';
import { unguardCsvCell } from './csv-export';
import {
  MAX_IMPORT_ROWS,
  PARTICIPANT_CSV_TEMPLATE,
  checkRowValues,
  csvDigest,
  detectDelimiter,
  importLocale,
  previewParticipantCsv,
  readParticipantCsv,
  type CsvField,
  type ImportContext,
} from './participant-csv';

const none: ImportContext = { booked: new Set(), known: new Map() };

function read(text: string) {
  const r = readParticipantCsv(text);
  if (!r.ok) throw new Error(`expected a readable file, got: ${r.error}`);
  return r;
}
function error(text: string): string {
  const r = readParticipantCsv(text);
  if (r.ok) throw new Error('expected an error for the file');
  return r.error;
}
const values = (v: Partial<Record<CsvField, string>>) => ({ name: '', email: '', phone: '', role: '', timeZone: '', locale: '', ...v });

describe('readParticipantCsv — the file', () => {
  it('reads a comma file with every column, normalising the values (E.164, canonical tag, role)', () => {
    const r = read('name,email,phone,role,time zone,locale\nZoë Nowak,zoe@example.com,+48 601 234 567,Host,Europe/Warsaw,EN-gb\n');
    expect(r.delimiter).toBe(',');
    expect(r.ignored).toEqual([]);
    expect(r.rows).toEqual([
      {
        row: 2,
        line: 2,
        values: { name: 'Zoë Nowak', email: 'zoe@example.com', phone: '+48 601 234 567', role: 'Host', timeZone: 'Europe/Warsaw', locale: 'EN-gb' },
        problems: [],
        person: { role: 'host', contact: { email: 'zoe@example.com', name: 'Zoë Nowak', phone: '+48601234567', timeZone: 'Europe/Warsaw', locale: 'en-GB' } },
      },
    ]);
  });

  it('detects ";" (European spreadsheets) and tab from the header line; commas inside values do not fool it', () => {
    expect(detectDelimiter('name;email;role\na,b;c;d')).toBe(';');
    expect(detectDelimiter('"Name, full";email;role\n')).toBe(';');
    expect(detectDelimiter('name\temail\n')).toBe('\t');
    expect(detectDelimiter('email\n')).toBe(',');
    expect(detectDelimiter('\uFEFF\n\nname,email\n')).toBe(',');
    const r = read('Name;E-mail;Time zone\r\n"Nowak, Zoë";zoe@example.com;Europe/Warsaw\r\n');
    expect(r.delimiter).toBe(';');
    expect(r.rows[0]!.values).toMatchObject({ name: 'Nowak, Zoë', email: 'zoe@example.com', timeZone: 'Europe/Warsaw' });
    expect(read('name\temail\nAnn\tann@example.com\n').rows[0]!.person?.contact).toEqual({ email: 'ann@example.com', name: 'Ann' });
  });

  it('accepts a UTF-8 byte-order mark; accents survive (Zoë, Łódź)', () => {
    const r = read('\uFEFFname,email,time zone\nZoë Łódź-Wąsik,zoe@example.com,Europe/Warsaw\n');
    expect(r.columns.map((c) => c.field)).toEqual(['name', 'email', 'timeZone']);
    expect(r.rows[0]!.person?.contact.name).toBe('Zoë Łódź-Wąsik');
  });

  it('CRLF, LF, CR and a mix; quoted fields with delimiters, quotes and line breaks', () => {
    for (const eol of ['\r\n', '\n', '\r']) {
      const r = read(`name,email${eol}"Doe, ""JD"" Jane",jd@example.com${eol}Bo,bo@example.com`);
      expect(r.rows.map((x) => [x.row, x.line, x.values.name])).toEqual([
        [2, 2, 'Doe, "JD" Jane'],
        [3, 3, 'Bo'],
      ]);
    }
    const mixed = read('name,email\r\nA,a@example.com\nB,b@example.com\rC,c@example.com\r\n');
    expect(mixed.rows.map((x) => [x.values.email, x.line])).toEqual([
      ['a@example.com', 2],
      ['b@example.com', 3],
      ['c@example.com', 4],
    ]);
  });

  it('numbers rows as a spreadsheet does (header = row 1, an empty line is a row, a value over lines is not) and gives the file line each starts on', () => {
    const r = read('name,email,notes\r\nAnn,ann@example.com,"one\r\ntwo\r\nthree"\r\n\r\n,,\r\nBo,bo@example.com,\n"Cy\nCyrus",cy@example.com,x\nDee,dee@example.com,');
    expect(r.rows.map((x) => [x.row, x.line, x.values.email])).toEqual([
      [2, 2, 'ann@example.com'], // lines 2–4: one row
      [5, 7, 'bo@example.com'], // row 3 empty, row 4 all-empty fields: not participants
      [6, 8, 'cy@example.com'],
      [7, 10, 'dee@example.com'], // Cy's name takes lines 8–9
    ]);
    // A name over two lines is refused by the form's own rule.
    expect(r.rows[2]!.problems.map((p) => p.kind)).toEqual(['bad_name']);
    expect(r.ignored).toEqual(['notes']);
  });

  it('matches headers case-insensitively with aliases and lists unknown columns as ignored', () => {
    const r = read('Full Name;E-Mail;Mobile number;ROLE;TZ;Language;Company;;Notes\nAnn;ann@example.com;;;;de;ACME;;x\n');
    expect(r.columns).toEqual([
      { field: 'name', header: 'Full Name' },
      { field: 'email', header: 'E-Mail' },
      { field: 'phone', header: 'Mobile number' },
      { field: 'role', header: 'ROLE' },
      { field: 'timeZone', header: 'TZ' },
      { field: 'locale', header: 'Language' },
    ]);
    expect(r.ignored).toEqual(['Company', 'Notes']);
    for (const h of ['email', 'Email', 'e-mail', 'E_mail', 'Email address', 'mail']) expect(read(`${h}\nann@example.com`).columns).toEqual([{ field: 'email', header: h }]);
    for (const h of ['Time zone', 'timezone', 'time_zone', 'tz', 'Zone']) expect(read(`email,${h}\na@example.com,UTC`).rows[0]!.person?.contact.timeZone).toBe('UTC');
    for (const h of ['locale', 'Language', 'lang']) expect(read(`email,${h}\na@example.com,fr`).rows[0]!.person?.contact.locale).toBe('fr');
  });

  it('a file without an email column is ONE clear error naming what it found', () => {
    expect(error('name,phone\nAnn,+31612345678\n')).toBe('The file has no email column. The first line must name the columns, e.g. "name,email,phone,role,time zone,locale"; it names "name", "phone".');
    expect(error('ann@example.com,Ann\nbo@example.com,Bo\n')).toMatch(/^The file has no email column/);
  });

  it('refuses files that cannot be imported as a whole, each in words', () => {
    expect(error('')).toMatch(/^The file is empty/);
    expect(error('\uFEFF  \r\n')).toMatch(/^The file is empty/);
    expect(error('name,email\n')).toBe('The file has a header line but no participants.');
    expect(error('name,email\nZo\uFFFD,z@example.com\n')).toBe('The file is not UTF-8 text (line 2 has a character that could not be read). Save it as "CSV UTF-8" and choose it again.');
    expect(error('email,E-mail\na@example.com,a@example.com')).toBe('Two columns mean email: "email" and "E-mail". Keep one of them.');
    expect(error('name,email\n"Ann,ann@example.com\nBo,bo@example.com\n')).toBe('The file has a quote (") that is never closed: look for a value that starts with a quote and check that it ends with one.');
    expect(error('name,email\nA\u0000,a@example.com')).toMatch(/NUL/);
  });

  it(`caps a file at ${MAX_IMPORT_ROWS} participants and says so`, () => {
    const lines = (n: number) => ['email', ...Array.from({ length: n }, (_, i) => `p${i}@example.com`)].join('\n');
    expect(read(lines(MAX_IMPORT_ROWS)).rows).toHaveLength(MAX_IMPORT_ROWS);
    expect(error(lines(MAX_IMPORT_ROWS + 1))).toBe('The file lists 5,001 participants; at most 5,000 can be imported at once. Split it into smaller files.');
  });

  it('a row with more fields than the header (an unquoted comma) is a problem of that row; fewer fields are empty values', () => {
    const r = read('name,email\nDoe, Jane,jane@example.com\nBo\nCy,cy@example.com,\n');
    expect(r.rows.map((x) => x.problems.map((p) => p.kind))).toEqual([['extra_fields', 'bad_address'], ['missing_address'], []]);
    expect(r.rows[0]!.problems[0]!.message).toBe('has 3 fields but the header has 2 — a value holding "," must be in double quotes');
  });

  it('the template file reads back as one participant without problems', () => {
    const r = read(PARTICIPANT_CSV_TEMPLATE);
    expect(r.ignored).toEqual([]);
    expect(r.columns.map((c) => c.field)).toEqual(['name', 'email', 'phone', 'role', 'timeZone', 'locale']);
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]!.problems).toEqual([]);
  });
});

describe('checkRowValues — one row, the add-participant form’s rules', () => {
  it('bad or missing address', () => {
    expect(checkRowValues(values({ email: 'jane.example.com' })).problems).toEqual([{ kind: 'bad_address', field: 'email', message: 'email "jane.example.com": must be an email address' }]);
    expect(checkRowValues(values({ email: `${'a'.repeat(250)}@x.io` })).problems[0]).toMatchObject({ kind: 'bad_address' });
    expect(checkRowValues(values({ name: 'Ann' })).problems).toEqual([{ kind: 'missing_address', field: 'email', message: 'email: missing (every participant needs an email address)' }]);
  });

  it('a text-direction control in the name is a bad_name problem of the name column, quoted with the control made visible', () => {
    expect(checkRowValues(values({ email: 'a@example.com', name: 'Eve \u202elive' })).problems).toEqual([
      {
        kind: 'bad_name',
        field: 'name',
        message: 'name "Eve <U+202E>live": must not contain U+202E RIGHT-TO-LEFT OVERRIDE (text-direction controls U+202A–U+202E and U+2066–U+2069 can make text show in another order than it was typed)',
      },
    ]);
    expect(checkRowValues(values({ email: 'a@example.com', name: 'נועה כהן\u200f' })).person?.contact.name).toBe('נועה כהן\u200f');
  });

  it('unknown zone, with a suggestion when one is clear', () => {
    expect(checkRowValues(values({ email: 'a@example.com', timeZone: 'Mars/Olympus' })).problems).toEqual([
      { kind: 'unknown_zone', field: 'timeZone', message: 'time zone "Mars/Olympus": not a time zone — use a tz database name such as Europe/Amsterdam' },
    ]);
    expect(checkRowValues(values({ email: 'a@example.com', timeZone: 'europe/warsaw' })).problems[0]!.message).toContain('(did you mean Europe/Warsaw?)');
    expect(checkRowValues(values({ email: 'a@example.com', timeZone: 'AET' })).problems[0]!.kind).toBe('unknown_zone'); // ICU-only id
    expect(checkRowValues(values({ email: 'a@example.com', timeZone: 'Europe/Kiev' })).person?.contact.timeZone).toBe('Europe/Kiev'); // old name, stored as given
  });

  it('bad phone (domain/phone.ts), stored as E.164 when good', () => {
    const p = checkRowValues(values({ email: 'a@example.com', phone: '06 1234' })).problems;
    expect(p).toHaveLength(1);
    expect(p[0]).toMatchObject({ kind: 'bad_phone', field: 'phone' });
    expect(p[0]!.message).toMatch(/^phone: .*must be a phone number in international form/);
    expect(checkRowValues(values({ email: 'a@example.com', phone: '+31 (0)6-1234 5678' })).person?.contact.phone).toBe('+31612345678');
  });

  it('role: attendee or host in any case, empty = attendee; external and others are problems', () => {
    expect(checkRowValues(values({ email: 'a@example.com' })).person?.role).toBe('attendee');
    expect(checkRowValues(values({ email: 'a@example.com', role: 'HOST' })).person?.role).toBe('host');
    expect(checkRowValues(values({ email: 'a@example.com', role: 'speaker' })).problems).toEqual([
      { kind: 'unknown_role', field: 'role', message: 'role "speaker": not a role — use attendee or host (empty means attendee)' },
    ]);
    expect(checkRowValues(values({ email: 'a@example.com', role: 'external' })).problems[0]!.message).toMatch(/needs their own organisation/);
  });

  it('unknown locale: malformed or a language nobody can name; a language name suggests its tag', () => {
    expect(importLocale('pt-br')).toBe('pt-BR');
    expect(importLocale('de')).toBe('de');
    expect(importLocale('german')).toBeNull();
    expect(importLocale('xx')).toBeNull();
    expect(importLocale('en_US')).toBeNull();
    expect(checkRowValues(values({ email: 'a@example.com', locale: 'German' })).problems).toEqual([
      { kind: 'unknown_locale', field: 'locale', message: 'locale "German": not a language tag we know — use one such as en, de or pt-BR (did you mean de?)' },
    ]);
    expect(checkRowValues(values({ email: 'a@example.com', locale: 'Deutsch' })).problems[0]!.message).toContain('(did you mean de?)');
  });

  it('name: optional (a new person without one shows by address), but no line breaks and at most 200 characters', () => {
    expect(checkRowValues(values({ email: 'a@example.com' })).person?.contact).toEqual({ email: 'a@example.com' });
    expect(checkRowValues(values({ email: 'a@example.com', name: 'x'.repeat(201) })).problems[0]).toMatchObject({ kind: 'bad_name', field: 'name' });
  });

  it('several problems of one row are all listed, in column order', () => {
    expect(checkRowValues(values({ email: 'nope', phone: 'abc', role: 'boss', timeZone: 'Nowhere', locale: '??' })).problems.map((p) => p.kind)).toEqual([
      'bad_address',
      'bad_phone',
      'unknown_role',
      'unknown_zone',
      'unknown_locale',
    ]);
  });
});

describe('previewParticipantCsv — across rows and against the tenant', () => {
  it('a duplicate address (any case) is a problem of the later row, naming both rows', () => {
    const r = read('email\nann@example.com\nbo@example.com\nANN@Example.com\n');
    const p = previewParticipantCsv(r.rows, none);
    expect(p.rows.map((x) => x.problems.map((q) => q.kind))).toEqual([[], [], ['duplicate']]);
    expect(p.rows[2]!.problems[0]!.message).toBe('email "ANN@Example.com": the same address as row 2 — row 2 and row 4 are one person; keep one of them');
    expect([p.ready, p.withProblems, p.people.length]).toEqual([2, 1, 0]);
  });

  it('a person already booked on the event is a problem', () => {
    const r = read('email\nann@example.com\nBo@example.com\n');
    const p = previewParticipantCsv(r.rows, { booked: new Set(['bo@example.com']), known: new Map() });
    expect(p.rows[1]!.problems).toEqual([{ kind: 'already_booked', field: 'email', message: 'email "Bo@example.com": already booked on this event' }]);
  });

  it('no problem → every person, in file order; known contacts are counted and what they keep is listed', () => {
    const r = read('name,email,time zone\nAnn,ann@example.com,Europe/Berlin\nBo,bo@example.com,\nCy,CY@example.com,Asia/Tokyo\n');
    const known = new Map([
      ['bo@example.com', { name: 'Bo', locale: 'en', timeZone: null, phone: null }],
      ['cy@example.com', { name: 'Cyrus', locale: 'en', timeZone: 'Asia/Tokyo', phone: null }],
    ]);
    const p = previewParticipantCsv(r.rows, { booked: new Set(), known });
    expect([p.ready, p.withProblems, p.known, p.keptDiffering]).toEqual([3, 0, 2, 1]);
    expect(p.rows.map((x) => [x.known, x.kept])).toEqual([
      [false, []],
      [true, []],
      [true, [{ field: 'name', kept: 'Cyrus', given: 'Cy' }]],
    ]);
    expect(p.people.map((x) => x.contact.email)).toEqual(['ann@example.com', 'bo@example.com', 'CY@example.com']);
  });

  it('bad rows are named by their spreadsheet row among 500 participants: participant 17 is row 18 (the header is row 1)', () => {
    const lines = ['name,email,time zone'];
    for (let i = 1; i <= 500; i++) {
      if (i === 17) lines.push(`P${i},p${i}.example.com,Europe/Paris`);
      else if (i === 204) lines.push(`P${i},p${i}@example.com,Europe/Atlantis`);
      else if (i === 499) lines.push(`P${i},P12@example.com,Europe/Paris`);
      else lines.push(`P${i},p${i}@example.com,Europe/Paris`);
    }
    const p = previewParticipantCsv(read(lines.join('\r\n')).rows, none);
    expect(p.rows.filter((x) => x.problems.length).map((x) => [x.row, x.problems.map((q) => q.kind)])).toEqual([
      [18, ['bad_address']],
      [205, ['unknown_zone']],
      [500, ['duplicate']],
    ]);
    expect([p.ready, p.withProblems]).toEqual([497, 3]);
  });
});

describe('what Punctual exports, Punctual imports', () => {
  it('the participants export’s headings and guarded cells read back: phone without the guard’s apostrophe, zone from “Their time zone”', () => {
    const file =
      '\uFEFFName,Email,Phone,Role,Booking status,Status reason,Their time zone,Locale,Guest of organisation,Booked at (UTC),Booked at (Europe/Amsterdam),Booking id\r\n' +
      "Zoë Nowak,zoe@example.com,'+48601234567,host,confirmed,,Europe/Warsaw,pl,,2026-12-01T08:30:00Z,2026-12-01 09:30:00,b1\r\n";
    const r = read(file);
    expect(r.columns.map((c) => [c.field, c.header])).toEqual([
      ['name', 'Name'],
      ['email', 'Email'],
      ['phone', 'Phone'],
      ['role', 'Role'],
      ['timeZone', 'Their time zone'],
      ['locale', 'Locale'],
    ]);
    expect(r.rows[0]!.problems).toEqual([]);
    expect(r.rows[0]!.person).toEqual({ role: 'host', contact: { email: 'zoe@example.com', name: 'Zoë Nowak', phone: '+48601234567', timeZone: 'Europe/Warsaw', locale: 'pl' } });
    expect(r.ignored).toEqual(['Status reason', 'Guest of organisation', 'Booked at (UTC)', 'Booked at (Europe/Amsterdam)', 'Booking id']);
  });
  it('an export’s cancelled bookings are left out, not booked again: listed by row, and their address is no duplicate of a live row', () => {
    const file =
      'Name,Email,Booking status\r\n' +
      'Ana,ana@example.com,confirmed\r\n' +
      'Ben,ben@example.com,cancelled\r\n' +
      'Ana again,ana@example.com,Cancelled\r\n' +
      'Cas,cas@example.com,\r\n';
    const r = read(file);
    expect(r.rows.map((x) => [x.row, !!x.cancelled])).toEqual([
      [2, false],
      [3, true],
      [4, true],
      [5, false],
    ]);
    const p = previewParticipantCsv(r.rows, { booked: new Set(), known: new Map() });
    expect(p.cancelledRows).toEqual([3, 4]);
    expect([p.ready, p.withProblems]).toEqual([2, 0]);
    expect(p.people.map((x) => x.contact.email)).toEqual(['ana@example.com', 'cas@example.com']);
    // Another value is a problem of its row (not guessed either way); two status columns refuse the file; a plain
    // "Status" column may mean anything and is ignored.
    const odd = read('Name,Email,Booking status\r\nA,a@example.com,void\r\nB,b@example.com, CANCELED \r\nC,c@example.com,=cancelled\r\n');
    expect(odd.rows.map((x) => [x.row, !!x.cancelled, x.problems.map((q) => q.kind)])).toEqual([
      [2, false, ['unknown_status']],
      [3, true, []],
      [4, false, ['unknown_status']],
    ]);
    expect(odd.rows[0]!.problems[0]!.message).toBe('booking status "void": not a booking status — use confirmed, cancelled (left out) or leave it empty');
    expect(readParticipantCsv('Name,Email,Booking status,booking_status\r\nA,a@example.com,confirmed,cancelled\r\n')).toEqual({
      ok: false,
      error: 'Two columns mean booking status: "Booking status" and "booking_status". Keep one of them.',
    });
    const plain = read('Name,Email,Status\r\nA,a@example.com,cancelled\r\n');
    expect([plain.ignored, !!plain.rows[0]!.cancelled]).toEqual([['Status'], false]);
    // Without a status column nothing is left out.
    expect(previewParticipantCsv(read('email\r\nben@example.com\r\n').rows, { booked: new Set(), known: new Map() }).cancelledRows).toEqual([]);
  });
  it('a neutralised formula keeps its apostrophe (and is refused as a phone), only phone numbers and dates lose it', () => {
    expect(unguardCsvCell("'+31 6 1234 5678")).toBe('+31 6 1234 5678');
    expect(unguardCsvCell("'2026-12-01T08:30:00Z")).toBe('2026-12-01T08:30:00Z');
    expect(unguardCsvCell("'=HYPERLINK(\"http://x\")")).toBe("'=HYPERLINK(\"http://x\")");
    expect(unguardCsvCell("'-2+3")).toBe("'-2+3");
    expect(unguardCsvCell("'+1")).toBe("'+1");
    expect(unguardCsvCell("O'Brien")).toBe("O'Brien");
    const r = read("name,email,phone\nAnn,ann@example.com,'=1+2\n");
    expect(r.rows[0]!.problems.map((p) => p.kind)).toEqual(['bad_phone']);
  });
});

describe('csvDigest', () => {
  it('is the SHA-256 of the UTF-8 text', () => {
    expect(csvDigest('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(csvDigest('Zoë')).not.toBe(csvDigest('Zoe'));
  });
});
