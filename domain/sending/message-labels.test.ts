import { describe, expect, it } from 'vitest';
import {
  channelLabels,
  describeSmsSegments,
  messageTitle,
  notificationLabels,
  quietHoursNote,
  reconcileHint,
  sendAgainWarning,
  subjectLabels,
} from './message-labels';
import { channels, domainEventTypes } from '@/domain/vocabulary';

describe('channel and notification labels', () => {
  it('every channel has its badge word', () => {
    expect(channels.map((c) => channelLabels[c])).toEqual(['Email', 'SMS', 'Webhook']);
    expect(channels.map((c) => subjectLabels[c])).toEqual(['Subject', 'SMS text', 'Webhook target']);
  });

  it('every domain event type has a plain-words label', () => {
    for (const t of domainEventTypes) expect(notificationLabels[t]).toMatch(/^[A-Z][a-z]+( [a-z]+)*$/);
    expect(notificationLabels.booking_confirmed).toBe('Booking confirmed');
    expect(notificationLabels.event_rescheduled).toBe('Event rescheduled');
  });
});

describe('messageTitle', () => {
  it('a rule reminder by its rule, or "(rule deleted)"', () => {
    expect(messageTitle({ kind: 'rule', ruleName: 'Day before', notificationType: null })).toBe('Day before');
    expect(messageTitle({ kind: 'rule', ruleName: null, notificationType: null })).toBe('(rule deleted)');
  });
  it('a nudge as "Manual reminder"', () => {
    expect(messageTitle({ kind: 'nudge', ruleName: null, notificationType: null })).toBe('Manual reminder');
  });
  it('a notification by its type, never as a deleted rule', () => {
    expect(messageTitle({ kind: 'notification', ruleName: null, notificationType: 'booking_confirmed' })).toBe('Booking confirmed');
    expect(messageTitle({ kind: 'notification', ruleName: null, notificationType: 'event_cancelled' })).toBe('Event cancelled');
    expect(messageTitle({ kind: 'notification', ruleName: null, notificationType: null })).toBe('Notification');
  });
});

describe('quietHoursNote', () => {
  it('names the old due time and the end of quiet hours in the person’s zone', () => {
    // Due 23:10 CET, held until 08:00 CET the next morning (quiet hours 21:00–08:00 Europe/Berlin).
    const note = quietHoursNote({
      deferredFrom: '2027-03-09T22:10:00Z',
      dueAt: new Date('2027-03-10T07:00:00Z'),
      personZone: 'Europe/Berlin',
      pageZone: 'Europe/Berlin',
    });
    expect(note).toBe('held for quiet hours (due 23:10, sent after 08:00)');
  });
  it('says whose clock it is when the person lives in another zone than the page shows', () => {
    const note = quietHoursNote({
      deferredFrom: '2027-03-10T03:10:00Z',
      dueAt: '2027-03-10T13:00:00Z',
      personZone: 'America/New_York',
      pageZone: 'Europe/Amsterdam',
    });
    expect(note).toBe('held for quiet hours (due 22:10, sent after 08:00, their time in America/New_York)');
  });
  it('nothing held → null', () => {
    expect(quietHoursNote({ deferredFrom: null, dueAt: '2027-03-10T07:00:00Z', personZone: 'UTC', pageZone: 'UTC' })).toBeNull();
    // A deferral that did not move the message later is no deferral.
    expect(quietHoursNote({ deferredFrom: '2027-03-10T07:00:00Z', dueAt: '2027-03-10T07:00:00Z', personZone: 'UTC', pageZone: 'UTC' })).toBeNull();
  });
});

describe('describeSmsSegments', () => {
  const gsm = (n: number) => 'a'.repeat(n);
  it('"2 segments · GSM-7 · 170 characters"', () => {
    expect(describeSmsSegments(gsm(170))).toBe('2 segments · GSM-7 · 170 characters');
  });
  it('160 GSM-7 characters are 1 segment, 161 are 2', () => {
    expect(describeSmsSegments(gsm(160))).toBe('1 segment · GSM-7 · 160 characters');
    expect(describeSmsSegments(gsm(161))).toBe('2 segments · GSM-7 · 161 characters');
  });
  it('one ł makes it UCS-2: 70 characters 1 segment, 71 → 2', () => {
    expect(describeSmsSegments(`ł${gsm(69)}`)).toBe('1 segment · UCS-2 · 70 characters');
    expect(describeSmsSegments(`ł${gsm(70)}`)).toBe('2 segments · UCS-2 · 71 characters');
  });
  it('units that differ from characters are named: an emoji is 2 UTF-16 units, € is 2 septets', () => {
    expect(describeSmsSegments(`${gsm(69)}😀`)).toBe('2 segments · UCS-2 · 70 characters (71 UTF-16 units)');
    expect(describeSmsSegments('Price: 10 €')).toBe('1 segment · GSM-7 · 11 characters (12 septets)');
  });
  it('the empty text: nothing to send', () => {
    expect(describeSmsSegments('')).toBe('0 segments · GSM-7 · 0 characters');
  });
});

describe('per-channel operator wording', () => {
  const ids = { messageId: '<k@punctual.local>', messageKey: 'ntf:t:booking_confirmed:b:1:c:webhook', address: '+31612345678' };
  it('email: look for the Message-ID', () => {
    expect(reconcileHint('email', ids)).toContain('look for Message-ID <k@punctual.local>');
  });
  it('SMS: by number and time in the provider’s log (no key travels with an SMS)', () => {
    const hint = reconcileHint('sms', ids);
    expect(hint).toContain('+31612345678');
    expect(hint).not.toContain('Message-ID');
  });
  it('webhook: by webhook-id, which is the message key', () => {
    expect(reconcileHint('webhook', ids)).toContain(`webhook-id ${ids.messageKey}`);
  });
  it('send again warns in each channel’s terms', () => {
    expect(sendAgainWarning('email', 'a@example.test')).toContain('may get this message twice');
    expect(sendAgainWarning('sms', '+31612345678')).toContain('twice');
    expect(sendAgainWarning('webhook', 'https://hooks.example/x')).toContain('same webhook-id');
  });
});
