import { headers } from 'next/headers';
import { pageLanguageForRequest } from '@/emails/messages/page-language';
import { pageText } from '@/emails/messages/page-text';
import '@/app/styles/preferences.css';

/**
 * A preference link that is not valid (mistyped, cut off, or signed with another key): a plain message, no staff
 * links, in the browser's language (Accept-Language: the link leads to nobody whose language we know).
 */
export default async function PreferencesLinkNotFound() {
  const page = pageLanguageForRequest((await headers()).get('accept-language'));
  return (
    <main className="public-page" lang={page.lang} dir={page.dir}>
      <div className="public-card">
        <h1>{pageText(page, 'linkBrokenTitle')}</h1>
        <p>{pageText(page, 'linkBroken')}</p>
      </div>
    </main>
  );
}
