/**
 * What the /templates overview and the editor start from: per message kind and language Punctual ships text for,
 * whether the organisation has its own published text (which version), a draft, or uses Punctual's text; and
 * Punctual's built-in words of a kind laid out as an editable draft (subject, Markdown body, SMS text), so an
 * organisation that writes its first text starts from the words its people get today.
 *
 * The overview also counts the SMS segments of the text in effect per language (the kind's sample event, the
 * organisation's name, a preferences link of real length): what one text message of that kind costs, next to the
 * organisation's limit (settings, tenants.sms_segment_limit).
 */
import type { DbOrTx } from '@/db/client';
import { tenantTextSummary } from '@/db/queries/messages/message-texts';
import { effectiveVersion } from '@/domain/messages/text-versions';
import type { StaffDraft } from '@/domain/messages/staff-text';
import { templateIds, type TemplateId } from '@/domain/vocabulary';
import { catalogLocales, catalogs, type CatalogLocale } from '@/emails/messages';
import { previewData, type TemplateData } from '@/emails';
import { renderSmsText } from '@/emails/sms';
import { samplePreferencesLink, staffTextSms } from '@/emails/staff-text';
import { countSmsSegments, type SmsSegmentCount } from '@/domain/sending/sms-segments';

/** One (kind, language) of the overview. */
export interface TextState {
  kind: TemplateId;
  locale: CatalogLocale;
  /** The organisation's version in effect, or null: Punctual's text is sent. */
  published: number | null;
  /** True when a saved draft waits to be published. */
  draft: boolean;
  /**
   * The SMS of the text in effect with the kind's sample values (null: it cannot be rendered): `segments` of its words
   * alone (what the organisation's limit is on) and `withLink`, of the whole SMS with the preferences link the sender
   * appends (what the provider bills).
   */
  sms: { segments: number; withLink: number; encoding: SmsSegmentCount['encoding'] } | null;
}

/**
 * Every kind × every built-in language of `tenantId`, kinds in {@link templateIds} order, languages in
 * {@link catalogLocales} order (English first).
 */
export async function textOverview(db: DbOrTx, tenantId: string, tenantName = 'Your organisation'): Promise<TextState[]> {
  const rows = await tenantTextSummary(db, tenantId);
  return templateIds.flatMap((kind) =>
    catalogLocales.map((locale) => {
      const mine = rows.filter((r) => r.kind === kind && r.locale === locale);
      const own = effectiveVersion(mine);
      return { kind, locale, published: own?.version ?? null, draft: mine.some((r) => r.status === 'draft'), sms: sampleSms(kind, locale, tenantName, own?.sms ?? null) };
    }),
  );
}

/** The segments of the SMS of `kind` in `locale` with sample values: the organisation's text `own` when it has one, else Punctual's. */
function sampleSms(kind: TemplateId, locale: CatalogLocale, tenantName: string, own: string | null): TextState['sms'] {
  const render = (preferencesUrl: string | null): string => {
    const data = { ...previewData[kind], tenantName, locale, preferencesUrl } as TemplateData;
    return own !== null ? staffTextSms(kind, data as Parameters<typeof staffTextSms>[1], { version: 0, subject: '', body: '', sms: own }) : renderSmsText(kind, data);
  };
  try {
    const words = countSmsSegments(render(null));
    const all = countSmsSegments(render(samplePreferencesLink()));
    return { segments: words.segments, withLink: all.segments, encoding: all.encoding };
  } catch {
    return null;
  }
}

/**
 * Punctual's built-in words of `kind` in `locale` as a draft: its subject, its body sentences (intro, the calendar
 * and contact lines where the kind has them, closing) as paragraphs, and its SMS text. The layout's own parts
 * (greeting, When / Where rows, buttons, footer) are not text staff write, so they are not in it.
 */
export function builtInDraft(kind: TemplateId, locale: CatalogLocale): StaffDraft {
  const t = catalogs[locale][kind] as Record<string, string | undefined>;
  const body = [t.intro, t.calendar, t.contact, t.closing].filter((s): s is string => !!s).join('\n\n');
  return { subject: t.subject ?? '', body, sms: t.sms ?? '' };
}
