/**
 * The small HTML pages of `/a/<token>` (the booking action links, server/sending/action-link.ts): the question a GET
 * shows, the answer to a POST, and the 400/404 pages. Plain server-rendered HTML, no script (works with JavaScript
 * off, in any mail client's browser, at 375 px), with the look of the unsubscribe pages
 * (server/suppressions/unsubscribe-page.ts `htmlDocument`). Every word comes from the catalog's `pages` section in
 * the person's language (emails/messages/page-language.ts); every value from a row or the address bar is escaped.
 * Pure: strings in, a string out.
 */
import type { ActionLinkAnswer } from '@/domain/scheduling/attendance';
import { pageText, type PageLanguage } from '@/emails/messages/page-text';
import { escapeHtml, htmlDocument } from '@/server/suppressions/unsubscribe-page';

/** What the pages name: the person, the organisation, the event (its start already formatted), the page language. */
export interface ActionPageSubject {
  contactName: string;
  tenantName: string;
  eventTitle: string;
  /** The event's start in its own zone, formatted in the page language ("Sun 28 Mar, 11:00 CEST"). */
  when: string;
  page: PageLanguage;
}

const LINK = '\uE000';

/** Page message `key`, escaped, with the subject's values; `{link}` becomes `link` (trusted HTML) when given. */
function text(s: ActionPageSubject, key: Parameters<typeof pageText>[1], values: Record<string, string> = {}, link?: string): string {
  const name = s.contactName.trim();
  const out = escapeHtml(pageText(s.page, key, { hasName: name ? 'yes' : 'no', name, tenantName: s.tenantName, eventTitle: s.eventTitle, when: s.when, link: LINK, ...values }));
  return out.replace(LINK, link ?? '');
}

/**
 * GET: the question for `answer` with one form button POSTing to `action` (this same URL) — for "I can't come" with
 * an optional reason field — and a link to the other answer's page (`otherHref`, or none). Changes nothing.
 */
export function askPage(s: ActionPageSubject, answer: ActionLinkAnswer, action: string, otherHref: string | null): string {
  const confirm = answer === 'confirmed';
  const title = pageText(s.page, confirm ? 'actionConfirmTitle' : 'actionDeclineTitle');
  const form = confirm
    ? `<form method="post" action="${escapeHtml(action)}">
<button type="submit">${text(s, 'actionConfirmButton')}</button>
</form>`
    : `<form class="stack" method="post" action="${escapeHtml(action)}">
<label for="reason">${text(s, 'actionReason')}</label>
<textarea id="reason" name="reason" maxlength="500" rows="3"></textarea>
<button type="submit" class="secondary">${text(s, 'actionDeclineButton')}</button>
</form>`;
  const other = otherHref
    ? `<p>${text(s, 'actionSwitch', { answer }, `<a href="${escapeHtml(otherHref)}">${text(s, 'actionSwitchLink', { answer })}</a>`)}</p>`
    : '';
  return htmlDocument(
    title,
    `<h1>${text(s, confirm ? 'actionConfirmQuestion' : 'actionDeclineQuestion')}</h1>
<p>${text(s, confirm ? 'actionConfirmEffect' : 'actionDeclineEffect')}</p>
${form}
${other}`,
    s.page,
  );
}

/** After a POST (and a GET when the answer was already given): "Thank you — see you there" / "Your place is cancelled". */
export function donePage(s: ActionPageSubject, answer: ActionLinkAnswer, already: boolean): string {
  const values = { answer, already: already ? 'yes' : 'no' };
  return htmlDocument(
    pageText(s.page, 'actionDoneTitle', values),
    `<h1>${text(s, 'actionDoneTitle', values)}</h1>
<p class="done" role="status">${text(s, 'actionDoneBody', values)}</p>`,
    s.page,
  );
}

/** The answer cannot be given any more (`reason`: event_cancelled | event_over | booking_cancelled). Nothing changed. */
export function refusedPage(s: ActionPageSubject, reason: string): string {
  const title = pageText(s.page, 'actionRefusedTitle');
  return htmlDocument(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p class="problem" role="alert">${text(s, 'actionRefused', { reason })}</p>
<p>${escapeHtml(pageText(s.page, 'nothingChanged'))}</p>`,
    s.page,
  );
}

/** A link that leads nowhere, in `page`'s language: expired (on `date`, already formatted), invalid, or gone. */
export function actionLinkProblemPage(kind: 'expired' | 'invalid' | 'gone' | 'reason', page: PageLanguage, date = ''): string {
  const keys = {
    expired: ['actionExpiredTitle', 'actionExpired'],
    invalid: ['actionInvalidTitle', 'actionInvalid'],
    gone: ['actionGoneTitle', 'actionGone'],
    reason: ['actionReasonRefusedTitle', 'actionReasonRefused'],
  } as const;
  const [titleKey, messageKey] = keys[kind];
  const title = pageText(page, titleKey);
  return htmlDocument(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p class="problem" role="alert">${escapeHtml(pageText(page, messageKey, { date }))}</p>
<p>${escapeHtml(pageText(page, 'nothingChanged'))}</p>`,
    page,
  );
}
