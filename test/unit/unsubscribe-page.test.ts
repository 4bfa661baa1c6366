import { describe, expect, it } from 'vitest';
import { previewData, renderReminderEmail } from '@/emails';
import { pageLanguageFor, pageLanguageForRequest } from '@/emails/messages/page-language';
import { confirmPage, donePage, escapeHtml, linkProblemPage, problemPage } from '@/server/suppressions/unsubscribe-page';

const subject = { contactName: 'Ana <script>alert(1)</script>', tenantName: 'Studio "Noord" & Co', category: 'reminders' as const, preferencesHref: '/preferences/a.b.c', page: pageLanguageFor('en', 'en') };

describe('unsubscribe pages (no script, everything escaped)', () => {
  it('the question and a plain form that POSTs List-Unsubscribe=One-Click to the same URL, plus the preferences link', () => {
    const html = confirmPage(subject, '/u/x.y.z');
    expect(html).toContain('<h1>Unsubscribe Ana &lt;script&gt;alert(1)&lt;/script&gt; from reminders from Studio &quot;Noord&quot; &amp; Co?</h1>');
    expect(html).toContain('<form method="post" action="/u/x.y.z">');
    expect(html).toContain('<input type="hidden" name="List-Unsubscribe" value="One-Click">');
    expect(html).toContain('<button type="submit">Unsubscribe</button>');
    expect(html).toContain('<a href="/preferences/a.b.c">your preferences page</a>');
    expect(html).not.toContain('<script');
    expect(html).toContain('name="viewport"');
  });
  it('done and already; without a name it speaks to "you"', () => {
    expect(donePage(subject, { already: false, since: null })).toContain('<h1>Unsubscribed from reminders</h1>');
    const already = donePage({ ...subject, contactName: '' }, { already: true, since: '2027-08-03T12:00:00.000Z' });
    expect(already).toContain('<h1>You are unsubscribed from reminders</h1>');
    expect(already).toContain('You have not been getting reminders from Studio &quot;Noord&quot; &amp; Co since August 3, 2027.');
  });
  it('in the person’s language, by the messages’ fallback: nl-BE reads Dutch, an unknown language the organisation’s default, Hebrew right to left', () => {
    const dutch = confirmPage({ ...subject, page: pageLanguageFor('nl-BE', 'en') }, '/u/x.y.z');
    expect(dutch).toContain('<html lang="nl-BE" dir="ltr">');
    expect(dutch).toContain('<h1>Ana &lt;script&gt;alert(1)&lt;/script&gt; afmelden voor herinneringen van Studio &quot;Noord&quot; &amp; Co?</h1>');
    expect(dutch).toContain('<button type="submit">Afmelden</button>');
    expect(dutch).toContain('<a href="/preferences/a.b.c">je voorkeurenpagina</a>');
    expect(dutch).not.toMatch(/(?<!List-)Unsubscribe|preferences page|always reach you/);
    const german = donePage({ ...subject, contactName: '', page: pageLanguageFor('xx', 'de') }, { already: true, since: '2027-08-03T12:00:00.000Z' });
    expect(german).toContain('Sie erhalten seit dem 3. August 2027 keine Erinnerungen mehr von Studio &quot;Noord&quot; &amp; Co.');
    const hebrew = donePage({ ...subject, page: pageLanguageFor('he', 'en') }, { already: false, since: null });
    expect(hebrew).toContain('<html lang="he" dir="rtl">');
    expect(hebrew).toContain('הוסרת מקבלת תזכורות');
    // Without a preferences link the line that would carry it is left out, in every language.
    expect(donePage({ ...subject, preferencesHref: null, page: pageLanguageFor('fr', 'en') }, { already: false, since: null })).not.toMatch(/<a |\uE000/);
  });
  it('a link that leads to nobody is answered in the browser’s language (Accept-Language), else English', () => {
    expect(pageLanguageForRequest('fr-CH, fr;q=0.9, en;q=0.8').language).toBe('fr');
    expect(pageLanguageForRequest('da, nl-BE;q=0.7, en;q=0.3').language).toBe('nl');
    expect(pageLanguageForRequest('ja').language).toBe('en');
    expect(pageLanguageForRequest(null).language).toBe('en');
    const expired = linkProblemPage('expired', pageLanguageForRequest('de-AT'), '2027-08-02T00:00:00.000Z');
    expect(expired).toContain('<html lang="de" dir="ltr">');
    expect(expired).toContain('<h1>Dieser Abmeldelink ist abgelaufen</h1>');
    expect(expired).toContain('Er gilt seit dem 2. August 2027 nicht mehr.');
    expect(expired).toContain('Es wurde nichts geändert.');
    expect(linkProblemPage('invalid', pageLanguageForRequest(null))).toContain('<h1>This unsubscribe link does not work</h1>');
    expect(linkProblemPage('gone', pageLanguageForRequest('he-IL'))).toContain('dir="rtl"');
  });
  it('problems say nothing was changed', () => {
    const html = problemPage('This unsubscribe link does not work', 'It <b>was</b> cut off.');
    expect(html).toContain('It &lt;b&gt;was&lt;/b&gt; cut off.');
    expect(html).toContain('Nothing was changed.');
    expect(escapeHtml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#39;');
  });
});

describe('the email footer link', () => {
  it('"Unsubscribe from <category>" in HTML and text when the data has an unsubscribeUrl; absent otherwise', async () => {
    const base = { ...previewData['booking-confirmed'], preferencesUrl: 'https://punctual.example/preferences/p' };
    const withLink = await renderReminderEmail('booking-confirmed', { ...base, unsubscribeUrl: 'https://punctual.example/u/t.o.k', unsubscribeCategory: 'booking_updates' } as never);
    expect(withLink.html).toMatch(/<a href="https:\/\/punctual\.example\/u\/t\.o\.k"[^>]*>Unsubscribe from booking updates<\/a>/);
    expect(withLink.text).toContain('Unsubscribe from booking updates https://punctual.example/u/t.o.k');
    const without = await renderReminderEmail('booking-confirmed', base);
    expect(without.html).not.toContain('Unsubscribe');
    expect(without.text).not.toContain('Unsubscribe');
  });
});
