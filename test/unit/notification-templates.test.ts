/**
 * Issue #9: the five notification email templates (booking-confirmed, booking-cancelled, event-rescheduled,
 * event-cancelled, host-added), their data schema and the preferences footer every template carries. Real
 * React Email render, no database. (The generic "renders cleanly" variants in emails.test.ts run over these
 * templates too.)
 */
import { describe, expect, it } from 'vitest';
import type { TemplateId } from '@/domain/vocabulary';
import { catalogLocales } from '@/emails/messages';
import { renderSmsText } from '@/emails/sms';
import {
  parseTemplateData,
  previewData,
  renderReminderEmail,
  type NotificationTemplateData,
  type ReminderTemplateData,
} from '@/emails';

const notificationIds = ['booking-confirmed', 'booking-cancelled', 'event-rescheduled', 'event-cancelled', 'host-added', 'event-details-changed'] as const;

const forbiddenStrings = ['undefined', 'null', 'NaN', 'Invalid DateTime', '[object Object]'];
const placeholderPattern = /\{\{|\{[a-zA-Z]+\}/;

function expectClean(label: string, value: string) {
  for (const word of forbiddenStrings) expect(value.includes(word), `${label} contains "${word}"`).toBe(false);
  expect(value, `${label} contains a raw placeholder`).not.toMatch(placeholderPattern);
}

function preview(id: (typeof notificationIds)[number]): NotificationTemplateData {
  return previewData[id] as NotificationTemplateData;
}

describe.each(notificationIds)('%s renders from its PreviewProps', (id) => {
  it('subject, html and text without undefined, Invalid DateTime or raw placeholders', async () => {
    const { subject, html, text } = await renderReminderEmail(id, previewData[id]);
    expectClean('subject', subject);
    expectClean('html', html);
    expectClean('text', text);
    expect(html).not.toContain('<!-- -->');
    expect(subject).not.toMatch(/\n/);
    expect(text).toContain(preview(id).eventTitle);
  });
});

describe('notification wording', () => {
  it('booking-confirmed: subject, when in both zones, place, calendar entry', async () => {
    const { subject, text } = await renderReminderEmail('booking-confirmed', previewData['booking-confirmed']);
    expect(subject).toBe("You're booked: Intro workshop");
    expect(text).toContain('Your place at Intro workshop is confirmed. It starts Sun 28 Mar, 11:00 CEST.');
    expect(text).toContain('Sunday, 28 March 2027, 11:00\u201312:00 CEST');
    expect(text).toContain('Sunday, 28 March 2027, 05:00\u201306:00 EDT (your time)');
    expect(text).toContain('Studio Noord, Kanaalstraat 12, Amsterdam');
    expect(text).toContain('A calendar entry is attached.');
  });

  it('booking-confirmed: an external guest is told whose guest they are; a room link is shown', async () => {
    const data = { ...preview('booking-confirmed'), role: 'external' as const, roomUrl: 'https://rooms.example.com/r/x' };
    const { html, text } = await renderReminderEmail('booking-confirmed', data);
    expect(text).toContain('You are invited as a guest of Studio Noord.');
    expect(html).toContain('href="https://rooms.example.com/r/x"');
  });

  it('booking-cancelled: subject, when, reason; no Reason heading without a reason', async () => {
    const data = preview('booking-cancelled');
    const { subject, text } = await renderReminderEmail('booking-cancelled', data);
    expect(subject).toBe('Your place at Quarterly planning was cancelled');
    expect(text).toContain('Your place at Quarterly planning on Sun, Nov 7, 10:00\u202fAM EST was cancelled.');
    expect(text).toContain('Sunday, November 7, 2027, 10:00\u2009\u2013\u200911:30\u202fAM EST');
    expect(text).toContain('Reason\n\nCancelled at your request by phone.');

    const none = await renderReminderEmail('booking-cancelled', { ...data, reason: null });
    expect(none.text).not.toContain('Reason');
    const blank = await renderReminderEmail('booking-cancelled', { ...data, reason: '  \n ' });
    expect(blank.text).not.toContain('Reason');
  });

  it('event-cancelled: subject, when it would have been, the reason (each typed line a paragraph)', async () => {
    const data = { ...preview('event-cancelled'), reason: 'Our model is ill.\nWe are sorry.' };
    const { subject, text, html } = await renderReminderEmail('event-cancelled', data);
    expect(subject).toBe('Life drawing is cancelled');
    expect(text).toContain('Life drawing is cancelled. It would have started Wed 12 May, 19:00 CEST.');
    expect(text).toContain('Was planned for\n\nWednesday, 12 May 2027, 19:00\u201321:00 CEST');
    expect(text).toContain('Reason\n\nOur model is ill.\n\nWe are sorry.');
    expect(html).toMatch(/<p[^>]*dir="auto"[^>]*>Our model is ill\.<\/p>/);

    const allDay = await renderReminderEmail('event-cancelled', {
      ...data,
      allDay: true,
      startsAt: '2027-05-11T22:00:00.000Z',
      endsAt: '2027-05-12T22:00:00.000Z',
    });
    expect(allDay.text).toContain('Life drawing is cancelled. It would have been on Wed 12 May (all day).');
  });

  it('host-added: subject, hosting wording, participant count only when given', async () => {
    const data = preview('host-added');
    const { subject, text } = await renderReminderEmail('host-added', data);
    expect(subject).toBe("You're hosting Intro workshop");
    expect(text).toContain('You have been added as a host of Intro workshop, which starts Sun 28 Mar, 11:00 CEST.');
    expect(text).toContain('12 participants have booked.');
    expect(text).toContain('Sunday, 28 March 2027, 14:30\u201315:30 IST (your time)');
    expect(text).toContain('https://rooms.example.com/r/intro-workshop');
    const unknown = await renderReminderEmail('host-added', { ...data, participantCount: null });
    expect(unknown.text).not.toContain('participant');
  });
});

describe('event-details-changed says what changed, old → new, in every language', () => {
  const data = () => ({
    ...previewData['event-details-changed'],
    location: 'Garden B',
    detailChanges: [
      { field: 'location', from: 'Room A', to: 'Garden B' },
      { field: 'roomUrl', from: null, to: 'https://meet.example/r/picnic' },
    ],
  });
  it('English: subject, each change with its label, the time, the calendar line', async () => {
    const { subject, text } = await renderReminderEmail('event-details-changed', data());
    expect(subject).toBe('New details for Intro workshop');
    expect(text).toContain('Some details of Intro workshop');
    expect(text).toMatch(/Where\s+Room A → Garden B/);
    expect(text).toMatch(/Online room\s+\(none\) → https:\/\/meet\.example\/r\/picnic/);
    expect(text).toContain('The calendar entry is updated.');
    expect(renderSmsText('event-details-changed', { ...data(), preferencesUrl: null })).toBe(
      'Studio Noord: some details of Intro workshop on Sun 28 Mar, 11:00 CEST (14:30 IST your time) have changed. Where: now Garden B (was Room A). Online room: now https://meet.example/r/picnic (was (none)).',
    );
  });
  it.each(catalogLocales.filter((l) => l !== 'en'))('%s: no English words of the template, the values kept', async (locale) => {
    const { subject, text } = await renderReminderEmail('event-details-changed', { ...data(), locale });
    const sms = renderSmsText('event-details-changed', { ...data(), locale, preferencesUrl: null });
    for (const english of ['New details', 'Some details', 'Where', 'Online room', '(none)', 'calendar entry', 'have changed', 'now Garden']) {
      expect(`${subject}\n${text}`, `${locale}: "${english}"`).not.toContain(english);
      expect(sms, `${locale} SMS: "${english}"`).not.toContain(english);
    }
    expect(text).toContain('Room A');
    expect(text).toContain('Garden B');
    expect(text).toContain(locale === 'he' ? '←' : '→');
  });
  it('the place and the room as they are, when they did not change', async () => {
    const titleOnly = { ...data(), location: 'Studio 2', detailChanges: [{ field: 'title', from: 'Intro', to: 'Intro workshop' }] };
    const { text } = await renderReminderEmail('event-details-changed', titleOnly);
    expect(text).toMatch(/Title\s+Intro → Intro workshop/);
    expect(text).toMatch(/Where\s+Studio 2/);
    expect(text).toMatch(/Online room\s+https:\/\/rooms\.example\.com\/r\/intro-workshop/);
  });
  it('refuses data without the changes, naming the field', () => {
    expect(parseTemplateData('event-details-changed', { ...data(), detailChanges: [] })).toMatchObject({ ok: false, field: 'detailChanges' });
    const { detailChanges: _none, ...rest } = data();
    expect(parseTemplateData('event-details-changed', rest)).toMatchObject({ ok: false, field: 'detailChanges', message: 'detailChanges: required for a details-changed notice' });
    expect(parseTemplateData('event-details-changed', { ...data(), detailChanges: [{ field: 'colour', from: 'red', to: 'blue' }] })).toMatchObject({ ok: false, field: 'detailChanges.0.field' });
  });
});

describe('event-rescheduled states the old and the new time', () => {
  // Issue #9's concrete case: 2027-07-01T09:00Z → 2027-07-02T09:00Z in Europe/Lisbon (WEST, UTC+1 in July).
  const lisbon: NotificationTemplateData = {
    ...preview('event-rescheduled'),
    startsAt: '2027-07-02T09:00:00.000Z',
    endsAt: '2027-07-02T10:00:00.000Z',
    eventTimeZone: 'Europe/Lisbon',
    previousStartsAt: '2027-07-01T09:00:00.000Z',
    previousEndsAt: '2027-07-01T10:00:00.000Z',
    previousTimeZone: 'Europe/Lisbon',
    previousAllDay: false,
    recipientTimeZone: 'America/New_York',
    locale: 'en-GB',
  };

  it('both times in the event zone, the new one also in the recipient zone', async () => {
    const { subject, text, html } = await renderReminderEmail('event-rescheduled', lisbon);
    expect(subject).toBe('Python workshop has moved');
    expect(text).toContain('Python workshop has moved. Was: Thu 1 Jul, 10:00 WEST \u00b7 Now: Fri 2 Jul, 10:00 WEST.');
    expect(text).toContain('Now\n\nFriday, 2 July 2027, 10:00\u201311:00 WEST\n\nFriday, 2 July 2027, 05:00\u201306:00 EDT (your time)');
    expect(text).toContain('Was\n\nThursday, 1 July 2027, 10:00\u201311:00 WEST');
    // The old time is not repeated in the recipient's zone.
    expect(text).not.toContain('Thursday, 1 July 2027, 05:00');
    expect(text).toContain('The calendar entry is updated.');
    expect(html).toContain('Thursday, 1 July 2027, 10:00\u201311:00 WEST');
    expectClean('text', text);
  });

  it('a recipient in the event zone gets no "(your time)" line', async () => {
    const { text } = await renderReminderEmail('event-rescheduled', { ...lisbon, recipientTimeZone: 'Europe/Lisbon' });
    expect(text).not.toContain('your time');
  });

  it('the old time is shown in the zone it was planned in, all-day included', async () => {
    const { text } = await renderReminderEmail('event-rescheduled', {
      ...lisbon,
      previousTimeZone: 'Europe/Berlin',
      previousStartsAt: '2027-06-29T22:00:00.000Z',
      previousEndsAt: '2027-06-30T22:00:00.000Z',
      previousAllDay: true,
    });
    expect(text).toContain('Was: Wed 30 Jun (all day) \u00b7 Now: Fri 2 Jul, 10:00 WEST.');
    expect(text).toContain('Was\n\nWednesday, 30 June 2027 (all day)');
  });

  it('an unknown old end gives the old start alone', async () => {
    const { text } = await renderReminderEmail('event-rescheduled', { ...lisbon, previousEndsAt: null });
    expect(text).toContain('Was\n\nThursday, 1 July 2027 at 10:00 WEST');
  });
});

describe('notification data', () => {
  const rescheduled = preview('event-rescheduled');

  function without(data: object, ...keys: string[]): Record<string, unknown> {
    const copy: Record<string, unknown> = { ...data };
    for (const k of keys) delete copy[k];
    return copy;
  }

  const cases: Array<{ name: string; templateId: TemplateId; data: unknown; field: string; message?: string }> = [
    {
      name: 'reschedule without the previous fields',
      templateId: 'event-rescheduled',
      data: without(rescheduled, 'previousStartsAt', 'previousEndsAt', 'previousTimeZone', 'previousAllDay'),
      field: 'previousStartsAt',
      message: 'previousStartsAt: required',
    },
    {
      name: 'reschedule with the previous fields null',
      templateId: 'event-rescheduled',
      data: { ...rescheduled, previousStartsAt: null, previousEndsAt: null, previousTimeZone: null, previousAllDay: null },
      field: 'previousStartsAt',
      message: 'previousStartsAt: required for a reschedule notice',
    },
    {
      name: 'reschedule without the previous zone',
      templateId: 'event-rescheduled',
      data: { ...rescheduled, previousTimeZone: null },
      field: 'previousTimeZone',
      message: 'previousTimeZone: required for a reschedule notice',
    },
    {
      name: 'reschedule without previousAllDay',
      templateId: 'event-rescheduled',
      data: { ...rescheduled, previousAllDay: null },
      field: 'previousAllDay',
      message: 'previousAllDay: required for a reschedule notice',
    },
    {
      name: 'previous end before previous start',
      templateId: 'event-rescheduled',
      data: { ...rescheduled, previousEndsAt: '2027-07-01T07:00:00.000Z' },
      field: 'previousEndsAt',
      message: 'previousEndsAt: must not be before previousStartsAt',
    },
    { name: 'previous start not an instant', templateId: 'event-rescheduled', data: { ...rescheduled, previousStartsAt: '2027-07-01 10:00' }, field: 'previousStartsAt' },
    { name: 'previous zone invalid', templateId: 'event-rescheduled', data: { ...rescheduled, previousTimeZone: 'Europe/Atlantis' }, field: 'previousTimeZone' },
    { name: 'no schedule version', templateId: 'booking-confirmed', data: without(preview('booking-confirmed'), 'scheduleVersion'), field: 'scheduleVersion', message: 'scheduleVersion: required' },
    { name: 'schedule version 0', templateId: 'event-cancelled', data: { ...preview('event-cancelled'), scheduleVersion: 0 }, field: 'scheduleVersion' },
    { name: 'schedule version 1.5', templateId: 'event-cancelled', data: { ...preview('event-cancelled'), scheduleVersion: 1.5 }, field: 'scheduleVersion' },
    { name: 'no reason key (null, not absent)', templateId: 'booking-cancelled', data: without(preview('booking-cancelled'), 'reason'), field: 'reason', message: 'reason: required' },
    { name: 'host-added to an attendee', templateId: 'host-added', data: { ...preview('host-added'), role: 'attendee' }, field: 'role' },
    { name: 'reminder without preferencesUrl (null, not absent)', templateId: 'attendee-reminder', data: without(previewData['attendee-reminder'], 'preferencesUrl'), field: 'preferencesUrl', message: 'preferencesUrl: required' },
    { name: 'javascript: preferences link', templateId: 'booking-confirmed', data: { ...preview('booking-confirmed'), preferencesUrl: 'javascript:alert(1)' }, field: 'preferencesUrl' },
  ];

  it.each(cases)('$name → field $field', ({ templateId, data, field, message }) => {
    const result = parseTemplateData(templateId, data);
    expect(result).toMatchObject({ ok: false, field });
    if (!result.ok) {
      expect(result.message.startsWith(`${field}: `)).toBe(true);
      if (message) expect(result.message).toBe(message);
    }
  });

  it('the other notifications need no previous timing', () => {
    for (const id of ['booking-confirmed', 'booking-cancelled', 'event-cancelled', 'host-added'] as const) {
      expect(preview(id).previousStartsAt).toBeNull();
      expect(parseTemplateData(id, previewData[id])).toMatchObject({ ok: true });
    }
  });

  it('renderReminderEmail refuses a reschedule notice without the old time, naming the field', async () => {
    await expect(renderReminderEmail('event-rescheduled', { ...rescheduled, previousStartsAt: null })).rejects.toThrow(
      'previousStartsAt: required for a reschedule notice',
    );
  });
});

describe('preferences footer', () => {
  const url = 'https://punctual.example.com/p/abc123';
  const allIds: TemplateId[] = ['attendee-reminder', 'room-opening', 'host-reminder', ...notificationIds];

  it.each(allIds)('%s: "Choose how … reaches you" with the link when given, nothing when null', async (id) => {
    const data: ReminderTemplateData = { ...previewData[id], preferencesUrl: url };
    const withLink = await renderReminderEmail(id, data);
    expect(withLink.text).toContain(`Choose how ${data.tenantName} reaches you: ${url}`);
    expect(withLink.html).toContain(`href="${url}"`);
    expect(withLink.html).not.toContain('<!-- -->');

    const without = await renderReminderEmail(id, { ...data, preferencesUrl: null });
    expect(without.text).not.toContain('Choose how');
    expect(without.html).not.toContain(url);
  });
});
