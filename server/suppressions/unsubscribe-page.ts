/**
 * The small HTML pages of `/u/<token>` (issue #10 §5): the confirmation question a GET shows, the answer to a
 * POST, and the 400/404 pages. Plain server-rendered HTML with its own CSS (the look of the person's
 * preferences page, app/styles/preferences.css `.public-card`) and no script at all: it must work with
 * JavaScript off, in any mail client's browser, at 375 px. Pure: strings in, a string out. Every value that
 * comes from a database row or the address bar is HTML-escaped ({@link escapeHtml}).
 *
 * The question and the answer are written in the person's language (`subject.page`: the catalog's `pages` messages,
 * emails/messages/page-language.ts — their language, its base, the organisation's default, English), with the page's
 * `lang` and `dir`. A link that leads to nobody (bad, expired, foreign, the person gone) is answered in the browser's
 * language ({@link linkProblemPage}; emails/messages/page-language.ts pageLanguageForRequest); a malformed POST, which
 * only mail providers send, is answered in English ({@link problemPage}).
 */

import { UNSUBSCRIBE_PAGE_CSP } from '@/domain/platform/security-headers';
import type { PreferenceCategory } from '@/domain/vocabulary';
import { pageText, type PageLanguage } from '@/emails/messages/page-text';

/** `s` safe as HTML text and inside a double-quoted attribute. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Response headers of every page: never cached or indexed, the token never sent on as a Referer, never framed. */
export const unsubscribePageHeaders: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex, nofollow',
  'x-content-type-options': 'nosniff',
  // No script may run; the only form posts back here; nobody may frame the button (clickjacking).
  'content-security-policy': UNSUBSCRIBE_PAGE_CSP,
};

const css = `
*{box-sizing:border-box}
html,body{margin:0;padding:0}
body{background:#f5f6f8;color:#1f2430;font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;font-size:15px;line-height:1.5}
main{min-height:100vh;padding:24px 16px;display:flex;justify-content:center;align-items:flex-start}
.card{width:min(560px,100%);background:#fff;border:1px solid #e2e5ea;border-radius:12px;padding:24px;display:flex;flex-direction:column;gap:14px}
h1{margin:0;font-size:22px;line-height:1.3;overflow-wrap:anywhere}
p{margin:0;overflow-wrap:anywhere}
form{margin:0}
button{font:inherit;font-weight:600;color:#fff;background:#2f5bd3;border:1px solid #2f5bd3;border-radius:8px;padding:10px 18px;min-height:44px;cursor:pointer}
button:hover{background:#2449b0}
button:focus-visible,a:focus-visible{outline:3px solid #9db5f0;outline-offset:2px}
a{color:#2f5bd3}
.note{color:#667085;font-size:14px}
.done{background:#dcf3e4;color:#1c6b3a;border-radius:8px;padding:10px 12px}
.problem{background:#fde1e1;color:#b42318;border-radius:8px;padding:10px 12px}
label{font-weight:600}
textarea{font:inherit;width:100%;min-height:80px;border:1px solid #c9ced6;border-radius:8px;padding:8px}
form.stack{display:flex;flex-direction:column;gap:10px}
button.secondary{background:#fff;color:#b42318;border-color:#b42318}
@media (max-width:480px){main{padding:12px 8px}.card{padding:16px}button{width:100%}}
`;

/** A whole page with this module's look (also the booking action pages, server/scheduling/action-page.ts): `body` is trusted HTML. */
export function htmlDocument(title: string, body: string, language: { lang: string; dir: 'ltr' | 'rtl' } = { lang: 'en', dir: 'ltr' }): string {
  return `<!doctype html>
<html lang="${escapeHtml(language.lang)}" dir="${language.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title>
<style>${css}</style>
</head>
<body>
<main>
<div class="card">
${body}
</div>
</main>
</body>
</html>
`;
}

/** What the pages name: the person, their organisation, the category, and the language the page is written in. */
export interface UnsubscribePageSubject {
  contactName: string;
  tenantName: string;
  category: PreferenceCategory;
  /** Path (or URL) of the person's preferences page, or null when it cannot be offered. */
  preferencesHref: string | null;
  page: PageLanguage;
}

/** The page message `key` with the subject's values, HTML-escaped; `{link}` becomes the preferences link. */
function text(s: UnsubscribePageSubject, key: Parameters<typeof pageText>[1], values: Record<string, string> = {}): string {
  const name = s.contactName.trim();
  const what = pageText(s.page, 'categoryName', { category: s.category });
  const LINK = '\uE000';
  const out = escapeHtml(pageText(s.page, key, { hasName: name ? 'yes' : 'no', name, tenantName: s.tenantName, what, link: LINK, ...values }));
  return s.preferencesHref ? out.replace(LINK, `<a href="${escapeHtml(s.preferencesHref)}">${escapeHtml(pageText(s.page, 'preferencesPageLink'))}</a>`) : out.replace(LINK, '');
}

/** `key` as a line with the preferences link, or nothing when there is no link to offer. */
function preferencesLine(s: UnsubscribePageSubject, key: 'unsubscribeOr' | 'changedMind'): string {
  return s.preferencesHref ? `<p>${text(s, key)}</p>` : '';
}

const essentialNote = (s: UnsubscribePageSubject) => `<p class="note">${text(s, 'essentialNote')}</p>`;

/**
 * GET: "Unsubscribe Ana from reminders from Studio Noord?" (in the person's language) with a plain form button that
 * POSTs `List-Unsubscribe=One-Click` to `action` (the same URL), and the preferences link. Changes nothing by itself.
 */
export function confirmPage(s: UnsubscribePageSubject, action: string): string {
  return htmlDocument(
    pageText(s.page, 'unsubscribeTitle', { what: pageText(s.page, 'categoryName', { category: s.category }) }),
    `<h1>${text(s, 'unsubscribeQuestion')}</h1>
<p>${text(s, 'unsubscribeEffect')}</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">${text(s, 'unsubscribeButton')}</button>
</form>
${preferencesLine(s, 'unsubscribeOr')}
${essentialNote(s)}`,
    s.page,
  );
}

/**
 * After a POST (200), and for a GET when the category is already empty: the confirmation, in the person's language.
 * @param since when the person was unsubscribed (ISO-8601 UTC), shown as a date in the page's language, or null.
 */
export function donePage(s: UnsubscribePageSubject, opts: { already: boolean; since: string | null }): string {
  const heading = text(s, 'unsubscribedTitle', { already: opts.already ? 'yes' : 'no' });
  const date = opts.already && opts.since ? sinceDate(opts.since, s.page.lang) : null;
  return htmlDocument(
    pageText(s.page, 'unsubscribedTitle', { already: opts.already ? 'yes' : 'no', what: pageText(s.page, 'categoryName', { category: s.category }) }),
    `<h1>${heading}</h1>
<p class="done" role="status">${date ? text(s, 'unsubscribedSince', { date }) : text(s, 'unsubscribedBody')}</p>
${preferencesLine(s, 'changedMind')}
${essentialNote(s)}`,
    s.page,
  );
}

/** The UTC calendar date of `iso` in `lang`'s long form ("3 August 2027", "3. August 2027"); the ISO date when unreadable. */
function sinceDate(iso: string, lang: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso.slice(0, 10);
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(d);
}

/**
 * A link that leads to nobody, in `page`'s language: `expired` (on `expiredAt`, ISO-8601 UTC, shown as a date),
 * `invalid` (tampered, cut off, another deployment's) or `gone` (the person is no longer on file); each says nothing
 * was changed and where to choose messages instead.
 */
export function linkProblemPage(kind: 'expired' | 'invalid' | 'gone', page: PageLanguage, expiredAt?: string | null): string {
  const keys = { expired: ['problemExpiredTitle', 'problemExpired'], invalid: ['problemInvalidTitle', 'problemInvalid'], gone: ['problemGoneTitle', 'problemGone'] } as const;
  const [titleKey, messageKey] = keys[kind];
  const title = pageText(page, titleKey);
  const date = expiredAt ? sinceDate(expiredAt, page.lang) : '';
  return htmlDocument(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p class="problem" role="alert">${escapeHtml(pageText(page, messageKey, { date }))}</p>
<p>${escapeHtml(pageText(page, 'nothingChanged'))}</p>`,
    page,
  );
}

/**
 * A 400 page for a malformed request (only mail providers POST here by hand): `message` (our own words, escaped),
 * "Nothing was changed." and — unless `message` already says
 * it (`hint: false`) — where to choose messages instead.
 */
export function problemPage(title: string, message: string, opts: { hint?: boolean } = {}): string {
  const hint = opts.hint === false ? '' : ' To choose which messages you get, use the “Choose how … reaches you” link at the end of a recent message from the organiser.';
  return htmlDocument(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p class="problem" role="alert">${escapeHtml(message)}</p>
<p>Nothing was changed.${hint}</p>`,
  );
}
