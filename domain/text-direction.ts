/**
 * Writing direction of a reader's locale and of text people typed, for messages (pure; the only outside
 * dependency is the CLDR likely-subtags data in the runtime's Intl).
 *
 * - A locale is right-to-left when its script is: the explicit script subtag ("pa-Arab") or, without
 *   one, CLDR's likely script (`Intl.Locale#maximize()`: he → Hebr, ar/fa/ur/ps/sd/ug/ckb → Arab,
 *   yi → Hebr, dv → Thaa). `textInfo` is not used: on Node 20 it misses dv and az-Arab.
 * - Typed text (titles, names, places) keeps its own direction: HTML wraps it in `dir="auto"`; plain
 *   text (subjects, the text part) wraps it in Unicode directional isolates U+2068 FIRST STRONG
 *   ISOLATE … U+2069 POP DIRECTIONAL ISOLATE (Unicode UAX #9, "isolates"), so a Hebrew title ending in
 *   "." keeps the full stop at its own end inside an English sentence.
 */

export type TextDirection = 'ltr' | 'rtl';

/** Unicode scripts written right to left (ISO 15924 codes). */
const RTL_SCRIPTS = new Set(['Arab', 'Hebr', 'Thaa', 'Syrc', 'Nkoo', 'Adlm', 'Rohg', 'Mand', 'Samr', 'Mend', 'Yezi']);

/**
 * "rtl" when `locale`'s script is written right to left, else "ltr" (also for malformed or empty tags).
 * Examples: "he" → rtl, "ar-EG" → rtl, "fa" → rtl, "ur" → rtl, "pa-Arab" → rtl, "en" → ltr, "ja" → ltr.
 */
export function localeDirection(locale: string | null | undefined): TextDirection {
  if (!locale) return 'ltr';
  try {
    const script = new Intl.Locale(locale).maximize().script;
    return script && RTL_SCRIPTS.has(script) ? 'rtl' : 'ltr';
  } catch {
    return 'ltr';
  }
}

// Strong right-to-left characters: Hebrew, Arabic (incl. supplements and presentation forms), Syriac,
// Thaana, NKo, Samaritan, Mandaic, and the RTL blocks of the SMP.
const STRONG_RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]|[\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

/** True when `text` contains a strong right-to-left character. */
export function hasRtlText(text: string): boolean {
  return STRONG_RTL.test(text);
}

const FSI = '\u2068';
const PDI = '\u2069';

/**
 * `text` wrapped in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE when it could be reordered by its
 * surroundings: when it contains right-to-left characters or the message itself is right to left.
 * Plain left-to-right text in a left-to-right message is returned unchanged. Empty text stays empty.
 */
export function isolateTyped(text: string, messageDirection: TextDirection): string {
  if (!text) return text;
  return messageDirection === 'rtl' || hasRtlText(text) ? `${FSI}${text}${PDI}` : text;
}
