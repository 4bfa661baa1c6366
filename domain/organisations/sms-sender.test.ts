import { describe, expect, it } from 'vitest';
import { parseSmsSender } from './sms-sender';

describe('parseSmsSender: accepted', () => {
  it.each([
    ['', null],
    ['   ', null],
    ['+31 6 12345678', '+31612345678'],
    ['+44 7400 123456', '+447400123456'],
    ['Punctual', 'Punctual'],
    ['ACME2', 'ACME2'],
    ['A', 'A'],
    ['Abcdefghijk', 'Abcdefghijk'], // 11 characters
    ['  Punctual  ', 'Punctual'],
  ] as const)('%j → %j', (input, sender) => {
    expect(parseSmsSender(input)).toEqual({ ok: true, sender });
  });
});

describe('parseSmsSender: refused, saying why', () => {
  it.each([
    ['twelve characters', 'Abcdefghijkl', /at most 11 letters and digits \(this one has 12\)/],
    ['a space', 'ACME Org', /contains a space/],
    ['an accent', 'Café', /contains "é"/],
    ['punctuation', 'ACME-2', /contains "-"/],
    ['a number without country code', '0612345678', /has no country code.*international form/],
    ['a number that cannot exist', '+31 99 1234567', /not a valid number|too (short|long)/],
    ['digits only (a short code)', '12345', /country code|too short/],
  ])('%s (%j)', (_what, input, message) => {
    const r = parseSmsSender(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });
});
