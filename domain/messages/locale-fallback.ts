/**
 * Locale fallback (DESIGN §3 "Message text"): which language a message is written in for one reader, and why.
 * Pure: no I/O; the only outside dependency is the runtime's Intl (canonical tags, a tag's language subtag).
 *
 * The order, first match wins:
 *  1. `contact_language` — the person's own language tag, when text exists for exactly that tag ("nl", "de").
 *  2. `base_language` — the language subtag of the person's tag ("nl-BE" → "nl", "pt-BR" → "pt", "en-GB" → "en").
 *  3. `organisation_default` — the organisation's default language (its tag, then that tag's language), for a
 *     person whose language has no text ("xx", "pl" while Polish is not shipped).
 *  4. `english` — "en", when neither the person's nor the organisation's language has text.
 *
 * Besides the text's language the choice names the locale that dates, times and numbers of the message are
 * written in (`formatLocale`): the tag that matched, in full, so a Belgian reader of Dutch text gets nl-BE dates
 * and a Brazilian reader of Portuguese text pt-BR dates, while a reader whose language has no text reads the
 * dates in the language of the words around them (one style per message).
 */
import { canonicalLocale } from '@/domain/locales';

/** Why a message is in the language it is in (recorded on the delivery as `locale_reason`). */
export const localeReasons = ['contact_language', 'base_language', 'organisation_default', 'english'] as const;
export type LocaleReason = (typeof localeReasons)[number];

export interface MessageLocaleChoice {
  /** The language of the text: one of `available` (e.g. "nl"), or "en". Recorded as the delivery's `message_locale`. */
  locale: string;
  /** BCP 47 locale for dates, times and numbers and the message's `lang`: the tag that matched ("nl-BE"), or `locale`. */
  formatLocale: string;
  reason: LocaleReason;
}

export interface MessageLocaleInput {
  /** The person's language tag as stored (BCP 47, any case); null/empty = none. */
  contactLocale: string | null | undefined;
  /** The organisation's default language tag; null/empty = none. */
  organisationLocale: string | null | undefined;
  /** The languages that have text (canonical tags, e.g. "en", "nl", "pt"); "en" is assumed to be among them. */
  available: readonly string[];
}

/** The language subtag of a canonical tag ("nl-BE" → "nl"), or null when Intl cannot read it. */
function languageOf(tag: string): string | null {
  try {
    return new Intl.Locale(tag).language;
  } catch {
    return null;
  }
}

/** `tag` itself or its language, whichever has text first; null when neither has. */
function match(tag: string | null, available: ReadonlySet<string>): { locale: string; exact: boolean } | null {
  if (!tag) return null;
  if (available.has(tag)) return { locale: tag, exact: true };
  const language = languageOf(tag);
  return language && available.has(language) ? { locale: language, exact: false } : null;
}

/**
 * The language of one reader's message and why (module comment for the order). Malformed tags count as none.
 * Never throws.
 */
export function chooseMessageLocale(input: MessageLocaleInput): MessageLocaleChoice {
  const available = new Set(input.available);
  const contact = input.contactLocale ? canonicalLocale(input.contactLocale) : null;
  const own = match(contact, available);
  if (own && contact) return { locale: own.locale, formatLocale: contact, reason: own.exact ? 'contact_language' : 'base_language' };
  const organisation = input.organisationLocale ? canonicalLocale(input.organisationLocale) : null;
  const theirs = match(organisation, available);
  if (theirs && organisation) return { locale: theirs.locale, formatLocale: organisation, reason: 'organisation_default' };
  return { locale: 'en', formatLocale: 'en', reason: 'english' };
}

/**
 * The language a retry or replay of a claimed delivery is written in: the words of a message are fixed when its key
 * is claimed (DESIGN §3), so when the language chosen now differs from the one recorded at the claim, the recorded one
 * wins (dates then in that language's own default form). With nothing recorded (rows claimed before languages were
 * recorded) or the same language chosen again, the choice made now.
 */
export function keepClaimedLocale(
  claimed: { locale: string | null; reason: string | null } | null,
  now: MessageLocaleChoice,
): MessageLocaleChoice {
  if (!claimed?.locale || claimed.locale === now.locale) return now;
  const reason = (localeReasons as readonly string[]).includes(claimed.reason ?? '') ? (claimed.reason as LocaleReason) : now.reason;
  return { locale: claimed.locale, formatLocale: claimed.locale, reason };
}

const reasonWords: Record<LocaleReason, string> = {
  contact_language: "the person's language",
  base_language: "the person's language (its base language: no text for their regional variant)",
  organisation_default: "the organisation's default language (no text in the person's language)",
  english: "English, the last fallback (no text in the person's or the organisation's language)",
};

/**
 * Staff words for the language a delivery was written in: "Nederlands (nl) — the person's language". `locale` and
 * `reason` as recorded on the delivery; an unknown reason is shown without words. Language names are the language's
 * own (its endonym, CLDR via Intl.DisplayNames), as in the participant form.
 */
export function describeMessageLocale(locale: string, reason: string | null): string {
  let name = locale;
  try {
    name = new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
  } catch {
    name = locale;
  }
  const words = reason && (localeReasons as readonly string[]).includes(reason) ? reasonWords[reason as LocaleReason] : null;
  return `${name} (${locale})${words ? ` \u2014 ${words}` : ''}`;
}
