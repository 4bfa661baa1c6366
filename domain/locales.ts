/**
 * The languages a participant's messages can be written for (BCP 47 tags, RFC 5646). A message's words come from
 * Punctual's built-in text in the reader's language (emails/messages/: English, Dutch, German, French, Spanish,
 * Italian, Portuguese and Hebrew); for a language without text the locale fallback (domain/messages/locale-fallback.ts)
 * uses its base language, then the organisation's default language, then English. Dates and times follow the locale
 * the text is written in (domain/format-time.ts, CLDR patterns via Intl). Some languages offered here (Polish,
 * Ukrainian, Arabic, Japanese, Chinese) have no text yet: their readers get the fallback. Pure.
 */

/** Offered in the add-participant form: tag and the language's own name (its endonym). */
export const messageLocales: readonly { tag: string; label: string }[] = [
  { tag: 'en', label: 'English (US)' },
  { tag: 'en-GB', label: 'English (UK)' },
  { tag: 'de', label: 'Deutsch' },
  { tag: 'fr', label: 'Français' },
  { tag: 'nl', label: 'Nederlands' },
  { tag: 'es', label: 'Español' },
  { tag: 'it', label: 'Italiano' },
  { tag: 'pt-BR', label: 'Português (Brasil)' },
  { tag: 'pl', label: 'Polski' },
  { tag: 'uk', label: 'Українська' },
  { tag: 'he', label: 'עברית' },
  { tag: 'ar', label: 'العربية' },
  { tag: 'ja', label: '日本語' },
  { tag: 'zh', label: '中文' },
];

/**
 * The canonical form of a BCP 47 language tag (`Intl.getCanonicalLocales`: `EN-gb` → `en-GB`), or null when
 * `tag` is not a well-formed tag (RFC 5646 §2.1) or is longer than 35 characters (§4.4.1's minimum buffer).
 */
export function canonicalLocale(tag: string): string | null {
  const t = tag.trim();
  if (!t || t.length > 35) return null;
  try {
    return Intl.getCanonicalLocales(t)[0] ?? null;
  } catch {
    return null;
  }
}
