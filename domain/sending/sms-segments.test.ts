import { describe, expect, it } from 'vitest';
import { countSmsSegments, gsm7Septets } from './sms-segments';

const a = (n: number) => 'a'.repeat(n);

describe('countSmsSegments (issue #9 §4 exact values)', () => {
  it('160 GSM-7 characters → 1 segment', () => {
    expect(countSmsSegments(a(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1, perSegment: 160 });
  });
  it('161 GSM-7 characters → 2 segments of 153', () => {
    expect(countSmsSegments(a(161))).toEqual({ encoding: 'GSM-7', units: 161, segments: 2, perSegment: 153 });
  });
  it('70 characters of which one is ł → 1 UCS-2 segment', () => {
    expect(countSmsSegments(`ł${a(69)}`)).toEqual({ encoding: 'UCS-2', units: 70, segments: 1, perSegment: 70 });
  });
  it('71 characters of which one is ł → 2 UCS-2 segments', () => {
    expect(countSmsSegments(`ł${a(70)}`)).toEqual({ encoding: 'UCS-2', units: 71, segments: 2, perSegment: 67 });
  });
  it('69 characters plus one emoji (a surrogate pair, 2 units) → 2 segments', () => {
    expect(countSmsSegments(`${a(69)}😀`)).toEqual({ encoding: 'UCS-2', units: 71, segments: 2, perSegment: 67 });
  });
  it('68 characters plus one emoji = 70 units → 1 segment', () => {
    expect(countSmsSegments(`${a(68)}😀`)).toMatchObject({ encoding: 'UCS-2', units: 70, segments: 1 });
  });
  it('159 characters + € (extension table, 2 septets) = 161 septets → 2 segments, still GSM-7', () => {
    expect(countSmsSegments(`${a(159)}€`)).toEqual({ encoding: 'GSM-7', units: 161, segments: 2, perSegment: 153 });
  });
  it('158 characters + € = 160 septets → 1 segment', () => {
    expect(countSmsSegments(`${a(158)}€`)).toMatchObject({ encoding: 'GSM-7', units: 160, segments: 1 });
  });
  it('the empty string is 0 segments (nothing to send)', () => {
    expect(countSmsSegments('')).toEqual({ encoding: 'GSM-7', units: 0, segments: 0, perSegment: 160 });
  });
  it('306 septets → 2 parts of 153 exactly', () => {
    expect(countSmsSegments(a(306))).toMatchObject({ segments: 2 });
    expect(countSmsSegments(a(307))).toMatchObject({ segments: 3 });
  });
});

describe('part boundaries never split a 2-septet escape or a surrogate pair', () => {
  it('GSM-7: € at septets 153–154 moves whole to part 2 (152 + € + 152 = 306 septets → 3 parts, not 2)', () => {
    const r = countSmsSegments(`${a(152)}€${a(152)}`);
    expect(r).toEqual({ encoding: 'GSM-7', units: 306, segments: 3, perSegment: 153 });
  });
  it('GSM-7: € that fits exactly at the end of part 1 does not cost a part (151 + € + 153 = 306 → 2)', () => {
    expect(countSmsSegments(`${a(151)}€${a(153)}`)).toMatchObject({ units: 306, segments: 2 });
  });
  it('UCS-2: an emoji at units 67–68 moves whole to part 2 (66 ł + 😀 + 66 ł = 134 units → 3 parts, not 2)', () => {
    const r = countSmsSegments(`${'ł'.repeat(66)}😀${'ł'.repeat(66)}`);
    expect(r).toEqual({ encoding: 'UCS-2', units: 134, segments: 3, perSegment: 67 });
  });
  it('UCS-2: an emoji that fits exactly at the end of part 1 does not cost a part (65 + 😀 + 67 = 134 → 2)', () => {
    expect(countSmsSegments(`${'ł'.repeat(65)}😀${'ł'.repeat(67)}`)).toMatchObject({ units: 134, segments: 2 });
  });
});

describe('encoding choice', () => {
  it.each([
    ['every basic-table letter', '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡AZÄÖÑÜ§¿azäöñüà', 'GSM-7'],
    ['extension characters', '^{}\\[~]|€\f', 'GSM-7'],
    ['ł (Polish)', 'Dziękuję ł', 'UCS-2'],
    ['ç (lowercase c cedilla is not in the table; Ç is)', 'ça', 'UCS-2'],
    ['á (not in the table; à is)', 'á', 'UCS-2'],
    ['a curly apostrophe', 'it’s', 'UCS-2'],
    ['a tab', 'a\tb', 'UCS-2'],
    ['a lone ESC', '\u001b', 'UCS-2'],
    ['an emoji', '😀', 'UCS-2'],
  ])('%s → %s', (_n, text, encoding) => {
    expect(countSmsSegments(text).encoding).toBe(encoding);
  });

  it('extension characters count 2 septets each, basic ones 1', () => {
    expect(countSmsSegments('^{}\\[~]|€\f').units).toBe(20);
    expect(gsm7Septets('a')).toBe(1);
    expect(gsm7Septets('€')).toBe(2);
    expect(gsm7Septets('ł')).toBeNull();
  });

  it('in UCS-2 every character counts its UTF-16 units (extension characters no longer cost 2)', () => {
    expect(countSmsSegments('€ł😀').units).toBe(4);
  });
});
