import { describe, expect, it } from 'vitest';
import { hasRtlText, isolateTyped, localeDirection } from './text-direction';

describe('localeDirection', () => {
  it.each([
    ['he', 'rtl'],
    ['iw', 'rtl'],
    ['ar', 'rtl'],
    ['ar-EG', 'rtl'],
    ['fa', 'rtl'],
    ['ur', 'rtl'],
    ['ps', 'rtl'],
    ['yi', 'rtl'],
    ['dv', 'rtl'],
    ['ckb', 'rtl'],
    ['pa-Arab', 'rtl'],
    ['az-Arab', 'rtl'],
    ['en', 'ltr'],
    ['en-GB', 'ltr'],
    ['de', 'ltr'],
    ['ja', 'ltr'],
    ['zh', 'ltr'],
    ['pa', 'ltr'],
    ['not a locale', 'ltr'],
    ['', 'ltr'],
    [null, 'ltr'],
  ])('%j → %s', (locale, expected) => {
    expect(localeDirection(locale)).toBe(expected);
  });
});

describe('isolateTyped / hasRtlText', () => {
  it.each([
    ['Intro workshop', 'ltr', 'Intro workshop'],
    ['סדנת מבוא.', 'ltr', '\u2068סדנת מבוא.\u2069'],
    ['ورشة تمهيدية', 'ltr', '\u2068ورشة تمهيدية\u2069'],
    ['Intro workshop.', 'rtl', '\u2068Intro workshop.\u2069'],
    ['', 'rtl', ''],
  ] as const)('%j in an %s message → %j', (text, dir, expected) => {
    expect(isolateTyped(text, dir)).toBe(expected);
  });

  it('finds right-to-left characters', () => {
    expect(hasRtlText('Room 4 — חדר')).toBe(true);
    expect(hasRtlText('Zürich, 東京')).toBe(false);
  });
});
