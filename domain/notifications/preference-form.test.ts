import { describe, expect, it } from 'vitest';
import { dateInZone, describeContactPreferences, describeUnsubscribed, maskPhone, notSavedFieldOption, quietHoursFromForm, quietHoursZone, quietHoursZoneText } from './preference-form';

describe('quietHoursFromForm', () => {
  it('both empty: no quiet hours', () => {
    expect(quietHoursFromForm('', '')).toEqual({ ok: true, quietHours: null });
    expect(quietHoursFromForm(undefined, null)).toEqual({ ok: true, quietHours: null });
  });
  it('both given: the window as typed (trimmed)', () => {
    expect(quietHoursFromForm(' 21:00', '08:00 ')).toEqual({ ok: true, quietHours: { start: '21:00', end: '08:00' } });
  });
  it('one missing: names the missing field', () => {
    expect(quietHoursFromForm('', '08:00')).toMatchObject({ ok: false, field: 'quietHours.start' });
    expect(quietHoursFromForm('21:00', '')).toMatchObject({ ok: false, field: 'quietHours.end' });
  });
});

describe('quietHoursZone', () => {
  it("the person's zone when known, else the tenant's, and says which", () => {
    expect(quietHoursZone('Europe/Berlin', 'Europe/Amsterdam')).toEqual({ zone: 'Europe/Berlin', source: 'contact' });
    expect(quietHoursZone(null, 'Europe/Amsterdam')).toEqual({ zone: 'Europe/Amsterdam', source: 'tenant' });
    expect(quietHoursZoneText({ zone: 'Europe/Berlin', source: 'contact' }, 'participant')).toBe("in Europe/Berlin, the participant's own time zone");
    expect(quietHoursZoneText({ zone: 'Europe/Amsterdam', source: 'tenant' }, 'participant')).toBe(
      "in Europe/Amsterdam, the organisation's time zone (the participant's own is not known)",
    );
    expect(quietHoursZoneText({ zone: 'Europe/Amsterdam', source: 'tenant' }, 'you')).toBe("in Europe/Amsterdam, the organisation's time zone (we do not know yours)");
  });
});

describe('describeContactPreferences', () => {
  it('reads preferences and quiet hours back as sentences', () => {
    expect(
      describeContactPreferences({ prefs: { reminders: ['email'], booking_updates: ['email', 'sms'], announcements: ['email', 'sms'] }, quietHours: { start: '21:00', end: '08:00' }, zone: 'Europe/Berlin', hasPhone: true }),
    ).toEqual([
      'Reminders by email.',
      'Booking updates by SMS and email.',
      'Announcements by SMS and email.',
      'Quiet hours 21:00–08:00 (Europe/Berlin) — reminders, booking updates and announcements due then wait until they end, if they can (event cancellations do not wait).',
    ]);
  });
  it('says when SMS is chosen without a number on file', () => {
    expect(describeContactPreferences({ prefs: { reminders: ['sms'], booking_updates: [], announcements: [] }, quietHours: null, zone: 'UTC', hasPhone: false })).toEqual([
      'Reminders by SMS.',
      'No booking updates (except essential ones such as event cancellations).',
      'No announcements.',
      'No quiet hours.',
      'No mobile number is on file, so nothing goes by SMS.',
    ]);
  });
});

describe('one-click unsubscribes in the staff read-back (issue #10 §5)', () => {
  it('says who unsubscribed, when (the date in the zone) and how, right after the emptied category', () => {
    expect(
      describeContactPreferences({
        prefs: { reminders: ['email'], booking_updates: [], announcements: [] },
        quietHours: null,
        zone: 'Europe/Amsterdam',
        hasPhone: false,
        unsubscribed: { booking_updates: '2027-08-03T12:00:00.000Z' },
      }),
    ).toEqual([
      'Reminders by email.',
      'No booking updates (except essential ones such as event cancellations).',
      'Unsubscribed from booking updates by the recipient on Tue 3 Aug 2027 (one-click link).',
      'No announcements.',
      'No quiet hours.',
    ]);
  });
  it('a marker for a category with a channel ticked again is not read back', () => {
    expect(
      describeContactPreferences({ prefs: { reminders: ['email'], booking_updates: ['sms'], announcements: ['sms'] }, quietHours: null, zone: 'UTC', hasPhone: true, unsubscribed: { booking_updates: '2027-08-03T12:00:00.000Z' } }),
    ).not.toContain('Unsubscribed from booking updates by the recipient on Tue 3 Aug 2027 (one-click link).');
  });
  it('the date is the one in the zone', () => {
    expect(dateInZone('2027-08-03T23:30:00.000Z', 'Europe/Amsterdam')).toBe('Wed 4 Aug 2027');
    expect(dateInZone('2027-08-03T23:30:00.000Z', 'America/New_York')).toBe('Tue 3 Aug 2027');
    expect(describeUnsubscribed('reminders', '2027-08-03T23:30:00.000Z', 'Asia/Tokyo')).toBe('Unsubscribed from reminders by the recipient on Wed 4 Aug 2027 (one-click link).');
    expect(dateInZone('garbage', 'UTC')).toBe('garbage');
  });
});

describe('maskPhone', () => {
  it('keeps the country code start and the last three digits', () => {
    expect(maskPhone('+31612345678')).toBe('+31••••••678');
    expect(maskPhone('+4915123456789')).toBe('+49••••••••789');
  });
  it('short input keeps only two characters', () => {
    expect(maskPhone('12345')).toBe('•••45');
  });
});

describe('notSavedFieldOption', () => {
  it('maps the server’s field names to the page message’s options, anything else to other', () => {
    expect(notSavedFieldOption('quietHours.start')).toBe('quietStart');
    expect(notSavedFieldOption('preferences.announcements')).toBe('announcements');
    expect(notSavedFieldOption('quietHours')).toBe('quietHours');
    for (const other of [undefined, null, '', 'constructor', '<script>', 'version']) expect(notSavedFieldOption(other)).toBe('other');
  });
});
