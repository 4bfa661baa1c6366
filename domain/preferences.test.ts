import { describe, expect, it } from 'vitest';
import {
  categoryOf,
  channelsFor,
  defaultPreferences,
  describePreferences,
  isEssential,
  optOutReason,
  preferencesSchema,
  readPreferences,
  type ChannelPreferences,
} from './preferences';
import { domainEventTypes, type DomainEventType } from './vocabulary';

/** The message server/errors.ts `fromZodError` builds from the first issue: "<dotted path>: <message>". */
function firstError(input: unknown): string | null {
  const r = preferencesSchema.safeParse(input);
  if (r.success) return null;
  const i = r.error.issues[0];
  const field = i.path.map(String).join('.');
  return field ? `${field}: ${i.message}` : i.message;
}

describe('preferencesSchema', () => {
  it('accepts both categories, empty lists (opt-out) and returns email before sms', () => {
    expect(preferencesSchema.parse({ reminders: ['sms', 'email'], booking_updates: [] })).toEqual({ reminders: ['email', 'sms'], booking_updates: [] });
    expect(preferencesSchema.parse({ reminders: ['email'], booking_updates: ['sms'] })).toEqual({ reminders: ['email'], booking_updates: ['sms'] });
  });
  it.each([
    [{ reminders: ['email'], booking_updates: ['fax'] }, 'booking_updates: unknown channel "fax"'],
    [{ reminders: ['webhook'], booking_updates: [] }, 'reminders: unknown channel "webhook"'],
    [{ reminders: [1], booking_updates: [] }, 'reminders: unknown channel 1'],
    [{ reminders: ['email', 'email'], booking_updates: [] }, 'reminders: channel "email" is listed twice'],
    [{ reminders: 'email', booking_updates: [] }, 'reminders: must be a list of channels such as ["email", "sms"] (an empty list opts out)'],
    [{ reminders: [] }, 'booking_updates: required: a list of channels such as ["email"] (an empty list opts out)'],
    [{ reminders: [], booking_updates: [], push: ['email'] }, 'unknown category "push" (expected reminders and booking_updates)'],
    [null, 'must be an object with reminders and booking_updates, each a list of channels'],
    [['email'], 'must be an object with reminders and booking_updates, each a list of channels'],
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
    [{ reminders: [], booking_updates: [] }, { reminders: [], booking_updates: [] }],
    [{ reminders: 'sms', booking_updates: ['sms'] }, { reminders: ['email'], booking_updates: ['sms'] }],
    [{ reminders: ['sms', 'fax', 'sms', 'email'] }, { reminders: ['email', 'sms'], booking_updates: ['email'] }],
    [{ reminders: ['fax'], booking_updates: null }, { reminders: [], booking_updates: ['email'] }],
    ['{"reminders":["sms"],"booking_updates":[]}', { reminders: ['sms'], booking_updates: [] }],
  ])('%j → %j', (stored, expected) => {
    expect(readPreferences(stored)).toEqual(expected);
  });
  it('returns a copy: changing it does not change the defaults', () => {
    const p = readPreferences(null);
    p.reminders.push('sms');
    expect(defaultPreferences.reminders).toEqual(['email']);
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
  const smsUpdates: ChannelPreferences = { reminders: ['email'], booking_updates: ['sms'] };
  const both = { hasEmail: true, hasPhone: true };

  it('issue #9: booking updates by SMS only and reminders by email', () => {
    expect(channelsFor({ category: 'booking_updates', essential: false, prefs: smsUpdates, ...both })).toEqual(['sms']);
    expect(channelsFor({ category: 'reminders', essential: false, prefs: smsUpdates, ...both })).toEqual(['email']);
  });
  it('issue #9: opted out of booking updates still gets event_cancelled (essential) by email', () => {
    const optedOut: ChannelPreferences = { reminders: [], booking_updates: [] };
    expect(channelsFor({ category: 'booking_updates', essential: false, prefs: optedOut, ...both })).toEqual([]);
    expect(channelsFor({ category: 'booking_updates', essential: true, prefs: optedOut, ...both })).toEqual(['email']);
    // Opted out of booking updates only: essential goes where they take reminders.
    expect(channelsFor({ category: 'booking_updates', essential: true, prefs: { reminders: ['email'], booking_updates: [] }, ...both })).toEqual(['email']);
  });
  it('issue #9: reminders by email and SMS → essential on both', () => {
    const prefs: ChannelPreferences = { reminders: ['email', 'sms'], booking_updates: [] };
    expect(channelsFor({ category: 'booking_updates', essential: true, prefs, ...both })).toEqual(['email', 'sms']);
  });
  it('essential: the union of every category, email before sms', () => {
    const prefs: ChannelPreferences = { reminders: ['sms'], booking_updates: ['email'] };
    expect(channelsFor({ category: 'booking_updates', essential: true, prefs, ...both })).toEqual(['email', 'sms']);
  });
  it('drops channels without an address', () => {
    const prefs: ChannelPreferences = { reminders: ['email', 'sms'], booking_updates: ['sms'] };
    expect(channelsFor({ category: 'reminders', essential: false, prefs, hasEmail: true, hasPhone: false })).toEqual(['email']);
    expect(channelsFor({ category: 'reminders', essential: false, prefs, hasEmail: false, hasPhone: true })).toEqual(['sms']);
    expect(channelsFor({ category: 'booking_updates', essential: false, prefs, hasEmail: true, hasPhone: false })).toEqual([]);
  });
  it('essential with only unreachable channels falls back to email, or to nothing without an email address', () => {
    const prefs: ChannelPreferences = { reminders: [], booking_updates: ['sms'] };
    expect(channelsFor({ category: 'booking_updates', essential: true, prefs, hasEmail: true, hasPhone: false })).toEqual(['email']);
    expect(channelsFor({ category: 'booking_updates', essential: true, prefs, hasEmail: false, hasPhone: false })).toEqual([]);
    expect(channelsFor({ category: 'booking_updates', essential: true, prefs: { reminders: [], booking_updates: [] }, hasEmail: false, hasPhone: true })).toEqual([]);
  });
  it('normalises an unordered list', () => {
    const prefs = { reminders: ['sms', 'email'], booking_updates: [] } as ChannelPreferences;
    expect(channelsFor({ category: 'reminders', essential: false, prefs, ...both })).toEqual(['email', 'sms']);
  });
});

describe('optOutReason', () => {
  const prefs: ChannelPreferences = { reminders: ['email'], booking_updates: ['sms'] };
  it('null when the channel is accepted in the category', () => {
    expect(optOutReason({ category: 'booking_updates', essential: false, prefs, channel: 'sms' })).toBeNull();
    expect(optOutReason({ category: 'reminders', essential: false, prefs, channel: 'email' })).toBeNull();
  });
  it('names the category and channel when it is not', () => {
    expect(optOutReason({ category: 'booking_updates', essential: false, prefs, channel: 'email' })).toBe('opted out of booking updates by email');
    expect(optOutReason({ category: 'reminders', essential: false, prefs, channel: 'sms' })).toBe('opted out of reminders by SMS');
    expect(optOutReason({ category: 'booking_updates', essential: false, prefs: { reminders: ['sms'], booking_updates: [] }, channel: 'sms' })).toBe('opted out of booking updates by SMS');
  });
  it('essential messages and webhooks are never opted out', () => {
    const none: ChannelPreferences = { reminders: [], booking_updates: [] };
    expect(optOutReason({ category: 'booking_updates', essential: true, prefs: none, channel: 'email' })).toBeNull();
    expect(optOutReason({ category: 'booking_updates', essential: true, prefs: none, channel: 'sms' })).toBeNull();
    expect(optOutReason({ category: 'reminders', essential: false, prefs: none, channel: 'webhook' })).toBeNull();
  });
});

describe('describePreferences', () => {
  it.each([
    [defaultPreferences, ['Reminders by email.', 'Booking updates by email.']],
    [{ reminders: ['email', 'sms'], booking_updates: ['email', 'sms'] }, ['Reminders by SMS and email.', 'Booking updates by SMS and email.']],
    [{ reminders: ['sms'], booking_updates: [] }, ['Reminders by SMS.', 'No booking updates (except essential ones such as event cancellations).']],
    [{ reminders: [], booking_updates: ['sms'] }, ['No reminders.', 'Booking updates by SMS.']],
  ] as [ChannelPreferences, string[]][])('%j', (prefs, sentences) => {
    expect(describePreferences(prefs)).toEqual(sentences);
  });
});
