/**
 * Punctual's built-in message text (DESIGN §3 "Message text"): for every message kind its subject, email wording and
 * SMS text, per language, in ICU MessageFormat (formatted with `intl-messageformat`: plurals by the language's own
 * CLDR rules, `select` for the event's role and all-day-ness). One file per language; each is typed as
 * {@link Catalog} (the English keys), so a missing or extra key is a type error, and
 * test/unit/message-catalog.test.ts checks every message's ICU syntax and that it has exactly the English
 * placeholders.
 *
 * Languages and register (each written as a native speaker writes to a customer, not word for word):
 * - en — English, plain "you" (the reference text).
 * - nl — Dutch, informal "je" (as Dutch studios and shops write).
 * - de — German, formal "Sie".
 * - fr — French, formal "vous"; French spacing before ":" "!" ";".
 * - es — Spanish (Spain), informal "tú".
 * - it — Italian, informal "tu".
 * - pt — Brazilian Portuguese, "você".
 * - he — Hebrew, right to left; gender-neutral wording (the reader's gender is unknown).
 * Every language avoids words that would have to agree with a reader's or a title's gender.
 *
 * Variables (all messages of a kind may use them; each message uses the ones its English text uses):
 * - `eventTitle`, `tenantName`, `name`, `location`, `reason` — text people typed: passed as `{ typed }` so they are
 *   isolated for direction (domain/text-direction.ts) in the subject, body and SMS, never mixed into the sentence.
 * - `when`, `time`, `was`, `now` — dates and times already formatted by domain/format-time.ts in the message's
 *   locale and the event's zone (strings).
 * - `allDay` — "yes" | "no"; `category` — "reminders" | "booking_updates" | "announcements" | "none"; `count` — a number (plural).
 * - `link`, `url` — a link (`{ link }` renders as an anchor in HTML) or a URL as text (SMS).
 *
 * Whole sentences only: a message is one or more complete sentences with placeholders, never a sentence joined
 * from pieces in code; where a piece is optional (the guest line, the place in an SMS) it is a sentence of its own.
 */
import { IntlMessageFormat, PART_TYPE } from 'intl-messageformat';
import type { TimeWords } from '@/domain/format-time';
import { resolveLocale } from '@/domain/format-time';
import { chooseMessageLocale } from '@/domain/messages/locale-fallback';
import { isolateTyped, localeDirection, type TextDirection } from '@/domain/text-direction';
import de from './de';
import en, { type Catalog } from './en';
import es from './es';
import fr from './fr';
import he from './he';
import it from './it';
import nl from './nl';
import pt from './pt';

export type { Catalog };

/** Every language Punctual ships text for, by its BCP 47 language tag. English first (the reference). */
export const catalogs: Readonly<Record<'en' | 'nl' | 'de' | 'fr' | 'es' | 'it' | 'pt' | 'he', Catalog>> = { en, nl, de, fr, es, it, pt, he };

export type CatalogLocale = keyof typeof catalogs;

/** The language tags that have text ("en", "nl", …), for the locale fallback (domain/messages/locale-fallback.ts). */
export const catalogLocales = Object.keys(catalogs) as CatalogLocale[];

/** Text a person typed, kept whole and isolated for direction wherever it goes. */
export interface TypedPart {
  typed: string;
}
/** A link: an anchor in HTML, the URL itself in text. */
export interface LinkPart {
  link: string;
}
/** One piece of a formatted message: fixed text (the catalog's words, dates), typed text, or a link. */
export type SentencePart = string | TypedPart | LinkPart;
/** A formatted message as its pieces, in order (adjacent fixed text merged). */
export type Sentence = SentencePart[];
/** A value for a placeholder. */
export type MessageValue = string | number | TypedPart | LinkPart;

const FORMATTER_LIMIT = 2000;
const formatters = new Map<string, IntlMessageFormat>();

/** The compiled message `source` for `locale` (cached: compiling is the costly part). */
function compiled(locale: string, source: string): IntlMessageFormat {
  const key = `${locale}\u0000${source}`;
  let f = formatters.get(key);
  if (!f) {
    if (formatters.size >= FORMATTER_LIMIT) formatters.clear();
    // ignoreTag: "<" in a message is text, never rich-text markup.
    f = new IntlMessageFormat(source, locale, undefined, { ignoreTag: true });
    formatters.set(key, f);
  }
  return f;
}

/**
 * Formats the ICU message `source` in `locale` with `values`, as pieces: the catalog's words (and plain string
 * values such as dates) as strings, `{ typed }` and `{ link }` values as themselves.
 * @throws Error from intl-messageformat when a placeholder has no value or `source` is not valid ICU (the catalog
 *   test makes sure neither happens for the built-in text).
 */
export function formatSentence(locale: string, source: string, values: Record<string, MessageValue> = {}): Sentence {
  const out: Sentence = [];
  for (const part of compiled(locale, source).formatToParts<TypedPart | LinkPart>(values)) {
    const piece: SentencePart = part.type === PART_TYPE.literal ? part.value : (part.value as TypedPart | LinkPart);
    const last = out.length > 0 ? out[out.length - 1] : undefined;
    if (typeof piece === 'string' && typeof last === 'string') out[out.length - 1] = last + piece;
    else if (piece !== '') out.push(piece);
  }
  return out;
}

/** The sentence as one plain string: typed parts isolated when needed (domain/text-direction.ts), links as their URL. */
export function sentenceText(sentence: Sentence, dir: TextDirection): string {
  return sentence.map((p) => (typeof p === 'string' ? p : 'typed' in p ? isolateTyped(p.typed, dir) : p.link)).join('');
}

/** Everything a template needs to write in the reader's language. */
export interface MessageContext {
  /** The language of the text (a {@link catalogs} key). */
  language: CatalogLocale;
  /** BCP 47 locale of dates, numbers and plurals and the message's `lang` (e.g. "nl-BE", "en-GB"). */
  lang: string;
  dir: TextDirection;
  /** The language's catalog. */
  text: Catalog;
  /** The words format-time adds in parentheses ("all day", "your time"). */
  words: TimeWords;
  /** Formats one of this language's messages as pieces. */
  sentence(source: string, values?: Record<string, MessageValue>): Sentence;
  /** Formats one of this language's messages as plain text (subjects, SMS). */
  plain(source: string, values?: Record<string, MessageValue>): string;
}

const contexts = new Map<string, MessageContext>();

/**
 * The message context of a reader's locale (cached per locale): the text's language by the locale fallback without
 * an organisation default (domain/messages/locale-fallback.ts: the tag, then its base language, then English — the
 * send path has already applied the organisation's default when it built the data), the locale dates are written in
 * (the reader's tag when its language has text, else that language's: one style per message; unsupported by this
 * runtime's Intl → "en"), and the direction of that language.
 */
export function messageContext(locale: string): MessageContext {
  let found = contexts.get(locale);
  if (!found) {
    const choice = chooseMessageLocale({ contactLocale: locale, organisationLocale: null, available: catalogLocales });
    const language = choice.locale as CatalogLocale;
    const lang = resolveLocale(choice.formatLocale);
    const dir = localeDirection(language);
    const text = catalogs[language];
    const sentence = (source: string, values?: Record<string, MessageValue>) => formatSentence(lang, source, values);
    found = {
      language,
      lang,
      dir,
      text,
      words: { allDay: text.common.allDay, yourTime: text.common.yourTime },
      sentence,
      plain: (source, values) => sentenceText(sentence(source, values), dir),
    };
    if (contexts.size >= 1000) contexts.clear();
    contexts.set(locale, found);
  }
  return found;
}
