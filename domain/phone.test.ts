import { describe, expect, it } from 'vitest';
import { parsePhone, phoneFormatHint } from './phone';

describe('parsePhone: accepted, normalised to E.164', () => {
  it.each([
    ['+31 6 12345678', undefined, '+31612345678'],
    ['0612345678', 'NL', '+31612345678'],
    ['+31 (0)6-1234 5678', undefined, '+31612345678'],
    ['0031612345678', 'NL', '+31612345678'],
    ['  06 12 34 56 78 ', 'NL', '+31612345678'],
    ['+31612345678', 'DE', '+31612345678'],
    ['+31 20 123 4567', undefined, '+31201234567'],
    ['+44 7400 123456', undefined, '+447400123456'],
    ['+49 1512 3456789', undefined, '+4915123456789'],
    ['(213) 373-4253', 'US', '+12133734253'],
  ] as const)('%j (default %s) → %s', (input, country, e164) => {
    expect(parsePhone(input, country)).toEqual({ ok: true, e164 });
  });
});

describe('parsePhone: refused, naming what is wrong', () => {
  it.each([
    ['empty', '', 'NL', /phone number is empty/],
    ['blank', '   ', 'NL', /phone number is empty/],
    ['garbage', 'call me maybe', 'NL', /contains letters \("call"\)/],
    ['letters inside digits', '+31 6 1234abcd', undefined, /contains letters \("abcd"\)/],
    ['an extension', '+31612345678 ext. 12', undefined, /contains letters \("ext"\)/],
    ['a hash', '+31612345678#', undefined, /contains "#", which is not part of a phone number/],
    ['punctuation only', '+-()', undefined, /contains no digits/],
    ['a plus in the middle', '31+612345678', undefined, /"\+" that is not at the start/],
    ['national form without a country', '0612345678', undefined, /"0612345678" has no country code/],
    ['unknown country calling code', '+999 1234567', undefined, /country calling code that does not exist/],
    ['far too short', '12', 'NL', /"12" is too short for a number in Netherlands \(\+31\)/],
    ['a calling code and one digit', '+12', undefined, /"\+12" is too short for a phone number/],
    ['too short for the Netherlands (isPossible says yes)', '+31 6 1234', undefined, /"\+31 6 1234" is too short for a number in Netherlands \(\+31\)/],
    ['national, too short', '061234', 'NL', /is too short for a number in Netherlands/],
    ['too long for the Netherlands', '+31 6 123456789', undefined, /is too long for a number in Netherlands \(\+31\)/],
    ['far too long', '+31 6 1234567890123456789', undefined, /is too long for a phone number/],
    ['right length, not a valid Dutch range (isValid, not isPossible)', '+31 99 1234567', undefined, /is not a valid number in Netherlands \(\+31\)/],
    ['North American 555 number', '+1 555 555 5555', undefined, /is not a valid number/],
  ] as const)('%s: %j', (_n, input, country, message) => {
    const r = parsePhone(input, country);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toMatch(message);
    expect(r.message).toContain(phoneFormatHint);
    expect(r.message).toContain('e.g. +31612345678');
  });
});
