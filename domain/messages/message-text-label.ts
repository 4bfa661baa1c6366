/**
 * Staff words for which text a delivery's message used (DESIGN §3 "Message text": fixed when its message key is
 * claimed, recorded on the delivery as `message_locale`, `locale_reason` and `message_text_version`): Punctual's
 * built-in text or the organisation's own version N, and the language with why it was chosen. Pure. Whole phrases
 * per case (no sentence assembled from parts), English as the rest of the staff UI.
 */
import { localeReasons, type LocaleReason } from './locale-fallback';

/** What a delivery records about its words (null on webhooks, which carry no text, and on rows claimed before this was recorded). */
export interface MessageTextFacts {
  messageLocale: string | null;
  localeReason: string | null;
  messageTextVersion: number | null;
}

/**
 * "Your text, version 2" or "Punctual's built-in text"; null when the delivery records no language (a webhook, or a
 * message claimed before languages were recorded — which text it used is not known).
 */
export function messageTextLabel(f: MessageTextFacts): string | null {
  if (!f.messageLocale) return null;
  return f.messageTextVersion !== null ? `Your text, version ${f.messageTextVersion}` : 'Punctual’s built-in text';
}

const shortReasons: Record<LocaleReason, string> = {
  contact_language: 'their language',
  base_language: 'their base language',
  organisation_default: 'your default language',
  english: 'English fallback',
};

/**
 * One short line for a list cell: "Your text v2 · nl, their language" / "Built-in text · en, English fallback"; null as
 * {@link messageTextLabel}.
 */
export function messageTextShort(f: MessageTextFacts): string | null {
  if (!f.messageLocale) return null;
  const text = f.messageTextVersion !== null ? `Your text v${f.messageTextVersion}` : 'Built-in text';
  const reason = f.localeReason && (localeReasons as readonly string[]).includes(f.localeReason) ? shortReasons[f.localeReason as LocaleReason] : null;
  return reason ? `${text} · ${f.messageLocale}, ${reason}` : `${text} · ${f.messageLocale}`;
}
