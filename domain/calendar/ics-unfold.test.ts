import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8, unfoldIcsBytes } from './ics-unfold';

const b = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('unfoldIcsBytes', () => {
  it.each<[string, Buffer, string, number[]]>([
    ['CRLF + space', b('A:x\r\n y\r\nB:z'), 'A:xy\nB:z', [1, 3]],
    ['LF + tab', b('A:x\n\ty\nB:z'), 'A:xy\nB:z', [1, 3]],
    ['lone CR line breaks', b('A:x\rB:z'), 'A:x\nB:z', [1, 2]],
    ['only ONE whitespace is removed', b('A:x\r\n  y'), 'A:x y', [1]],
    ['ü split across a fold (C3 | CRLF SP | BC)', b('S:f', [0xc3], '\r\n ', [0xbc], 'r'), 'S:für', [1]],
    ['a BOM is dropped', b([0xef, 0xbb, 0xbf], 'A:x'), 'A:x', [1]],
  ])('%s', (_n, input, text, lines) => {
    const r = unfoldIcsBytes(input);
    expect(r).toEqual({ ok: true, value: { text, physicalLine: lines } });
  });

  it.each<[string, Buffer, number, string]>([
    ['Latin-1 é on line 2', b('A:x\r\nB:caf', [0xe9], '\r\n'), 2, '0xE9'],
    ['a lone continuation byte on a folded line 3', b('A:x\r\nB:y\r\n z', [0x80]), 3, '0x80'],
    ['a truncated sequence at the end', b('A:', [0xe2, 0x82]), 1, '0xE2'],
    ['an overlong encoding', b('A:', [0xc0, 0xaf]), 1, '0xC0'],
    ['a surrogate', b('A:', [0xed, 0xa0, 0x80]), 1, '0xED'],
  ])('%s: refused naming the line and the byte', (_n, input, line, byte) => {
    const r = unfoldIcsBytes(input);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.line).toBe(line);
      expect(r.detail).toContain(`byte ${byte}`);
    }
  });

  it('firstInvalidUtf8 agrees with the fatal decoder on valid text', () => {
    const s = Buffer.from('ÄÖÜ € 𝄞 日本', 'utf8');
    expect(firstInvalidUtf8(s)).toBe(s.length);
  });
});
