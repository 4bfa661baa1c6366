/**
 * iCalendar bytes → text: unfold FIRST, then decode (RFC 5545 §3.1 and §3.1.4). Pure: no I/O.
 *
 * §3.1 folds content lines longer than 75 OCTETS by inserting CRLF + one space or tab, and generators cut
 * wherever the 75th octet falls — also inside a multi-byte UTF-8 character (`ü` = C3 BC may end up as
 * `C3 CRLF SP BC`). Decoding each physical line on its own turns such a character into U+FFFD; removing the
 * folds on the bytes first and decoding the unfolded whole keeps it intact.
 *
 * Rules:
 *  - a line break is CRLF, LF or a lone CR (real files use all three);
 *  - a line break followed by one SPACE (0x20) or HTAB (0x09) is a fold: the break and that one character
 *    are removed (§3.1);
 *  - a UTF-8 byte order mark at the very start is dropped;
 *  - the unfolded bytes are decoded as UTF-8 (§3.1.4: the default charset is UTF-8) with a FATAL decoder: a
 *    file that is not valid UTF-8 is refused naming the physical line of the first bad byte — never decoded
 *    with replacement characters.
 */

interface UnfoldedIcs {
  /** The unfolded content lines joined with `\n` (every line break normalised to LF). */
  text: string;
  /**
   * `physicalLine[i]` is the 1-based line in the original file on which unfolded line `i` (0-based, the i-th
   * `\n`-separated line of `text`) begins.
   */
  physicalLine: number[];
}

type UnfoldResult = { ok: true; value: UnfoldedIcs } | { ok: false; line: number; detail: string };

const CR = 0x0d;
const LF = 0x0a;
const SP = 0x20;
const TAB = 0x09;

/**
 * Unfolds `bytes` and decodes them as UTF-8.
 * @returns `{ ok: true, value }`, or `{ ok: false, line, detail }` when the unfolded bytes are not valid UTF-8
 *   (`line`: 1-based physical line of the first invalid byte; `detail`: a one-line reason naming the byte).
 */
export function unfoldIcsBytes(bytes: Uint8Array): UnfoldResult {
  const n = bytes.length;
  const out = new Uint8Array(n);
  const physicalLine: number[] = [1];
  /** Output offset where each physical line's bytes begin (index = physical line − 1); for error positions. */
  const physStart: number[] = [0];
  let o = 0;
  let phys = 1;
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < n) {
    const b = bytes[i];
    if (b === CR || b === LF) {
      const eol = b === CR && bytes[i + 1] === LF ? 2 : 1;
      phys++;
      const next = bytes[i + eol];
      if (next === SP || next === TAB) {
        // A fold: drop the line break and the one whitespace character after it.
        i += eol + 1;
        physStart.push(o);
        continue;
      }
      out[o++] = LF;
      physicalLine.push(phys);
      physStart.push(o);
      i += eol;
      continue;
    }
    out[o++] = b;
    i++;
  }
  const unfolded = out.subarray(0, o);
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(unfolded);
    return { ok: true, value: { text, physicalLine } };
  } catch {
    const bad = firstInvalidUtf8(unfolded);
    // The physical line holding the bad byte: the last line that begins at or before it.
    let lo = 0;
    let hi = physStart.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (physStart[mid] <= bad) lo = mid;
      else hi = mid - 1;
    }
    const hex = unfolded[bad]?.toString(16).toUpperCase().padStart(2, '0') ?? '??';
    return {
      ok: false,
      line: lo + 1,
      detail: `not valid UTF-8 (byte 0x${hex}); iCalendar files are UTF-8 (RFC 5545 §3.1.4): save the file as UTF-8 and import it again`,
    };
  }
}

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence (RFC 3629 §4). */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    let len: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) len = 2;
    else if (c >= 0xe0 && c <= 0xef) {
      len = 3;
      if (c === 0xe0) lo = 0xa0; // no overlong forms
      if (c === 0xed) hi = 0x9f; // no surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      len = 4;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k < len; k++) {
      const d = b[i + k];
      const [l, h] = k === 1 ? [lo, hi] : [0x80, 0xbf];
      if (d === undefined || d < l || d > h) return i;
    }
    i += len;
  }
  return b.length;
}
