/**
 * A reader of each shipped language gets no English sentence: the reminder, the booking confirmation, the
 * rescheduling notice and the details-changed notice of a real-looking event, rendered for each language (subject, plain-text part, SMS), share no
 * run of three words with the English render — once the text people typed, URLs and everything with a digit (the
 * dates and times) are taken out of both.
 */
import { describe, expect, it } from 'vitest';
import type { TemplateId } from '@/domain/vocabulary';
import { renderReminderEmail, type NotificationTemplateData } from '@/emails';
import { catalogLocales } from '@/emails/messages';
import { renderSmsText } from '@/emails/sms';
import { englishMessageRuns, wordRuns as runsOf } from '@/test/support/word-runs';

const wordRuns = (text: string) => runsOf(text, typedValues);

const typedValues = [
  'Clay Corner Amsterdam',
  'Glaze Night',
  'Jonas Berger',
  'Clay Corner, Westerstraat 5, Amsterdam',
  'Wear clothes that may get dirty.',
  'Bring an apron and closed shoes.',
  'Clay Corner, Prinsengracht 2, Amsterdam',
];

const event: NotificationTemplateData = {
  tenantName: typedValues[0]!,
  recipientName: typedValues[2]!,
  role: 'attendee',
  eventTitle: typedValues[1]!,
  startsAt: '2026-12-03T18:30:00.000Z',
  endsAt: '2026-12-03T21:00:00.000Z',
  allDay: false,
  eventTimeZone: 'Europe/Amsterdam',
  recipientTimeZone: 'America/New_York',
  locale: 'en',
  location: typedValues[3]!,
  notes: typedValues[4]!,
  eventNote: typedValues[5]!,
  roomUrl: null,
  roomOpensAt: null,
  participantCount: null,
  preferencesUrl: 'https://punctual.example.com/preferences/p.abc',
  unsubscribeUrl: 'https://punctual.example.com/u/u.abc',
  unsubscribeCategory: 'reminders',
  scheduleVersion: 2,
  previousStartsAt: '2026-12-02T18:30:00.000Z',
  previousEndsAt: '2026-12-02T21:00:00.000Z',
  previousTimeZone: 'Europe/Amsterdam',
  previousAllDay: false,
  reason: null,
};
/** The details-changed notice's change: the place moved (both places are text people typed). */
const detailChanges = [{ field: 'location', from: typedValues[6]!, to: typedValues[3]! }];

async function rendered(template: TemplateId, locale: string): Promise<string> {
  const data = { ...event, detailChanges, locale };
  const email = await renderReminderEmail(template, data);
  return [email.subject, email.text, renderSmsText(template, data)].join('\n');
}

const templates: TemplateId[] = ['attendee-reminder', 'booking-confirmed', 'event-rescheduled', 'event-details-changed'];

/** The runs of every built-in English message (the catalog itself), besides the English render's. */
const catalogRuns = englishMessageRuns();

describe('the word-run comparison', () => {
  it('knows the English catalog\'s sentences', () => {
    expect(catalogRuns).toContain('your place at');
    expect(catalogRuns).toContain('participants have booked');
    expect(catalogRuns).toContain('unsubscribe from booking');
  });

  it('finds the English sentences of an English render (so an empty intersection means something)', async () => {
    const english = wordRuns(await rendered('booking-confirmed', 'en'));
    expect(english).toContain('your place at');
    expect(english).toContain('a calendar entry');
    expect(english).not.toContain('night is confirmed');
    // The same English render against itself shares every run.
    expect([...wordRuns(await rendered('booking-confirmed', 'en-GB'))].filter((r) => english.has(r)).length).toBeGreaterThan(10);
  });
});

describe.each(catalogLocales.filter((l) => l !== 'en'))('%s', (locale) => {
  it.each(templates)('%s has no English sentence', async (template) => {
    const english = wordRuns(await rendered(template, 'en'));
    const theirs = await rendered(template, locale);
    const shared = [...wordRuns(theirs)].filter((run) => english.has(run) || catalogRuns.has(run));
    expect(shared, theirs).toEqual([]);
    expect(theirs).not.toMatch(/\b(your time|all day|Reminder|booked|Hello|Please note)\b/);
  });

  it('the email says which language it is in', async () => {
    const { html } = await renderReminderEmail('booking-confirmed', { ...event, locale });
    expect(html).toMatch(new RegExp(`<html[^>]*lang="${locale}"`));
    expect(html).toMatch(new RegExp(`<html[^>]*dir="${locale === 'he' ? 'rtl' : 'ltr'}"`));
  });
});
