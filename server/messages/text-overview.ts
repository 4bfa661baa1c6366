/**
 * What the /templates overview and the editor start from: per message kind and language Punctual ships text for,
 * whether the organisation has its own published text (which version), a draft, or uses Punctual's text; and
 * Punctual's built-in words of a kind laid out as an editable draft (subject, Markdown body, SMS text), so an
 * organisation that writes its first text starts from the words its people get today.
 */
import type { DbOrTx } from '@/db/client';
import { tenantTextSummary } from '@/db/queries/messages/message-texts';
import { effectiveVersion } from '@/domain/messages/text-versions';
import type { StaffDraft } from '@/domain/messages/staff-text';
import { templateIds, type TemplateId } from '@/domain/vocabulary';
import { catalogLocales, catalogs, type CatalogLocale } from '@/emails/messages';

/** One (kind, language) of the overview. */
export interface TextState {
  kind: TemplateId;
  locale: CatalogLocale;
  /** The organisation's version in effect, or null: Punctual's text is sent. */
  published: number | null;
  /** True when a saved draft waits to be published. */
  draft: boolean;
}

/**
 * Every kind × every built-in language of `tenantId`, kinds in {@link templateIds} order, languages in
 * {@link catalogLocales} order (English first).
 */
export async function textOverview(db: DbOrTx, tenantId: string): Promise<TextState[]> {
  const rows = await tenantTextSummary(db, tenantId);
  return templateIds.flatMap((kind) =>
    catalogLocales.map((locale) => {
      const mine = rows.filter((r) => r.kind === kind && r.locale === locale);
      return { kind, locale, published: effectiveVersion(mine)?.version ?? null, draft: mine.some((r) => r.status === 'draft') };
    }),
  );
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
