import { describe, expect, it } from 'vitest';
import { MAX_RETURN_PATH_LENGTH, safeReturnPath } from './safe-redirect';

/** Where a browser on the app would end up following `path` (the property the helper promises). */
function lands(path: string): string {
  return new URL(path, 'https://app.example/sign-in?next=x').origin;
}

describe('safeReturnPath', () => {
  it('keeps local paths with their query and fragment', () => {
    expect(safeReturnPath('/events')).toBe('/events');
    expect(safeReturnPath('/events/42?tab=mail&x=1#top')).toBe('/events/42?tab=mail&x=1#top');
    expect(safeReturnPath('/')).toBe('/');
    expect(safeReturnPath('/mailbox?channel=sms')).toBe('/mailbox?channel=sms');
  });

  it('normalises what it keeps the way the browser will (dot segments, spaces, non-ASCII)', () => {
    expect(safeReturnPath('/events/../attention')).toBe('/attention');
    expect(safeReturnPath('/a b')).toBe('/a%20b');
    expect(safeReturnPath('/événements')).toBe('/%C3%A9v%C3%A9nements');
  });

  it('refuses the two reported forms: a backslash and a tab after the first slash (issue #12)', () => {
    // `?next=/%5Cevil.example/x` and `?next=/%09/evil.example/x` as the page receives them (decoded once).
    expect(safeReturnPath('/\\evil.example/x')).toBe('/');
    expect(safeReturnPath('/\t/evil.example/x')).toBe('/');
  });

  it.each([
    ['scheme-relative', '//evil.example/x'],
    ['scheme-relative with three slashes', '///evil.example/x'],
    ['slash backslash', '/\\evil.example'],
    ['backslash slash', '\\/evil.example'],
    ['two backslashes', '\\\\evil.example'],
    ['newline between slashes', '/\n/evil.example'],
    ['carriage return between slashes', '/\r/evil.example'],
    ['tab and newline mixed', '/\t\n\\evil.example'],
    ['leading space', ' //evil.example'],
    ['leading tab', '\t//evil.example'],
    ['leading NUL', '\u0000//evil.example'],
    ['dot segment that normalises to //', '/.//evil.example'],
    ['dot-dot segment that normalises to //', '/x/..//evil.example'],
    ['absolute http URL', 'http://evil.example/x'],
    ['absolute https URL', 'https://evil.example'],
    ['scheme with mixed case', 'HtTpS://evil.example'],
    ['javascript: URL', 'javascript:alert(1)'],
    ['javascript: with leading space', ' javascript:alert(1)'],
    ['javascript: with tab inside', 'java\tscript:alert(1)'],
    ['data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['relative path without slash', 'events'],
    ['userinfo trick', '/@evil.example'.replace('/', '//')],
    ['empty', ''],
  ])('refuses %s', (_label, raw) => {
    expect(safeReturnPath(raw)).toBe('/');
  });

  it('keeps percent-encoded forms encoded, so they stay paths on this origin', () => {
    // The value decoded once by the query string parser still has %-escapes: the browser does not decode them again.
    for (const raw of ['/%5Cevil.example/x', '/%09/evil.example/x', '/%2F%2Fevil.example', '/%2F/evil.example', '/%5C%5Cevil.example']) {
      const out = safeReturnPath(raw);
      expect(out).toBe(raw);
      expect(lands(out)).toBe('https://app.example');
      expect(new URL(out, 'https://app.example/').pathname).toBe(raw);
    }
  });

  it('answers the fallback for non-strings, arrays (repeated parameter) and over-long values', () => {
    expect(safeReturnPath(undefined)).toBe('/');
    expect(safeReturnPath(null)).toBe('/');
    expect(safeReturnPath(['/events', '/audit'])).toBe('/');
    expect(safeReturnPath(42)).toBe('/');
    expect(safeReturnPath(`/${'a'.repeat(MAX_RETURN_PATH_LENGTH)}`)).toBe('/');
    expect(safeReturnPath(`/${'a'.repeat(MAX_RETURN_PATH_LENGTH - 1)}`)).toBe(`/${'a'.repeat(MAX_RETURN_PATH_LENGTH - 1)}`);
    expect(safeReturnPath('//evil.example', '/events')).toBe('/events');
  });

  it('never returns anything a browser would follow off-site (every control character after the slash)', () => {
    for (let c = 0; c <= 0x20; c++) {
      for (const raw of [`/${String.fromCharCode(c)}/evil.example`, `${String.fromCharCode(c)}//evil.example`, `/${String.fromCharCode(c)}\\evil.example`]) {
        const out = safeReturnPath(raw);
        expect(out.startsWith('/') && !out.startsWith('//'), JSON.stringify(raw)).toBe(true);
        expect(lands(out), JSON.stringify(raw)).toBe('https://app.example');
      }
    }
  });
});
