import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds, MAX_JSON_DEPTH, MAX_TEXT_LENGTH, overlongText, textWithNul } from './request-limits';

const nested = (n: number, open = '[', close = ']') => open.repeat(n) + close.repeat(n);

describe('jsonDepthExceeds', () => {
  it('accepts ordinary bodies and exactly the limit', () => {
    expect(jsonDepthExceeds('{"title":"x","contact":{"email":"a@b.c"},"ids":[1,2]}')).toBe(false);
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthExceeds('')).toBe(false);
    expect(jsonDepthExceeds('"just a string"')).toBe(false);
  });

  it('refuses one level more, mixed brackets, and the 10,000-deep body of the issue (60 KB)', () => {
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDepthExceeds('{"a":'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1))).toBe(true);
    const body = '{"a":' + nested(10_000) + '}';
    expect(body.length).toBeGreaterThan(20_000);
    expect(jsonDepthExceeds(body)).toBe(true);
    // Siblings do not add up: 1,000 arrays side by side are depth 2.
    expect(jsonDepthExceeds(`[${Array(1000).fill('[1]').join(',')}]`)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepthExceeds(JSON.stringify({ note: nested(100) }))).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ note: `say \\"${nested(100)}\\" ok` }))).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ note: 'a\\', x: nested(3) }))).toBe(false);
    // A string that ends in an escaped backslash, then real nesting.
    expect(jsonDepthExceeds(`{"a":"x\\\\","b":${nested(MAX_JSON_DEPTH + 1)}}`)).toBe(true);
  });

  it('takes a custom limit', () => {
    expect(jsonDepthExceeds(nested(3), 2)).toBe(true);
    expect(jsonDepthExceeds(nested(2), 2)).toBe(false);
  });
});

describe('overlongText', () => {
  it('names the first over-long string by its path', () => {
    expect(overlongText({ address: 'x'.repeat(MAX_TEXT_LENGTH + 1) })).toBe('address');
    expect(overlongText({ contact: { name: 'ok', email: 'y'.repeat(11) } }, 10)).toBe('contact.email');
    expect(overlongText({ ids: ['a', 'bbbb'] }, 3)).toBe('ids.1');
    expect(overlongText('zzzz', 3)).toBe('body');
  });
  it('accepts strings up to the limit and non-strings', () => {
    expect(overlongText({ a: 'x'.repeat(MAX_TEXT_LENGTH), n: 1e9, b: true, z: null })).toBeNull();
  });
});

describe('textWithNul', () => {
  it('names the first string (or key) holding U+0000, which PostgreSQL text cannot store; null otherwise', () => {
    expect(textWithNul(JSON.parse('{"email":"a\\u0000@x.test","password":"x"}'))).toBe('email');
    expect(textWithNul({ contact: { name: 'ok', tags: ['fine', 'b\u0000d'] } })).toBe('contact.tags.1');
    expect(textWithNul({ ['k\u0000']: 'v' })).toBe('k\u0000');
    expect(textWithNul('\u0000')).toBe('body');
    expect(textWithNul({ email: 'a@x.test', n: 1, ok: true, none: null, list: ['\u0001 other controls are not NUL'] })).toBeNull();
  });
});
