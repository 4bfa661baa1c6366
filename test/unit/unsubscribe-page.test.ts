import { describe, expect, it } from 'vitest';
import { previewData, renderReminderEmail } from '@/emails';
import { confirmPage, donePage, escapeHtml, problemPage } from '@/server/suppressions/unsubscribe-page';

const subject = { contactName: 'Ana <script>alert(1)</script>', tenantName: 'Studio "Noord" & Co', categoryWords: 'reminders', preferencesHref: '/preferences/a.b.c' };

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
    expect(already).toContain('You will no longer get reminders from Studio &quot;Noord&quot; &amp; Co since 2027-08-03.');
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
