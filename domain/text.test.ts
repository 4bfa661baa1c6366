import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BIDI_CONTROL_NAMES, bidiControlProblem, refuseBidiControls, showBidiControls, unstorableText } from './text';

describe('unstorableText', () => {
  it('finds NUL and lone surrogates, naming the path', () => {
    expect(unstorableText({ title: 'a\u0000b' })).toBe('title');
    expect(unstorableText({ contact: { name: 'x\ud800' } })).toBe('contact.name');
    expect(unstorableText({ ids: ['ok', '\udc00'] })).toBe('ids.1');
  });
  it('accepts ordinary text, emoji (paired surrogates) and non-strings', () => {
    expect(unstorableText({ title: 'Töpfern 🙂 漢字', n: 3, b: true, x: null })).toBeNull();
  });
});

describe('text-direction controls (Trojan Source, CVE-2021-42574)', () => {
  const nine = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
  const schema = z.object({ title: z.string().trim().max(200).check(refuseBidiControls) });

  it('knows exactly the nine embedding, override and isolate controls of UAX #9', () => {
    expect(Object.keys(BIDI_CONTROL_NAMES).sort()).toEqual(nine);
  });

  it.each(nine.map((ch) => [`U+${ch.codePointAt(0)!.toString(16).toUpperCase()}`, ch]))('refuses %s anywhere in the text, naming it', (hex, ch) => {
    for (const text of [`${ch}Intro`, `Intro ${ch}workshop`, `Intro${ch}`]) {
      expect(bidiControlProblem(text)?.startsWith(`must not contain ${hex} ${BIDI_CONTROL_NAMES[ch]} (`)).toBe(true);
      const r = schema.safeParse({ title: text });
      expect(r.success).toBe(false);
      expect(r.error!.issues[0]).toMatchObject({ path: ['title'], message: bidiControlProblem(text) });
    }
  });

  it.each([
    ['plain text', 'Intro workshop'],
    ['Hebrew', 'סדנת מבוא'],
    ['Arabic', 'ورشة تمهيدية'],
    ['mixed, with digits', 'Room 4 — חדר 12'],
    ['U+200E LEFT-TO-RIGHT MARK', 'שלום\u200e (2)'],
    ['U+200F RIGHT-TO-LEFT MARK', 'Intro\u200f workshop'],
    ['U+061C ARABIC LETTER MARK', 'ورشة\u061c 3'],
    ['the neighbours U+2029 and U+206A', 'a\u2029b\u206ac'],
    ['emoji and CJK', 'Töpfern 🙂 漢字'],
  ])('allows %s', (_what, text) => {
    expect(bidiControlProblem(text)).toBeNull();
    expect(schema.parse({ title: text }).title).toBe(text.trim());
  });

  it('names the first control when there are several', () => {
    expect(bidiControlProblem('a\u2066b\u202ec')).toMatch(/^must not contain U\+2066 LEFT-TO-RIGHT ISOLATE/);
  });

  it('shows a refused value without letting it reorder the message quoting it', () => {
    expect(showBidiControls('a\u202egpj.exe\u2069')).toBe('a<U+202E>gpj.exe<U+2069>');
    expect(showBidiControls('שלום')).toBe('שלום');
  });
});
