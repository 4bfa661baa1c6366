/**
 * The pages a person opens from a message (preferences, unsubscribe) speak their language: every `pages` message of
 * every shipped language other than English reads differently from the English one with the same values (no English
 * sentence left behind), the language follows the messages' fallback, and the read-back of their preferences is
 * written from those messages.
 */
import { describe, expect, it } from 'vitest';
import { describeOwnPreferences } from '@/domain/notifications/preference-form';
import { catalogLocales, catalogs } from '@/emails/messages';
import { pageLanguageFor } from '@/emails/messages/page-language';
import { pageText, type PageWords } from '@/emails/messages/page-text';

const values = {
  hasName: 'yes',
  name: 'Ana',
  tenantName: 'Studio Noord',
  category: 'booking_updates',
  what: 'x',
  channel: 'sms',
  channels: 'both',
  phone: '+31••••••678',
  zone: 'Europe/Amsterdam',
  source: 'tenant',
  start: '22:00',
  end: '07:00',
  date: '3 Aug 2027',
  field: 'quietHours',
  already: 'yes',
  link: 'LINK',
  // The booking action pages.
  eventTitle: 'Pottery evening',
  when: 'Sun 28 Mar, 11:00 CEST',
  answer: 'declined',
  reason: 'event_over',
};

describe('the pages a person opens from a message', () => {
  const english = pageLanguageFor('en', null);
  it.each(catalogLocales.filter((l) => l !== 'en'))('%s: no page message reads as the English one', (language) => {
    const page = pageLanguageFor(language, null);
    expect(page.language).toBe(language);
    for (const key of Object.keys(catalogs.en.pages) as (keyof PageWords)[]) {
      expect(pageText(page, key, values), `${language} pages.${key}`).not.toBe(pageText(english, key, values));
    }
  });

  it('follows the messages’ fallback: the person’s language, its base, the organisation’s default, English; Hebrew is right to left', () => {
    expect(pageLanguageFor('nl-BE', 'de')).toMatchObject({ language: 'nl', lang: 'nl-BE', dir: 'ltr' });
    expect(pageLanguageFor('pt-BR', 'de')).toMatchObject({ language: 'pt', lang: 'pt-BR' });
    expect(pageLanguageFor('xx', 'de')).toMatchObject({ language: 'de', lang: 'de' });
    expect(pageLanguageFor(null, null)).toMatchObject({ language: 'en' });
    expect(pageLanguageFor('he', 'en')).toMatchObject({ language: 'he', dir: 'rtl' });
  });

  it('the read-back of someone’s own preferences, in their language', () => {
    const page = pageLanguageFor('de', null);
    const sentences = describeOwnPreferences((key, v) => pageText(page, key, v), {
      prefs: { reminders: ['email', 'sms'], booking_updates: [], announcements: ['sms'] },
      quietHours: { start: '22:00', end: '07:00' },
      zone: 'Europe/Berlin',
      hasPhone: false,
    });
    expect(sentences).toEqual([
      'Erinnerungen per E-Mail und SMS.',
      'Keine Nachrichten zu Ihren Buchungen (außer wichtigen wie der Absage einer Veranstaltung).',
      'Mitteilungen per SMS.',
      'Ruhezeiten 22:00–07:00 (Europe/Berlin): Erinnerungen, Buchungsnachrichten und Mitteilungen, die in diese Zeit fallen, werden bis zum Ende der Ruhezeit zurückgehalten, sofern möglich (Absagen nie).',
      'Es ist keine Mobilnummer hinterlegt, daher geht nichts per SMS.',
    ]);
    const en = describeOwnPreferences((key, v) => pageText(pageLanguageFor('en', null), key, v), {
      prefs: { reminders: ['email'], booking_updates: ['email'], announcements: [] },
      quietHours: null,
      zone: 'Europe/Berlin',
      hasPhone: true,
    });
    expect(en).toEqual(['Reminders by email.', 'Booking updates by email.', 'No announcements.', 'No quiet hours.']);
  });
});
