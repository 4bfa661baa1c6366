/**
 * The languages a participant's messages can be written for (BCP 47 tags, RFC 5646). Dates and times in a
 * message follow the reader's locale (domain/format-time.ts, CLDR patterns via Intl); the template sentences
 * themselves are English for now. Pure.
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
