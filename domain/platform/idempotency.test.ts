import { describe, expect, it } from 'vitest';
import { canonicalJson, decideRepeat, parseIdempotencyKey, requestFingerprint } from './idempotency';

describe('parseIdempotencyKey (draft §2.1)', () => {
  const ok = (key: string | null) => ({ ok: true, key });
  it.each([
    ['absent', null, ok(null)],
    ['bare UUID (what browsers send)', '8e03978e-40d5-43e8-bc93-6894a57f9324', ok('8e03978e-40d5-43e8-bc93-6894a57f9324')],
    ['sf-string', '"8e03978e-40d5-43e8-bc93-6894a57f9324"', ok('8e03978e-40d5-43e8-bc93-6894a57f9324')],
    ['sf-string with escapes', '"a\\"b\\\\c"', ok('a"b\\c')],
    ['surrounding whitespace', '  abc  ', ok('abc')],
    ['one character', 'x', ok('x')],
    ['255 characters', 'k'.repeat(255), ok('k'.repeat(255))],
    ['inner space', 'form 1', ok('form 1')],
  ])('%s → accepted', (_name, value, expected) => {
    expect(parseIdempotencyKey(value)).toEqual(expected);
  });

  it.each([
    ['empty', '', 'must not be empty'],
    ['only spaces', '   ', 'must not be empty'],
    ['empty sf-string', '""', 'must not be empty'],
    ['sf-string of spaces', '"   "', 'printable'],
    ['256 characters', 'k'.repeat(256), 'at most 255'],
    ['non-ASCII', 'clé-1', 'printable'],
    ['control character', 'a\tb', 'printable'],
    ['two fields folded into one', '"a", "b"', 'exactly one key'],
    ['unterminated sf-string', '"abc', 'exactly one key'],
    ['parameters', '"abc";x=1', 'parameters'],
  ])('%s → 400 naming the header', (_name, value, words) => {
    const r = parseIdempotencyKey(value);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.startsWith('Idempotency-Key: ')).toBe(true);
      expect(r.error).toContain(words);
    }
  });
});

describe('request fingerprint (draft §2.4, RFC 8785 canonical JSON)', () => {
  it.each([
    ['key order', { a: 1, b: 'x' }, { b: 'x', a: 1 }],
    ['nested key order', { p: { y: [1, 2], x: null } }, { p: { x: null, y: [1, 2] } }],
    ['number spelling', JSON.parse('{"n": 1.0}'), JSON.parse('{"n":1}')],
    ['no body vs null', undefined, null],
  ])('same request despite %s', (_name, a, b) => {
    expect(requestFingerprint(a)).toBe(requestFingerprint(b));
  });

  it.each([
    ['another value', { email: 'a@x.test' }, { email: 'b@x.test' }],
    ['an extra field', { name: 'A' }, { name: 'A', role: 'host' }],
    ['array order', { ids: [1, 2] }, { ids: [2, 1] }],
    ['string vs number', { n: '1' }, { n: 1 }],
  ])('different request for %s', (_name, a, b) => {
    expect(requestFingerprint(a)).not.toBe(requestFingerprint(b));
  });

  it('is the SHA-256 hex of the canonical form', () => {
    expect(canonicalJson({ b: [true, null], a: 'é' })).toBe('{"a":"é","b":[true,null]}');
    expect(requestFingerprint({})).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
  });
});

describe('decideRepeat (draft §2.6–2.7)', () => {
  const stored = { route: 'POST /api/events/e1/bookings', fingerprint: 'f1' };
  it.each([
    ['same route, same body', { route: stored.route, fingerprint: 'f1' }, 'replay', undefined],
    ['same route, other body', { route: stored.route, fingerprint: 'f2' }, 'mismatch', 'body'],
    ['other route, same body', { route: 'POST /api/events/e2/bookings', fingerprint: 'f1' }, 'mismatch', 'route'],
    ['other route, other body', { route: 'POST /api/events', fingerprint: 'f2' }, 'mismatch', 'route'],
  ])('%s → %s', (_name, incoming, kind, reason) => {
    const d = decideRepeat(stored, incoming);
    expect(d.kind).toBe(kind);
    if (d.kind === 'mismatch') {
      expect(d.reason).toBe(reason);
      expect(d.message.startsWith('Idempotency-Key: ')).toBe(true);
    }
  });
});
