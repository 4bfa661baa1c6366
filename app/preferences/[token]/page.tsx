import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDb } from '@/db/client';
import { PublicPreferencesForm } from '@/components/preferences/PublicPreferencesForm';
import { readPreferencesByToken } from '@/server/notifications/contact-preferences';
import { headers } from 'next/headers';
import { pageLanguageFor, pageLanguageForRequest } from '@/emails/messages/page-language';
import { pageText } from '@/emails/messages/page-text';
import { notSavedFieldOption } from '@/domain/notifications/preference-form';
import { preferencesSecret } from '@/server/sending/preference-link';
import '@/app/styles/preferences.css';

export const dynamic = 'force-dynamic';
// The token in the address is the credential: never send it on as a Referer, and keep the page out of indexes.

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * A person's own preference page, reached through the signed link in every message (server/sending/preference-link.ts):
 * no sign-in, outside the staff shell. The token is verified with the server's preference key; anything that is
 * not a valid link is a plain 404. The form saves to POST /api/preferences/<token> (by script, or as a plain form
 * without one: then the answer comes back here as `saved=1`, `stale=1` or `error=…`).
 */
/**
 * The page's title in the person's language (the token is read again: metadata cannot share the page's props); for a
 * link that leads to nobody, the broken-link title in the browser's language.
 */
export async function generateMetadata({ params }: { params: Promise<{ token: string }> }): Promise<Metadata> {
  const base: Metadata = { referrer: 'no-referrer', robots: { index: false, follow: false } };
  let view: Awaited<ReturnType<typeof readPreferencesByToken>> = null;
  try {
    view = await readPreferencesByToken(getDb(), (await params).token, preferencesSecret());
  } catch {
    view = null;
  }
  if (view) return { ...base, title: pageText(pageLanguageFor(view.contactLocale, view.tenantLocale), 'preferencesTitle') };
  return { ...base, title: pageText(pageLanguageForRequest((await headers()).get('accept-language')), 'linkBrokenTitle') };
}

export default async function PreferencesPage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await params;
  const sp = await searchParams;
  let secret: string;
  try {
    secret = preferencesSecret();
  } catch {
    notFound();
  }
  const view = await readPreferencesByToken(getDb(), token, secret);
  if (!view) notFound();
  const page = pageLanguageFor(view.contactLocale, view.tenantLocale);
  const t = (key: Parameters<typeof pageText>[1], values?: Record<string, string | number>) => pageText(page, key, values);
  // A refused plain form post names only its field (one of the catalog's options): never text from the address bar.
  const error = first(sp.error);
  const initial = first(sp.stale)
    ? { kind: 'stale' as const, message: t('stale') }
    : first(sp.saved)
      ? { kind: 'saved' as const, message: t('saved') }
      : error
        ? { kind: 'error' as const, message: pageText(page, 'notSaved', { field: notSavedFieldOption(first(sp.field)) }), field: first(sp.field)?.slice(0, 40) }
        : null;
  const name = view.name.trim();
  return (
    <main className="public-page" lang={page.lang} dir={page.dir}>
      <div className="public-card">
        <h1>{t('preferencesTitle')}</h1>
        <p>
          {t('preferencesIntro', { hasName: name ? 'yes' : 'no', name, tenantName: view.tenantName })} {t('essentialNote')}
        </p>
        <PublicPreferencesForm token={token} view={view} initial={initial} page={page} />
      </div>
    </main>
  );
}
