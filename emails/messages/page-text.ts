/**
 * The words of the pages a person opens from a message — their preferences page and the one-click unsubscribe pages —
 * from the catalog's `pages` section (emails/messages/en.ts and every shipped language; checked like the messages by
 * test/unit/message-catalog.test.ts). This module holds only the formatter and types, so the preferences form (a
 * client component) gets one language's words as data without bundling every catalog; the server picks the language
 * (emails/messages/page-language.ts).
 */
import { IntlMessageFormat } from 'intl-messageformat';
import type { Catalog } from './en';

/** The `pages` messages of one language (ICU MessageFormat sources). */
export type PageWords = Catalog['pages'];

/** One reader's page language: the catalog language, the BCP 47 tag for plurals and `lang`, the direction, the words. */
export interface PageLanguage {
  /** The catalog language of the words ("nl"). */
  language: string;
  /** BCP 47 tag for `lang` and plural rules ("nl-BE"). */
  lang: string;
  dir: 'ltr' | 'rtl';
  words: PageWords;
}

const compiled = new Map<string, IntlMessageFormat>();

/**
 * Formats the page message `key` of `l` with `values` (strings and numbers; a select takes its option's name, e.g.
 * `{ category: 'reminders' }`). Returns plain text (callers escape it for HTML).
 * @throws Error from intl-messageformat when a value the message needs is missing (the catalog test formats every
 *   message with every variable, so a shipped message cannot miss one its callers pass).
 */
export function pageText(l: PageLanguage, key: keyof PageWords, values: Record<string, string | number> = {}): string {
  const source = l.words[key];
  const id = `${l.lang}\u0000${source}`;
  let format = compiled.get(id);
  if (!format) {
    format = new IntlMessageFormat(source, l.lang, undefined, { ignoreTag: true });
    if (compiled.size >= 2000) compiled.clear();
    compiled.set(id, format);
  }
  return String(format.format(values));
}
