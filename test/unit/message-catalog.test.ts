/**
 * The built-in message text (emails/messages/): every shipped language has every English message, each valid ICU
 * MessageFormat with exactly the English placeholders used the same way, and each formats in its language. The
 * check itself (emails/messages/check.ts) is shown to catch each kind of mistake on a planted catalog.
 */
import { describe, expect, it } from 'vitest';
import { catalogLocales, catalogs, formatSentence, sentenceText, type MessageValue } from '@/emails/messages';
import { catalogProblems, type CatalogShape } from '@/emails/messages/check';
import en from '@/emails/messages/en';

describe('every language has every English message, with its placeholders, in valid ICU', () => {
  it('ships English, Dutch, German, French, Spanish, Italian, Portuguese and Hebrew (right to left)', () => {
    expect(catalogLocales).toEqual(['en', 'nl', 'de', 'fr', 'es', 'it', 'pt', 'he']);
  });
  it.each(catalogLocales)('%s', (language) => {
    expect(catalogProblems(language, en, catalogs[language])).toEqual([]);
  });
});

describe('the check fails on a planted mistake', () => {
  const nl = catalogs.nl as unknown as CatalogShape;
  const plant = (kind: string, key: string, value: string | undefined): CatalogShape => {
    const messages: Record<string, string> = { ...nl[kind] };
    if (value === undefined) delete messages[key];
    else messages[key] = value;
    return { ...nl, [kind]: messages };
  };

  it.each([
    ['a missing key', plant('booking-confirmed', 'closing', undefined), 'nl booking-confirmed.closing: missing'],
    ['a placeholder the English text lacks', plant('common', 'greeting', 'Hallo {naam},'), 'nl common.greeting: uses {naam (text)}, which the English text lacks'],
    ['a placeholder the English text has, missing', plant('common', 'greeting', 'Hallo,'), 'nl common.greeting: misses {name (text)}, which the English text has'],
    ['an ICU syntax error', plant('booking-confirmed', 'subject', 'Je bent ingeschreven: {eventTitle'), 'nl booking-confirmed.subject: ICU syntax error EXPECT_ARGUMENT_CLOSING_BRACE at 1:23'],
    [
      'a select with other options',
      plant('common', 'unsubscribe', '{category, select, reminders {Afmelden voor herinneringen} other {Afmelden}}'),
      'nl common.unsubscribe: uses {category (select: other, reminders)}, which the English text lacks',
    ],
    ['a plural without the "=0" case', plant('common', 'participants', '{count, plural, one {# deelnemer} other {# deelnemers}}'), 'nl common.participants: uses {count (plural: )}, which the English text lacks'],
    ['a key the English text does not have', plant('common', 'extra', 'Extra'), 'nl common.extra: not in the English text'],
  ])('%s', (_name, catalog, expected) => {
    expect(catalogProblems('nl', en as unknown as CatalogShape, catalog)).toContain(expected);
  });

  it('a whole missing message kind', () => {
    const { 'host-added': _gone, ...rest } = nl;
    expect(catalogProblems('nl', en as unknown as CatalogShape, rest)).toEqual(['nl host-added: missing']);
  });
});

/** A value for every placeholder any message uses. */
const sample: Record<string, MessageValue> = {
  name: { typed: 'Ana de Vries' },
  tenantName: { typed: 'Studio Noord' },
  eventTitle: { typed: 'Intro workshop' },
  location: { typed: 'Kanaalstraat 12' },
  reason: { typed: 'Illness' },
  when: 'Sun 28 Mar, 11:00 CEST',
  time: '10:30 CEST',
  was: 'Sat 27 Mar, 11:00 CET',
  now: 'Sun 28 Mar, 11:00 CEST',
  allDay: 'no',
  category: 'reminders',
  // A details-changed notice (its `field` is the sample below: a select's other branch).
  changes: 'Where: now Garden B (was Room A).',
  count: 3,
  link: { link: 'https://x.test/p' },
  url: 'https://x.test/r',
  // Account mail.
  until: 'Tue 1 Jun 2027, 10:00 IST',
  invitedBy: { typed: 'Ada Admin' },
  address: 'hello@studio.example',
  role: 'staff',
  eventNote: { typed: 'Bring an apron' },
  // The pages a person opens from a message (preferences, unsubscribe).
  hasName: 'yes',
  what: 'reminders',
  channel: 'email',
  channels: 'both',
  phone: '+31••••••678',
  zone: 'Europe/Amsterdam',
  source: 'contact',
  start: '22:00',
  end: '07:00',
  date: '3 Aug 2027',
  field: 'quietStart',
  already: 'yes',
  // Action links and their pages.
  participantName: { typed: 'Ana Lima' },
  answer: 'declined',
};

describe('every message formats in its language', () => {
  it.each(catalogLocales)('%s: no placeholder left, no "undefined"', (language) => {
    for (const [kind, messages] of Object.entries(catalogs[language])) {
      for (const [key, source] of Object.entries(messages as Record<string, string>)) {
        for (const allDay of ['yes', 'no']) {
          const text = sentenceText(formatSentence(language, source, { ...sample, allDay }), 'ltr');
          expect(text, `${language} ${kind}.${key}`).not.toMatch(/[{}]|undefined/);
          expect(text.trim().length, `${language} ${kind}.${key}`).toBeGreaterThan(0);
        }
      }
    }
  });

  it.each(catalogLocales)('%s: the participant count follows the language\'s plural rules', (language) => {
    const participants = (count: number) => sentenceText(formatSentence(language, catalogs[language].common.participants, { count }), 'ltr');
    const [none, one, two, many] = [participants(0), participants(1), participants(2), participants(12)];
    expect(none).not.toMatch(/\d/);
    expect(many).toContain('12');
    expect(one).not.toBe(many.replace('12', '1'));
    // Hebrew has its own form for two; every language here writes 2 and 12 alike otherwise.
    if (language === 'he') expect(two).not.toContain('2');
    else expect(two).toBe(many.replace('12', '2'));
  });
});
