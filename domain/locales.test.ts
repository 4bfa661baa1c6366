import { describe, expect, it } from 'vitest';
import { canonicalLocale, messageLocales } from './locales';

describe('canonicalLocale', () => {
  it.each([
    ['de', 'de'],
    ['EN-gb', 'en-GB'],
    [' pt-br ', 'pt-BR'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    ['he', 'he'],
    ['', null],
    ['e', null],
    ['en--us', null],
    ['en_US', null],
    ['x'.repeat(36), null],
    ['de-', null],
  ])('%j → %j', (tag, expected) => {
    expect(canonicalLocale(tag)).toBe(expected);
  });
  it('every offered language is already canonical', () => {
    for (const l of messageLocales) expect(canonicalLocale(l.tag)).toBe(l.tag);
  });
});
