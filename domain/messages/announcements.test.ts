import { describe, expect, it } from 'vitest';
import { announcementLocale, announcementRecipients, audienceSchema, checkAnnouncementTexts, countAudience, resolveSendAt, type AnnouncementPerson } from './announcements';

const languages = ['en', 'nl', 'de'];
const now = new Date('2027-03-27T12:00:00Z');

describe('resolveSendAt', () => {
  it.each([
    ['none = now', null, { ok: true, at: now, now: true }],
    ['an ISO instant', '2027-03-28T09:00:00Z', { ok: true, at: new Date('2027-03-28T09:00:00Z'), now: false }],
    ['an offset', '2027-03-28T11:00:00+02:00', { ok: true, at: new Date('2027-03-28T09:00:00Z'), now: false }],
    // DST: the clocks in Amsterdam go 02:00 → 03:00 on 2027-03-28; 10:00 local is CEST (UTC+2).
    ['a local time after the spring change', '2027-03-28T10:00', { ok: true, at: new Date('2027-03-28T08:00:00Z'), now: false }],
    ['a local time before it', '2027-03-27T18:00', { ok: true, at: new Date('2027-03-27T17:00:00Z'), now: false }],
    // 02:30 does not exist that night: luxon moves it forward by the gap (03:30 CEST).
    ['a local time that does not exist', '2027-03-28T02:30', { ok: true, at: new Date('2027-03-28T01:30:00Z'), now: false }],
  ])('%s', (_what, value, expected) => {
    expect(resolveSendAt(value, now, 'Europe/Amsterdam')).toEqual(expected);
  });
  it.each([
    ['in the past', '2027-03-27T12:59', /sendAt: Sat 27 Mar 2027, 12:59 GMT\+1 is in the past/],
    ['unreadable', 'next week', /sendAt: "next week" is not a date and time/],
    ['not text', 5, /sendAt: must be a date and time/],
  ])('refuses a send time %s, naming sendAt', (_what, value, message) => {
    const r = resolveSendAt(value, now, 'Europe/Amsterdam');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.field).toBe('sendAt');
      expect(r.message).toMatch(message);
    }
  });
});

describe('audienceSchema', () => {
  it('keeps the vocabulary order and refuses unknown values naming the list', () => {
    expect(audienceSchema.parse({ roles: ['host', 'attendee'], statuses: ['confirmed'], channels: ['sms', 'email'] })).toEqual({ roles: ['attendee', 'host'], statuses: ['confirmed'], channels: ['email', 'sms'] });
    const r = audienceSchema.safeParse({ roles: ['vip'], statuses: ['confirmed'], channels: ['email'] });
    expect(r.success ? null : r.error.issues[0]).toMatchObject({ path: ['roles'], message: 'unknown role "vip" (expected attendee, external, host)' });
    const extra = audienceSchema.safeParse({ roles: ['attendee'], statuses: ['confirmed'], channels: ['email'], vip: true });
    expect(extra.success ? null : extra.error.issues[0].message).toBe('unknown "vip" (expected roles, statuses and channels)');
  });
});

describe('checkAnnouncementTexts', () => {
  const ok = { subject: 'About {eventTitle}', body: 'Bring **aprons**.', sms: '' };
  it('accepts a text per language; without an SMS text the subject is checked as one', () => {
    expect(checkAnnouncementTexts({ nl: ok }, languages, 3)).toEqual({ ok: true, texts: { nl: ok } });
    const long = checkAnnouncementTexts({ en: { ...ok, subject: 'x'.repeat(180) + ' {eventTitle}' } }, languages, 1);
    expect(long).toMatchObject({ ok: false, field: 'texts.en.subject' });
  });
  it.each([
    [{}, 'texts', /at least one language/],
    [{ pl: ok }, 'texts', /unknown language "pl" \(expected one of en, nl, de\)/],
    [{ en: { ...ok, body: '<script>x</script>' } }, 'texts.en.body', /raw HTML/],
    [{ en: { ...ok, sms: 'Hi {name}' } }, 'texts.en.sms', /\{name\} is not a variable/],
    [{ en: { ...ok, subject: 7 } }, 'texts.en.subject', /must be text/],
  ])('%j → refused naming %s', (texts, field, message) => {
    const r = checkAnnouncementTexts(texts, languages, 3);
    expect(r).toMatchObject({ ok: false, field });
    if (!r.ok) expect(r.message).toMatch(message);
  });
});

describe('announcementRecipients', () => {
  const person = (id: string, over: Partial<AnnouncementPerson['contact']> = {}, booking: Partial<AnnouncementPerson['booking']> = {}): AnnouncementPerson => ({
    booking: { id: `b-${id}`, role: 'attendee', status: 'confirmed', ...booking },
    contact: { id: `c-${id}`, name: id, email: `${id}@x.test`, phone: null, preferences: null, ...over },
  });
  const audience = { roles: ['attendee' as const], statuses: ['confirmed' as const], channels: ['email' as const, 'sms' as const] };
  it('per person: the audience channels they accept and can be reached on; an opt-out is planned once to be recorded', () => {
    const people = [
      person('ann'),
      person('olli', { preferences: { reminders: ['email'], booking_updates: ['email'], announcements: [] } }),
      person('sam', { phone: '+31612000222', preferences: { reminders: ['sms'], booking_updates: ['sms'] } }),
      person('both', { phone: '+31612000333', preferences: { announcements: ['email', 'sms'] } }),
      person('nobody', { email: null, preferences: { announcements: ['sms'] } }),
      person('host', {}, { role: 'host' }),
      person('gone', {}, { status: 'cancelled' }),
    ];
    const r = announcementRecipients(people, audience);
    expect(r.recipients.map((x) => [x.name, x.channels, x.optedOut])).toEqual([
      ['ann', ['email'], false],
      ['olli', ['email'], true],
      ['sam', ['sms'], false],
      ['both', ['email', 'sms'], false],
    ]);
    expect(r.unreachable).toBe(1);
    expect(countAudience(r)).toEqual({ people: 5, email: 2, sms: 2, optedOut: 1, unreachable: 1 });
  });
  it('only the audience channels: an SMS-only person in an email-only audience is recorded as opted out by email', () => {
    const r = announcementRecipients([person('sam', { phone: '+31612000222', preferences: { announcements: ['sms'] } })], { ...audience, channels: ['email'] });
    expect(r.recipients).toEqual([{ bookingId: 'b-sam', contactId: 'c-sam', name: 'sam', channels: ['email'], optedOut: true }]);
  });
});

describe('announcementLocale', () => {
  it.each([
    [['en', 'nl'], 'nl-BE', 'de', { locale: 'nl', formatLocale: 'nl-BE', reason: 'base_language' }],
    [['en', 'nl'], 'fr', 'nl', { locale: 'nl', formatLocale: 'nl', reason: 'organisation_default' }],
    [['en', 'nl'], 'fr', 'de', { locale: 'en', formatLocale: 'en', reason: 'english' }],
    // Written in German only, for everyone: a French reader gets the German text (the announcement's language).
    [['de'], 'fr', 'nl', { locale: 'de', formatLocale: 'de', reason: 'organisation_default' }],
  ])('texts %j, person %s, organisation %s', (langs, contact, org, expected) => {
    expect(announcementLocale(langs, contact, org)).toEqual(expected);
  });
});
