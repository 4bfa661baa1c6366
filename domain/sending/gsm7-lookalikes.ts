/**
 * GSM-7 look-alikes for the fixed wording of an SMS (the message text and the dates, never what people typed): a
 * character outside the GSM 7-bit default alphabet makes the whole SMS UCS-2, 70 instead of 160 characters a part
 * (domain/sending/sms-segments.ts), so where a language's letter or punctuation mark has a GSM-7 look-alike that
 * keeps the meaning, the look-alike is used. Pure.
 *
 * Sources and choices:
 * - The alphabet: 3GPP TS 23.038 §6.2.1 (basic set and extension table, as in sms-segments.ts). It already has
 *   ä ö ü ß Ä Ö Ü ñ Ñ é É è ù ì ò à Ç å Å æ Æ ø Ø ¡ ¿ £ € — German needs no letter replaced; French, Italian,
 *   Spanish, Portuguese and Dutch only a few.
 * - Punctuation and spaces (every language): the "Smart Encoding" tables of SMS providers (Twilio's published
 *   list of replaced characters; Telnyx, Sinch and Bird do the same): typographic quotes → straight quotes,
 *   dashes → "-", the ellipsis → "...", no-break and thin spaces → a space. Only the characters our texts and
 *   CLDR dates can contain are listed.
 * - Letters (per language, conservative): an accent GSM-7 lacks is dropped only where readers of that language
 *   write and read SMS that way without a change of meaning — French ê → e, ç → c, œ → oe; Spanish á í ó ú → a i o u;
 *   Portuguese ã õ â ê ô á í ó ú ç → a o a e o a i o u c; Dutch ë ï → e i (trema only marks a syllable break);
 *   Italian keeps its grave vowels (all in GSM-7), writes í ó ú with the grave accent GSM-7 has and È as "E'" (the
 *   usual Italian spelling where the capital is missing). Hebrew cannot be written in GSM-7 and is left as it is;
 *   so is any language not listed (punctuation only).
 * - All or nothing (as the providers' smart encoding does): {@link gsm7Lookalikes} is meant to be used only when
 *   the WHOLE message then fits GSM-7; when something else (a typed Hebrew title, an emoji) makes it UCS-2 anyway,
 *   the original spelling is kept — the caller decides (emails/sms.ts).
 */

/** Punctuation and spaces → GSM-7 (provider smart-encoding tables), for every language. */
export const gsm7Punctuation: Readonly<Record<string, string>> = {
  '\u2018': "'", // ‘ left single quotation mark
  '\u2019': "'", // ’ right single quotation mark (also the apostrophe in French, Italian, Portuguese text)
  '\u201a': "'", // ‚ single low-9 quotation mark
  '\u201b': "'", // ‛ single high-reversed-9 quotation mark
  '\u2032': "'", // ′ prime
  '\u201c': '"', // “ left double quotation mark
  '\u201d': '"', // ” right double quotation mark
  '\u201e': '"', // „ double low-9 quotation mark (German, Dutch)
  '\u201f': '"', // ‟ double high-reversed-9 quotation mark
  '\u00ab': '"', // « left-pointing double angle quotation mark (French)
  '\u00bb': '"', // » right-pointing double angle quotation mark
  '\u2010': '-', // ‐ hyphen
  '\u2011': '-', // ‑ non-breaking hyphen
  '\u2012': '-', // ‒ figure dash
  '\u2013': '-', // – en dash
  '\u2014': '-', // — em dash
  '\u2015': '-', // ― horizontal bar
  '\u2212': '-', // − minus sign
  '\u2026': '...', // … horizontal ellipsis
  '\u00a0': ' ', // no-break space
  '\u2007': ' ', // figure space
  '\u2009': ' ', // thin space (CLDR ranges)
  '\u200a': ' ', // hair space
  '\u202f': ' ', // narrow no-break space (CLDR: before "AM", French before ":" and "!")
  '\u00b7': '-', // · middle dot (a separator)
};

/** Letters GSM-7 lacks → their look-alike, per language (module comment for the choices). */
export const gsm7Letters: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  fr: {
    'â': 'a', 'ê': 'e', 'î': 'i', 'ô': 'o', 'û': 'u', 'ë': 'e', 'ï': 'i', 'ÿ': 'y', 'ç': 'c', 'œ': 'oe',
    'À': 'A', 'Â': 'A', 'È': 'E', 'Ê': 'E', 'Ë': 'E', 'Î': 'I', 'Ï': 'I', 'Ô': 'O', 'Û': 'U', 'Ù': 'U', 'Œ': 'OE',
  },
  es: { 'á': 'a', 'í': 'i', 'ó': 'o', 'ú': 'u', 'Á': 'A', 'Í': 'I', 'Ó': 'O', 'Ú': 'U' },
  pt: {
    'á': 'a', 'â': 'a', 'ã': 'a', 'ê': 'e', 'í': 'i', 'ó': 'o', 'ô': 'o', 'õ': 'o', 'ú': 'u', 'ç': 'c',
    'Á': 'A', 'Â': 'A', 'Ã': 'A', 'À': 'A', 'Ê': 'E', 'Í': 'I', 'Ó': 'O', 'Ô': 'O', 'Õ': 'O', 'Ú': 'U',
  },
  it: { 'í': 'ì', 'ó': 'ò', 'ú': 'ù', 'È': "E'", 'À': "A'", 'Ì': "I'", 'Ò': "O'", 'Ù': "U'" },
  nl: { 'ë': 'e', 'ï': 'i', 'Ë': 'E', 'Ï': 'I' },
};

/** The language subtag of a tag ("pt-BR" → "pt"), lower case; "" for an empty or malformed tag. */
function languageOf(locale: string): string {
  return (/^[A-Za-z]{2,3}/.exec(locale.trim())?.[0] ?? '').toLowerCase();
}

/**
 * `text` with every character that has a GSM-7 look-alike in `locale`'s language replaced (punctuation and spaces
 * for every language, letters per {@link gsm7Letters}). Characters without one stay as they are, so the result may
 * still need UCS-2 (check with countSmsSegments). Pure.
 */
export function gsm7Lookalikes(text: string, locale: string): string {
  const letters = gsm7Letters[languageOf(locale)] ?? {};
  let out = '';
  for (const ch of text) out += gsm7Punctuation[ch] ?? letters[ch] ?? ch;
  return out;
}

/**
 * ICU's typographic spaces and dashes in a formatted date (U+202F before "AM", U+2009 and U+00A0 between parts,
 * U+2013 in a range) → a plain space and "-", so a date never makes an SMS UCS-2 (one such character would make the
 * whole message UCS-2: 70 characters a segment instead of 160). Pure.
 */
export function gsmDate(formatted: string): string {
  return formatted.replace(/[\u00a0\u2007\u2009\u202f]/g, ' ').replace(/[\u2012\u2013\u2014\u2212]/g, '-');
}
