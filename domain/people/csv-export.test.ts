import { describe, expect, it } from 'vitest';
import { CSV_BOM, cappedNote, csvRecords, csvStart, exportFileName, instantCells, instantHeadings, localCell, utcCell } from './csv-export';

describe('csv-export', () => {
  it('starts with the BOM and the heading record, CRLF-terminated', () => {
    const s = csvStart(['Name', 'Email']);
    expect(s.charCodeAt(0)).toBe(0xfeff);
    expect(s).toBe(`${CSV_BOM}Name,Email\r\n`);
    expect(Buffer.from(s, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it('quotes fields holding commas, quotes, CR or LF (RFC 4180), and leaves plain ones bare', () => {
    expect(csvRecords([['Zoë', 'Łódź', 'plain']])).toBe('Zoë,Łódź,plain\r\n');
    expect(csvRecords([['a,b', 'say "hi"', 'line 1\nline 2', 'cr\rhere', 'crlf\r\nx']])).toBe('"a,b","say ""hi""","line 1\nline 2","cr\rhere","crlf\r\nx"\r\n');
    expect(csvRecords([['x'], ['y']])).toBe('x\r\ny\r\n');
    expect(csvRecords([])).toBe('');
  });

  it('writes null/undefined as empty fields and numbers without locale formatting', () => {
    expect(csvRecords([[null, undefined, 1234.5, 0, 100000, '']])).toBe(',,1234.5,0,100000,\r\n');
  });

  it('guards against CSV injection: = + - @ TAB CR (and full-width forms) get a leading apostrophe', () => {
    const cells = ['=HYPERLINK("http://x")', '+31612345678', '-2+3', '@SUM(A1)', '\tx', '\rx', '\uFF1D1+1', 'a=b', ' =x'];
    const out = csvRecords([cells]);
    expect(out).toBe(`"'=HYPERLINK(""http://x"")",'+31612345678,'-2+3,'@SUM(A1),'\tx,"'\rx",'\uFF1D1+1,a=b, =x\r\n`);
    // a number is a number, not a formula
    expect(csvRecords([[-5]])).toBe('-5\r\n');
  });

  it('an instant is two cells: UTC ISO 8601 and wall-clock time in the named zone (DST-correct)', () => {
    const summer = new Date('2027-06-15T08:00:00.123Z');
    const winter = new Date('2026-12-01T08:00:00Z');
    expect(instantCells(summer, 'Europe/Amsterdam')).toEqual(['2027-06-15T08:00:00Z', '2027-06-15 10:00:00']);
    expect(instantCells(winter, 'Europe/Amsterdam')).toEqual(['2026-12-01T08:00:00Z', '2026-12-01 09:00:00']);
    expect(instantHeadings('Booked at', 'Europe/Amsterdam')).toEqual(['Booked at (UTC)', 'Booked at (Europe/Amsterdam)']);
    expect(utcCell(null)).toBe('');
    expect(localCell(undefined, 'UTC')).toBe('');
    expect(localCell(winter, 'Not/AZone')).toBe('invalid zone');
  });

  it('says so in a last record when capped (not guarded away: it starts with a letter)', () => {
    expect(cappedNote(100000, 'rows')).toBe('Export stopped at 100000 rows: there are more. Narrow the filters (a shorter date range) and export again.\r\n');
  });

  it('file names carry the org slug, what, an ASCII subject and the local date', () => {
    const now = new Date('2026-12-01T23:30:00Z');
    expect(exportFileName('demo', 'audit', now, 'UTC')).toBe('demo-audit-2026-12-01.csv');
    expect(exportFileName('demo', 'audit', now, 'Europe/Amsterdam')).toBe('demo-audit-2026-12-02.csv');
    expect(exportFileName('demo', 'participants', now, 'UTC', 'Zoë’s workshop in Łódź!')).toBe('demo-participants-zoe-s-workshop-in-lodz-2026-12-01.csv');
    expect(exportFileName('demo', 'participants', now, 'UTC', '日本語')).toBe('demo-participants-2026-12-01.csv');
  });
});
