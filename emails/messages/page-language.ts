/**
 * Which language a person's own pages (preferences, unsubscribe) are written in: the same fallback as their messages
 * (domain/messages/locale-fallback.ts — their language, its base language, the organisation's default, English), so the
 * page a Dutch reader opens from a Dutch reminder is Dutch.
 */
import Negotiator from 'negotiator';
import { resolveLocale } from '@/domain/format-time';
import { chooseMessageLocale } from '@/domain/messages/locale-fallback';
import { localeDirection } from '@/domain/text-direction';
import { catalogLocales, catalogs, type CatalogLocale } from './index';
import type { PageLanguage } from './page-text';

/**
 * The page language of a person whose language tag is `contactLocale` (BCP 47, any case; null = none) in an
 * organisation whose default is `organisationLocale`. Never throws (malformed tags count as none).
 */
export function pageLanguageFor(contactLocale: string | null | undefined, organisationLocale: string | null | undefined): PageLanguage {
  const choice = chooseMessageLocale({ contactLocale, organisationLocale, available: catalogLocales });
  const language = choice.locale as CatalogLocale;
  return { language, lang: resolveLocale(choice.formatLocale), dir: localeDirection(language), words: catalogs[language].pages };
}

/**
 * The page language for someone whose link did not lead to a person (a broken, expired or foreign link): the
 * browser's `Accept-Language` header (RFC 9110 §12.5.4, q-weighted; read with the `negotiator` package), the best
 * shipped language it accepts — "nl-BE, en;q=0.5" → Dutch — else English. `header`: the raw value or null.
 */
export function pageLanguageForRequest(header: string | null | undefined): PageLanguage {
  const best = header ? new Negotiator({ headers: { 'accept-language': header } }).language([...catalogLocales]) : undefined;
  return pageLanguageFor(best ?? 'en', null);
}
