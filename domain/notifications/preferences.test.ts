import { describe, expect, it } from 'vitest';
import {
  withStoredAnnouncements,
  categoriesReenabled,
  categoryOf,
  channelsFor,
  defaultPreferences,
  describePreferences,
  isEssential,
  nudgeOptOut,
  optOutReason,
  preferencesSchema,
  readPreferences,
  readUnsubscribed,
  storedPreferences,
  unsubscribeFrom,
  categoryPhrase,
  type ChannelPreferences,
} from './preferences';
import { domainEventTypes, type DomainEventType } from '@/domain/vocabulary';

/** The message server/platform/errors.ts `fromZodError` builds from the first issue: "<dotted path>: <message>". */
function firstError(input: unknown): string | null {
  const r = preferencesSchema.safeParse(input);
  if (r.success) return null;
  const i = r.error.issues[0];
  const field = i.path.map(String).join('.');
  return field ? `${field}: ${i.message}` : i.message;
}

describe('preferencesSchema', () => {
  it('accepts both categories, empty lists (opt-out) and returns email before sms', () => {
    expect(preferencesSchema.parse({ reminders: ['sms', 'email'], booking_updates: [], announcements: [] })).toEqual({ reminders: ['email', 'sms'], booking_updates: [], announcements: [] });
    expect(preferencesSchema.parse({ reminders: ['email'], booking_updates: ['sms'], announcements: ['sms'] })).toEqual({ reminders: ['email'], booking_updates: ['sms'], announcements: ['sms'] });
  });
  it.each([
    [{ reminders: ['email'], booking_updates: ['fax'], announcements: ['fax'] }, 'booking_updates: unknown channel "fax"'],
    [{ reminders: ['webhook'], booking_updates: [], announcements: [] }, 'reminders: unknown channel "webhook"'],
    [{ reminders: [1], booking_updates: [], announcements: [] }, 'reminders: unknown channel 1'],
    [{ reminders: ['email', 'email'], booking_updates: [], announcements: [] }, 'reminders: channel "email" is listed twice'],
    [{ reminders: 'email', booking_updates: [], announcements: [] }, 'reminders: must be a list of channels such as ["email", "sms"] (an empty list opts out)'],
    [{ reminders: [] }, 'booking_updates: required: a list of channels such as ["email"] (an empty list opts out)'],
    [{ reminders: [], booking_updates: [], push: ['email'] }, 'unknown category "push" (expected reminders, booking_updates and announcements)'],
    [null, 'must be an object with reminders and booking_updates (and optionally announcements), each a list of channels'],
    [['email'], 'must be an object with reminders and booking_updates (and optionally announcements), each a list of channels'],
  ])('refuses %j naming the field', (input, message) => {
    expect(firstError(input)).toBe(message);
  });
});

describe('readPreferences', () => {
  it.each([
    [undefined, defaultPreferences],
    [null, defaultPreferences],
    ['garbage', defaultPreferences],
    [42, defaultPreferences],
    [['email'], defaultPreferences],
    [{}, defaultPreferences],
    [{ reminders: [], booking_updates: [], announcements: [] }, { reminders: [], booking_updates: [], announcements: [] }],
    [{ reminders: 'sms', booking_updates: ['sms'], announcements: ['sms'] }, { reminders: ['email'], booking_updates: ['sms'], announcements: ['sms'] }],
    [{ reminders: ['sms', 'fax', 'sms', 'email'] }, { reminders: ['email', 'sms'], booking_updates: ['email'], announcements: ['email'] }],
    [{ reminders: ['fax'], booking_updates: null, announcements: ['email'] }, { reminders: [], booking_updates: ['email'], announcements: ['email'] }],
    ['{"reminders":["sms"],"booking_updates":[]}', { reminders: ['sms'], booking_updates: [], announcements: [] }],
  ])('%j → %j', (stored, expected) => {
    expect(readPreferences(stored)).toEqual(expected);
  });
  it('returns a copy: changing it does not change the defaults', () => {
    const p = readPreferences(null);
    p.reminders.push('sms');
    expect(defaultPreferences.reminders).toEqual(['email']);
  });
});

describe('announcements (a category added later)', () => {
  it('a stored value without it reads it as the booking updates channels; an explicit list wins', () => {
    expect(readPreferences({ reminders: ['email'], booking_updates: ['sms'] }).announcements).toEqual(['sms']);
    expect(readPreferences({ reminders: ['email'], booking_updates: [] }).announcements).toEqual([]);
    expect(readPreferences({ reminders: ['email'], booking_updates: ['sms'], announcements: [] }).announcements).toEqual([]);
    expect(readPreferences(null).announcements).toEqual(['email']);
  });
  it('the API may leave it out: the stored choice is kept', () => {
    expect(withStoredAnnouncements({ reminders: [], booking_updates: ['email'] }, { reminders: [], booking_updates: ['email'], announcements: ['sms'] }).announcements).toEqual(['sms']);
    expect(withStoredAnnouncements({ reminders: [], booking_updates: ['email'], announcements: [] }, { announcements: ['sms'] }).announcements).toEqual([]);
  });
  it('an announcement is in the announcements category; an opt-out names it', () => {
    expect(categoryOf('announcement', null)).toBe('announcements');
    expect(optOutReason({ category: 'announcements', essential: false, prefs: { ...defaultPreferences, announcements: [] }, channel: 'email' })).toBe('opted out of announcements by email');
  });
});

describe('categoryOf and isEssential', () => {
  it.each(domainEventTypes)('notification %s → booking_updates', (type) => {
    expect(categoryOf('notification', type)).toBe('booking_updates');
  });
  it('rule and nudge → reminders', () => {
    expect(categoryOf('rule', null)).toBe('reminders');
    expect(categoryOf('nudge', null)).toBe('reminders');
  });
  it('only event_cancelled notifications are essential', () => {
    expect(domainEventTypes.filter((t) => isEssential('notification', t))).toEqual(['event_cancelled']);
    expect(isEssential('rule', null)).toBe(false);
    expect(isEssential('rule', 'event_cancelled' as DomainEventType)).toBe(false);
    expect(isEssential('notification', null)).toBe(false);
  });
});

describe('channelsFor', () => {
  const smsUpdates: ChannelPreferences = { reminders: ['email'], booking_updates: ['sms'], announcements: ['sms'] };
  const both = { hasEmail: true, hasPhone: true };

  it('issue #9: booking updates by SMS only and reminders by email', () => {
    expect(channelsFor({ category: 'booking_updates', essential: false, prefs: smsUpdates, ...both })).toEqual(['sms']);
    expect(channelsFor({ category: 'reminders', essential: false, prefs: smsUpdates, ...both })).toEqual(['email']);
  });
  it('issue #9: opted out of booking updates still gets event_cancelled (essential) by email', () => {
    const optedOut: ChannelPreferences = { reminders: [], booking_updates: [], announcements: [] };
    expect(channelsFor({ category: 'booking_updates', essential: false, prefs: optedOut, ...both })).toEqual([]);
    expect(channelsFor({ category: 'booking_updates', essential: true, prefs: optedOut, ...both })).toEqual(['email']);
    // Opted out of booking updates only: essential goes where they take reminders.
    expect(channelsFor({ category: 'booking_updates', essential: true, prefs: { reminders: ['email'], booking_updates: [], announcements: [] }, ...both })).toEqual(['email']);
  });
  it('issue #9: reminders by email and SMS → essential on both', () => {
    const prefs: ChannelPreferences = { reminders: ['email', 'sms'], booking_updates: [], announcements: [] };
    expect(channelsFor({ category: 'booking_updates', essential: true, prefs, ...both })).toEqual(['email', 'sms']);
  });
  it('essential: the union of every category, email before sms', () => {
    const prefs: ChannelPreferences = { reminders: ['sms'], booking_updates: ['email'], announcements: ['email'] };
    expect(channelsFor({ category: 'booking_updates', essential: true, prefs, ...both })).toEqual(['email', 'sms']);
  });
  it('drops channels without an address', () => {
    const prefs: ChannelPreferences = { reminders: ['email', 'sms'], booking_updates: ['sms'], announcements: ['sms'] };
    expect(channelsFor({ category: 'reminders', essential: false, prefs, hasEmail: true, hasPhone: false })).toEqual(['email']);
    expect(channelsFor({ category: 'reminders', essential: false, prefs, hasEmail: false, hasPhone: true })).toEqual(['sms']);
    expect(channelsFor({ category: 'booking_updates', essential: false, prefs, hasEmail: true, hasPhone: false })).toEqual([]);
  });
  it('essential with only unreachable channels falls back to email, or to nothing without an email address', () => {
    const prefs: ChannelPreferences = { reminders: [], booking_updates: ['sms'], announcements: ['sms'] };
    expect(channelsFor({ category: 'booking_updates', essential: true, prefs, hasEmail: true, hasPhone: false })).toEqual(['email']);
    expect(channelsFor({ category: 'booking_updates', essential: true, prefs, hasEmail: false, hasPhone: false })).toEqual([]);
    expect(channelsFor({ category: 'booking_updates', essential: true, prefs: { reminders: [], booking_updates: [], announcements: [] }, hasEmail: false, hasPhone: true })).toEqual([]);
  });
  it('normalises an unordered list', () => {
    const prefs = { reminders: ['sms', 'email'], booking_updates: [], announcements: [] } as ChannelPreferences;
    expect(channelsFor({ category: 'reminders', essential: false, prefs, ...both })).toEqual(['email', 'sms']);
  });
});

describe('optOutReason', () => {
  const prefs: ChannelPreferences = { reminders: ['email'], booking_updates: ['sms'], announcements: ['sms'] };
  it('null when the channel is accepted in the category', () => {
    expect(optOutReason({ category: 'booking_updates', essential: false, prefs, channel: 'sms' })).toBeNull();
    expect(optOutReason({ category: 'reminders', essential: false, prefs, channel: 'email' })).toBeNull();
  });
  it('names the category and channel when it is not', () => {
    expect(optOutReason({ category: 'booking_updates', essential: false, prefs, channel: 'email' })).toBe('opted out of booking updates by email');
    expect(optOutReason({ category: 'reminders', essential: false, prefs, channel: 'sms' })).toBe('opted out of reminders by SMS');
    expect(optOutReason({ category: 'booking_updates', essential: false, prefs: { reminders: ['sms'], booking_updates: [], announcements: [] }, channel: 'sms' })).toBe('opted out of booking updates by SMS');
  });
  it('essential messages and webhooks are never opted out', () => {
    const none: ChannelPreferences = { reminders: [], booking_updates: [], announcements: [] };
    expect(optOutReason({ category: 'booking_updates', essential: true, prefs: none, channel: 'email' })).toBeNull();
    expect(optOutReason({ category: 'booking_updates', essential: true, prefs: none, channel: 'sms' })).toBeNull();
    expect(optOutReason({ category: 'reminders', essential: false, prefs: none, channel: 'webhook' })).toBeNull();
  });
});

describe('describePreferences', () => {
  it.each([
    [defaultPreferences, ['Reminders by email.', 'Booking updates by email.', 'Announcements by email.']],
    [{ reminders: ['email', 'sms'], booking_updates: ['email', 'sms'], announcements: ['email', 'sms'] }, ['Reminders by SMS and email.', 'Booking updates by SMS and email.', 'Announcements by SMS and email.']],
    [{ reminders: ['sms'], booking_updates: [], announcements: [] }, ['Reminders by SMS.', 'No booking updates (except essential ones such as event cancellations).', 'No announcements.']],
    [{ reminders: [], booking_updates: ['sms'], announcements: ['email'] }, ['No reminders.', 'Booking updates by SMS.', 'Announcements by email.']],
  ] as [ChannelPreferences, string[]][])('%j', (prefs, sentences) => {
    expect(describePreferences(prefs)).toEqual(sentences);
  });
});

describe('one-click unsubscribe markers (issue #10 §5)', () => {
  const at = new Date('2027-08-03T12:00:00Z');
  it('unsubscribeFrom empties the category, keeps the other, records the instant', () => {
    const r = unsubscribeFrom({ reminders: ['email', 'sms'], booking_updates: ['email'], announcements: ['email'] }, 'reminders', at);
    expect(r).toEqual({
      changed: true,
      removed: ['email', 'sms'],
      stored: { reminders: [], booking_updates: ['email'], announcements: ['email'], unsubscribed: { reminders: '2027-08-03T12:00:00.000Z' } },
    });
    if (!r.changed) throw new Error('unreachable');
    expect(readPreferences(r.stored)).toEqual({ reminders: [], booking_updates: ['email'], announcements: ['email'] });
    expect(readUnsubscribed(r.stored)).toEqual({ reminders: '2027-08-03T12:00:00.000Z' });
  });
  it('a category already empty (second click, or an opt-out on the page) → nothing changes', () => {
    const once = unsubscribeFrom(null, 'reminders', at);
    if (!once.changed) throw new Error('the default takes reminders by email');
    expect(unsubscribeFrom(once.stored, 'reminders', new Date('2027-08-04T00:00:00Z'))).toEqual({ changed: false });
    expect(unsubscribeFrom({ reminders: [], booking_updates: ['email'], announcements: ['email'] }, 'reminders', at)).toEqual({ changed: false });
  });
  it('a second category keeps the first marker', () => {
    const r = unsubscribeFrom({ reminders: [], booking_updates: ['sms'], unsubscribed: { reminders: '2027-08-01T00:00:00.000Z' } }, 'booking_updates', at);
    // Stored before announcements existed: they read as the booking updates channels (SMS) and are kept.
    expect(r.changed && r.stored).toEqual({ reminders: [], booking_updates: [], announcements: ['sms'], unsubscribed: { reminders: '2027-08-01T00:00:00.000Z', booking_updates: '2027-08-03T12:00:00.000Z' } });
  });
  it('readUnsubscribed is tolerant: unknown categories, non-instants and categories with a channel ticked again are dropped', () => {
    expect(readUnsubscribed(null)).toEqual({});
    expect(readUnsubscribed('garbage')).toEqual({});
    expect(readUnsubscribed({ reminders: [], unsubscribed: 'yes' })).toEqual({});
    expect(readUnsubscribed({ reminders: [], booking_updates: [], unsubscribed: { reminders: 'yesterday', push: '2027-08-03T12:00:00Z', booking_updates: 5 } })).toEqual({});
    expect(readUnsubscribed({ reminders: ['sms'], unsubscribed: { reminders: '2027-08-03T12:00:00.000Z' } })).toEqual({});
    // Missing list = default (email): subscribed.
    expect(readUnsubscribed({ unsubscribed: { reminders: '2027-08-03T12:00:00.000Z' } })).toEqual({});
    expect(readUnsubscribed(JSON.stringify({ reminders: [], unsubscribed: { reminders: '2027-08-03T12:00:00Z' } }))).toEqual({ reminders: '2027-08-03T12:00:00Z' });
  });
  it('storedPreferences keeps markers only for categories still empty (ticking a channel again re-subscribes)', () => {
    const markers = { reminders: '2027-08-03T12:00:00.000Z', booking_updates: '2027-08-02T12:00:00.000Z' };
    expect(storedPreferences({ reminders: ['email'], booking_updates: [], announcements: [] }, markers)).toEqual({
      reminders: ['email'],
      booking_updates: [],
      announcements: [],
      unsubscribed: { booking_updates: '2027-08-02T12:00:00.000Z' },
    });
    expect(storedPreferences({ reminders: ['sms', 'email'], booking_updates: ['sms'], announcements: ['sms'] }, markers)).toEqual({ reminders: ['email', 'sms'], booking_updates: ['sms'], announcements: ['sms'] });
    expect(storedPreferences({ reminders: [], booking_updates: [], announcements: [] })).toEqual({ reminders: [], booking_updates: [], announcements: [] });
  });
  it('optOutReason names the one-click unsubscribe; without a marker it is the plain opt-out; essential and webhook still pass', () => {
    const prefs: ChannelPreferences = { reminders: [], booking_updates: ['email'], announcements: ['email'] };
    const u = '2027-08-03T12:00:00.000Z';
    expect(optOutReason({ category: 'reminders', essential: false, prefs, channel: 'email', unsubscribedAt: u })).toBe('unsubscribed from reminders (one-click link, 2027-08-03T12:00:00.000Z)');
    expect(optOutReason({ category: 'reminders', essential: false, prefs, channel: 'sms', unsubscribedAt: u })).toBe('unsubscribed from reminders (one-click link, 2027-08-03T12:00:00.000Z)');
    expect(optOutReason({ category: 'reminders', essential: false, prefs, channel: 'email' })).toBe('opted out of reminders by email');
    expect(optOutReason({ category: 'booking_updates', essential: true, prefs: { reminders: [], booking_updates: [], announcements: [] }, channel: 'email', unsubscribedAt: u })).toBeNull();
    expect(optOutReason({ category: 'reminders', essential: false, prefs, channel: 'webhook', unsubscribedAt: u })).toBeNull();
    expect(optOutReason({ category: 'reminders', essential: false, prefs: { reminders: ['email'], booking_updates: [], announcements: [] }, channel: 'email', unsubscribedAt: u })).toBeNull();
  });
  it('categoryPhrase', () => {
    expect(categoryPhrase('reminders')).toBe('reminders');
    expect(categoryPhrase('booking_updates')).toBe('booking updates');
  });
});

describe('categoriesReenabled', () => {
  const stored = { reminders: ['email'], booking_updates: [], unsubscribed: { booking_updates: '2027-08-03T12:00:00.000Z' } };
  it('names a category the person left by one-click link that the new value ticks again', () => {
    expect(categoriesReenabled(stored, { reminders: ['email'], booking_updates: ['email', 'sms'], announcements: ['email', 'sms'] })).toEqual(['booking_updates']);
    expect(categoriesReenabled(stored, { reminders: ['email'], booking_updates: ['sms'], announcements: ['sms'] })).toEqual(['booking_updates']);
  });
  it('nothing when the category stays empty, when only another category changes, or without a marker', () => {
    expect(categoriesReenabled(stored, { reminders: [], booking_updates: [], announcements: [] })).toEqual([]);
    expect(categoriesReenabled(stored, { reminders: ['sms'], booking_updates: [], announcements: [] })).toEqual([]);
    expect(categoriesReenabled({ reminders: ['email'], booking_updates: [], announcements: [] }, { reminders: ['email'], booking_updates: ['email'], announcements: ['email'] })).toEqual([]);
    // A stale marker on a category that has a channel again does not count (readUnsubscribed).
    expect(categoriesReenabled({ ...stored, booking_updates: ['email'] }, { reminders: ['email'], booking_updates: ['email'], announcements: ['email'] })).toEqual([]);
  });
  it('both categories, in category order', () => {
    const both = { reminders: [], booking_updates: [], unsubscribed: { booking_updates: '2027-08-03T12:00:00.000Z', reminders: '2027-08-02T12:00:00.000Z' } };
    expect(categoriesReenabled(both, { reminders: ['email'], booking_updates: ['email'], announcements: ['email'] })).toEqual(['reminders', 'booking_updates']);
  });
});

describe('nudgeOptOut (the "Remind now" preview)', () => {
  it('null while the person takes reminders by email (also with no stored preferences)', () => {
    expect(nudgeOptOut(null)).toBeNull();
    expect(nudgeOptOut({ reminders: ['email'], booking_updates: [], announcements: [] })).toBeNull();
  });
  it('a one-click unsubscribe from reminders names the instant, worded as the send path ends the message', () => {
    const stored = { reminders: [], booking_updates: ['email'], unsubscribed: { reminders: '2027-08-03T12:00:00.000Z' } };
    expect(nudgeOptOut(stored)).toEqual({
      reason: 'unsubscribed from reminders (one-click link, 2027-08-03T12:00:00.000Z)',
      unsubscribedAt: '2027-08-03T12:00:00.000Z',
    });
  });
  it('an opt-out on the preferences page (no marker) is reported too, without an instant', () => {
    expect(nudgeOptOut({ reminders: ['sms'], booking_updates: ['email'], announcements: ['email'] })).toEqual({ reason: 'opted out of reminders by email', unsubscribedAt: null });
    expect(nudgeOptOut({ reminders: [], booking_updates: ['email'], announcements: ['email'] })).toEqual({ reason: 'opted out of reminders by email', unsubscribedAt: null });
  });
  it('an unsubscribe from booking updates only does not stop a nudge', () => {
    expect(nudgeOptOut({ reminders: ['email'], booking_updates: [], unsubscribed: { booking_updates: '2027-08-03T12:00:00.000Z' } })).toBeNull();
  });
});
