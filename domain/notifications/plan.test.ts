import { describe, expect, it } from 'vitest';
import { defaultPolicy, emptyPolicy, type NotificationPolicy } from './notification-policy';
import { NOTIFICATION_LATE_SEND_MS, planNotifications, planOnNewChannels, recipientsOf, sendingTenantIds, type PlanInput, type PlanPerson } from './plan';
import type { BookingRole, BookingStatus, Channel, DomainEventType, PersonalChannel } from '@/domain/vocabulary';

const T = 'tenant-1';
const HAPPENED = new Date('2027-03-10T12:00:00.000Z');
const LATER = new Date('2027-03-14T12:00:00.000Z'); // the event ends well after the 24 h cap
const eventWide = (type: DomainEventType) => type === 'event_rescheduled' || type === 'event_cancelled';

/** A policy with exactly one (type, role) on. */
function only(type: DomainEventType, role: BookingRole): NotificationPolicy {
  const p: NotificationPolicy = JSON.parse(JSON.stringify(emptyPolicy));
  p[type][role] = true;
  return p;
}

function person(over: {
  id?: string;
  role?: BookingRole;
  status?: BookingStatus;
  createdAt?: Date;
  guestTenantId?: string | null;
  email?: string | null;
  phone?: string | null;
  preferences?: unknown;
  quietHours?: unknown;
  timeZone?: string | null;
} = {}): PlanPerson {
  const id = over.id ?? 'b1';
  return {
    booking: { id, role: over.role ?? 'attendee', status: over.status ?? 'confirmed', createdAt: over.createdAt ?? new Date('2027-03-01T00:00:00.000Z'), guestTenantId: over.guestTenantId ?? null },
    contact: {
      id: `c-${id}`,
      email: over.email === undefined ? `${id}@example.test` : over.email,
      phone: over.phone === undefined ? null : over.phone,
      preferences: over.preferences ?? null,
      quietHours: over.quietHours ?? null,
      timeZone: over.timeZone ?? null,
    },
  };
}

function input(type: DomainEventType, people: PlanPerson[], over: Partial<PlanInput> & { policy?: NotificationPolicy; subject?: string | null; webhookUrl?: string | null; webhookEnabled?: boolean } = {}): PlanInput {
  const { policy, subject, webhookUrl, webhookEnabled, ...rest } = over;
  return {
    domainEvent: {
      id: 'de-1',
      tenantId: T,
      eventId: 'ev-1',
      type,
      entityId: eventWide(type) ? 'ev-1' : 'b1',
      revision: 1,
      bookingId: subject !== undefined ? subject : eventWide(type) ? null : 'b1',
      createdAt: HAPPENED,
      payload: {},
    },
    event: { scheduleVersion: 3, endsAt: LATER },
    tenantTimeZone: 'UTC',
    settings: { policy: policy ?? defaultPolicy, webhookEnabled: webhookEnabled ?? false, webhookUrl: webhookUrl ?? null },
    people,
    ...rest,
  };
}

const channelsOf = (i: PlanInput) => planNotifications(i).map((r) => `${r.bookingId}:${r.channel}`);

describe('who hears: every domain event type × role × policy on/off', () => {
  const template: Record<DomainEventType, string> = {
    booking_confirmed: 'booking-confirmed',
    booking_cancelled: 'booking-cancelled',
    event_rescheduled: 'event-rescheduled',
    event_cancelled: 'event-cancelled',
    participant_added_as_host: 'host-added',
    event_details_changed: 'event-details-changed',
    booking_declined: 'booking-declined',
  };
  // [type, role, policy for that role, heard]. Subject types: the person is the subject booking (booking_cancelled:
  // already cancelled, as it is when the notice is made); event-wide: a confirmed booking made before the change.
  const table: [DomainEventType, BookingRole, 'on' | 'off', boolean][] = [
    ['booking_confirmed', 'attendee', 'on', true],
    ['booking_confirmed', 'attendee', 'off', false],
    ['booking_confirmed', 'external', 'on', true],
    ['booking_confirmed', 'external', 'off', false],
    ['booking_confirmed', 'host', 'on', true],
    ['booking_confirmed', 'host', 'off', false],
    ['booking_cancelled', 'attendee', 'on', true],
    ['booking_cancelled', 'attendee', 'off', false],
    ['booking_cancelled', 'external', 'on', true],
    ['booking_cancelled', 'external', 'off', false],
    ['booking_cancelled', 'host', 'on', true],
    ['booking_cancelled', 'host', 'off', false],
    ['event_rescheduled', 'attendee', 'on', true],
    ['event_rescheduled', 'attendee', 'off', false],
    ['event_rescheduled', 'external', 'on', true],
    ['event_rescheduled', 'external', 'off', false],
    ['event_rescheduled', 'host', 'on', true],
    ['event_rescheduled', 'host', 'off', false],
    ['event_cancelled', 'attendee', 'on', true],
    ['event_cancelled', 'attendee', 'off', false],
    ['event_cancelled', 'external', 'on', true],
    ['event_cancelled', 'external', 'off', false],
    ['event_cancelled', 'host', 'on', true],
    ['event_cancelled', 'host', 'off', false],
    ['participant_added_as_host', 'attendee', 'on', true],
    ['participant_added_as_host', 'attendee', 'off', false],
    ['participant_added_as_host', 'external', 'on', true],
    ['participant_added_as_host', 'external', 'off', false],
    ['participant_added_as_host', 'host', 'on', true],
    ['participant_added_as_host', 'host', 'off', false],
  ];
  it.each(table)('%s to a %s, policy %s → heard %s', (type, role, on, heard) => {
    const p = person({ role, status: type === 'booking_cancelled' ? 'cancelled' : 'confirmed' });
    const rows = planNotifications(input(type, [p], { policy: on === 'on' ? only(type, role) : emptyPolicy }));
    expect(rows.map((r) => [r.bookingId, r.channel, r.template])).toEqual(heard ? [['b1', 'email', template[type]]] : []);
  });

  it('no settings row at all: nobody hears', () => {
    expect(planNotifications({ ...input('event_cancelled', [person()]), settings: undefined })).toEqual([]);
  });
});

describe('who hears: booking status, subject and booked-after cases (default policy)', () => {
  const table: { name: string; type: DomainEventType; p: Parameters<typeof person>[0]; subject?: string | null; heard: boolean }[] = [
    { name: 'confirmation of a booking cancelled since', type: 'booking_confirmed', p: { status: 'cancelled' }, heard: false },
    { name: 'cancellation of the cancelled booking', type: 'booking_cancelled', p: { status: 'cancelled' }, heard: true },
    { name: 'host added, booking cancelled since', type: 'participant_added_as_host', p: { role: 'host', status: 'cancelled' }, heard: false },
    { name: 'confirmation about another booking', type: 'booking_confirmed', p: {}, subject: 'b2', heard: false },
    { name: 'confirmation without a subject', type: 'booking_confirmed', p: {}, subject: null, heard: false },
    { name: 'reschedule, cancelled booking', type: 'event_rescheduled', p: { status: 'cancelled' }, heard: false },
    { name: 'reschedule, booked after the change', type: 'event_rescheduled', p: { createdAt: new Date(HAPPENED.getTime() + 1) }, heard: false },
    { name: 'reschedule, booked at the instant of the change', type: 'event_rescheduled', p: { createdAt: HAPPENED }, heard: true },
    { name: 'event cancelled, booked after the change', type: 'event_cancelled', p: { createdAt: new Date(HAPPENED.getTime() + 1) }, heard: false },
    { name: 'confirmation, booked after the domain event (not event-wide: still heard)', type: 'booking_confirmed', p: { createdAt: new Date(HAPPENED.getTime() + 1) }, heard: true },
  ];
  it.each(table)('$name → heard $heard', ({ type, p, subject, heard }) => {
    expect(channelsOf(input(type, [person(p)], { subject }))).toEqual(heard ? ['b1:email'] : []);
  });

  it('an event-wide change reaches every confirmed booking, in booking order', () => {
    const people = [person({ id: 'b1' }), person({ id: 'b2', status: 'cancelled' }), person({ id: 'b3', role: 'host' }), person({ id: 'b4', role: 'external' })];
    expect(channelsOf(input('event_cancelled', people))).toEqual(['b1:email', 'b3:email', 'b4:email']);
    expect(recipientsOf(input('event_cancelled', people)).map((r) => r.person.booking.id)).toEqual(['b1', 'b3', 'b4']);
  });
});

describe('on which channels: preferences × essential (booking_confirmed is not essential, event_cancelled is)', () => {
  const ALL: PersonalChannel[] = ['email', 'sms'];
  // [case, contact, channels for a non-essential type, channels for an essential type]
  const table: [string, Parameters<typeof person>[0], PersonalChannel[], PersonalChannel[]][] = [
    ['no stored preferences (email)', { phone: '+15550100' }, ['email'], ['email']],
    ['booking updates by SMS', { phone: '+15550100', preferences: { reminders: ['email'], booking_updates: ['sms'] } }, ['sms'], ['email', 'sms']],
    ['booking updates by SMS only, reminders off', { phone: '+15550100', preferences: { reminders: [], booking_updates: ['sms'] } }, ['sms'], ['sms']],
    ['booking updates by email and SMS', { phone: '+15550100', preferences: { reminders: [], booking_updates: ALL } }, ALL, ALL],
    ['opted out of booking updates, reminders by email', { preferences: { reminders: ['email'], booking_updates: [] } }, [], ['email']],
    ['opted out of everything', { preferences: { reminders: [], booking_updates: [] } }, [], ['email']],
    ['accepts SMS but has no phone', { preferences: { reminders: [], booking_updates: ['sms'] } }, [], ['email']],
    ['accepts email but has no email address, has a phone', { email: null, phone: '+15550100' }, [], ['sms']],
    ['no address at all', { email: null }, [], []],
    ['unreadable stored preferences (defaults)', { preferences: 'not json' }, ['email'], ['email']],
  ];
  it.each(table)('%s', (_name, p, plain, essential) => {
    expect(planNotifications(input('booking_confirmed', [person(p)])).map((r) => r.channel)).toEqual(plain);
    expect(planNotifications(input('event_cancelled', [person(p)])).map((r) => r.channel)).toEqual(essential);
  });
});

describe('essential messages and suppressions', () => {
  const both = { phone: '+15550100' };
  // [case, contact, suppressed channels, channels]
  const table: [string, Parameters<typeof person>[0], PersonalChannel[], PersonalChannel[]][] = [
    ['nothing suppressed', both, [], ['email']],
    ['email bounced: falls back to SMS', both, ['email'], ['sms']],
    ['SMS STOP, takes updates by SMS: falls back to email', { ...both, preferences: { reminders: [], booking_updates: ['sms'] } }, ['sms'], ['email']],
    ['takes both, email bounced: SMS only', { ...both, preferences: { reminders: [], booking_updates: ['email', 'sms'] } }, ['email'], ['sms']],
    ['everything suppressed: what they accept (the send path records why)', both, ['email', 'sms'], ['email']],
    ['email suppressed, no phone: what they accept', {}, ['email'], ['email']],
  ];
  it.each(table)('%s', (_name, p, suppressed, expected) => {
    const i = input('event_cancelled', [person(p)], { suppressed: new Map([['b1', new Set(suppressed)]]) });
    expect(planNotifications(i).map((r) => r.channel)).toEqual(expected);
  });
  it('a non-essential message ignores the suppression map (suppression is checked at send time)', () => {
    const i = input('booking_confirmed', [person({ phone: '+15550100' })], { suppressed: new Map([['b1', new Set(['email'] as const)]]) });
    expect(planNotifications(i).map((r) => r.channel)).toEqual(['email']);
  });
  it('the sending tenants of a guest are the host and the guest organisation', () => {
    expect(sendingTenantIds(T, { guestTenantId: null })).toEqual([T]);
    expect(sendingTenantIds(T, { guestTenantId: 'guest-org' })).toEqual([T, 'guest-org']);
  });
});

describe('the organisation webhook × role', () => {
  const table: [string, BookingRole, { webhookEnabled: boolean; webhookUrl: string | null }, Channel[]][] = [
    ['attendee, webhook on', 'attendee', { webhookEnabled: true, webhookUrl: 'https://hooks.example.test/x' }, ['email', 'webhook']],
    ['host, webhook on', 'host', { webhookEnabled: true, webhookUrl: 'https://hooks.example.test/x' }, ['email', 'webhook']],
    ['external guest, webhook on: never the host webhook', 'external', { webhookEnabled: true, webhookUrl: 'https://hooks.example.test/x' }, ['email']],
    ['attendee, webhook on without a URL', 'attendee', { webhookEnabled: true, webhookUrl: null }, ['email']],
    ['attendee, webhook off with a URL', 'attendee', { webhookEnabled: false, webhookUrl: 'https://hooks.example.test/x' }, ['email']],
  ];
  it.each(table)('%s', (_name, role, hook, expected) => {
    expect(planNotifications(input('event_rescheduled', [person({ role })], hook)).map((r) => r.channel)).toEqual(expected);
  });
  it('a person who hears on no personal channel still reaches the webhook', () => {
    const p = person({ preferences: { reminders: [], booking_updates: [] } });
    expect(planNotifications(input('booking_confirmed', [p], { webhookEnabled: true, webhookUrl: 'https://h.example.test' })).map((r) => r.channel)).toEqual(['webhook']);
  });
});

describe('when: due, quiet hours and expiry', () => {
  const cap = new Date(HAPPENED.getTime() + NOTIFICATION_LATE_SEND_MS);
  const soon = new Date(HAPPENED.getTime() + 2 * 3600_000);
  // [type, event end, expected expiry]
  const expiry: [DomainEventType, Date, Date][] = [
    ['booking_confirmed', LATER, cap],
    ['booking_confirmed', soon, soon],
    ['event_rescheduled', soon, soon],
    ['participant_added_as_host', soon, soon],
    ['booking_cancelled', soon, cap],
    ['event_cancelled', soon, cap],
  ];
  it.each(expiry)('%s, event ending %s → expires %s', (type, endsAt, expected) => {
    const p = person({ role: 'host', status: type === 'booking_cancelled' ? 'cancelled' : 'confirmed' });
    const rows = planNotifications({ ...input(type, [p], { policy: only(type, 'host') }), event: { scheduleVersion: 3, endsAt } });
    expect(rows.map((r) => r.expiresAt)).toEqual([expected]);
    expect(rows[0].dueAt).toEqual(HAPPENED);
  });

  const quiet = { start: '11:00', end: '13:00' }; // HAPPENED (12:00 UTC) is inside
  const thirteen = new Date('2027-03-10T13:00:00.000Z');
  const hook = { webhookEnabled: true, webhookUrl: 'https://h.example.test' };
  it('a non-essential message in quiet hours waits for their end; the webhook does not', () => {
    const rows = planNotifications(input('booking_confirmed', [person({ quietHours: quiet, timeZone: 'UTC' })], hook));
    expect(rows.map((r) => [r.channel, r.dueAt, r.deferredFrom])).toEqual([
      ['email', thirteen, HAPPENED],
      ['webhook', HAPPENED, null],
    ]);
  });
  it('quiet hours are read in the contact zone, else the tenant zone', () => {
    // 12:00 UTC is 13:00 in Berlin (outside 11:00–13:00): not deferred.
    expect(planNotifications(input('booking_confirmed', [person({ quietHours: quiet, timeZone: 'Europe/Berlin' })]))[0].deferredFrom).toBeNull();
    expect(planNotifications({ ...input('booking_confirmed', [person({ quietHours: quiet })]), tenantTimeZone: 'Europe/Berlin' })[0].deferredFrom).toBeNull();
    expect(planNotifications(input('booking_confirmed', [person({ quietHours: quiet })]))[0].dueAt).toEqual(thirteen);
  });
  it('an essential message ignores quiet hours', () => {
    const rows = planNotifications(input('event_cancelled', [person({ quietHours: quiet })]));
    expect(rows.map((r) => [r.dueAt, r.deferredFrom])).toEqual([[HAPPENED, null]]);
  });
  it('quiet hours that end after the expiry: sent at the due time', () => {
    const endsAt = new Date(HAPPENED.getTime() + 30 * 60_000);
    const rows = planNotifications({ ...input('booking_confirmed', [person({ quietHours: quiet })]), event: { scheduleVersion: 3, endsAt } });
    expect(rows.map((r) => [r.dueAt, r.deferredFrom, r.expiresAt])).toEqual([[HAPPENED, null, endsAt]]);
  });
});

describe('the planned row', () => {
  it('carries the message key, template, schedule version (the payload’s, else the event’s) and the domain event', () => {
    const i = input('event_rescheduled', [person()]);
    i.domainEvent.payload = { scheduleVersion: 7 };
    i.domainEvent.revision = 7;
    expect(planNotifications(i)).toEqual([
      {
        tenantId: T,
        eventId: 'ev-1',
        bookingId: 'b1',
        ruleId: null,
        kind: 'notification',
        template: 'event-rescheduled',
        scheduleVersion: 7,
        channel: 'email',
        domainEventId: 'de-1',
        notificationType: 'event_rescheduled',
        messageKey: `ntf:${T}:event_rescheduled:ev-1:r7:c-b1:email`,
        dueAt: HAPPENED,
        deferredFrom: null,
        expiresAt: new Date(HAPPENED.getTime() + NOTIFICATION_LATE_SEND_MS),
        status: 'scheduled',
      },
    ]);
    expect(planNotifications(input('event_rescheduled', [person()]))[0].scheduleVersion).toBe(3);
  });
});

describe('planOnNewChannels (after a preferences save)', () => {
  const de = { type: 'booking_confirmed' as DomainEventType, entityId: 'b1', revision: 1 };
  const row = (channel: Channel, status: string, over: Record<string, unknown> = {}) => ({
    reminder: { id: `r-${channel}`, domainEventId: 'de-1', bookingId: 'b1', status, channel, template: 'booking-confirmed', createdAt: 1, updatedAt: 2, statusReason: null, dispatchedAt: null, dueAt: HAPPENED, ...over },
    domainEvent: de,
  });
  const contact = { id: 'c1', email: 'a@example.test', phone: '+15550100', preferences: { reminders: [], booking_updates: ['email', 'sms'] } };
  it('a waiting message gets a copy on each newly accepted channel, with its own key', () => {
    expect(planOnNewChannels({ tenantId: T, contact, rows: [row('email', 'scheduled')] })).toEqual([
      { domainEventId: 'de-1', bookingId: 'b1', status: 'scheduled', channel: 'sms', template: 'booking-confirmed', dueAt: HAPPENED, messageKey: `ntf:${T}:booking_confirmed:b1:r1:c1:sms` },
    ]);
  });
  it('nothing when every accepted channel already has a message, or nothing is waiting', () => {
    expect(planOnNewChannels({ tenantId: T, contact, rows: [row('email', 'scheduled'), row('sms', 'cancelled')] })).toEqual([]);
    expect(planOnNewChannels({ tenantId: T, contact, rows: [row('email', 'done')] })).toEqual([]);
  });
  it('an opt-out plans nothing new; an essential type still goes to what they accept anywhere', () => {
    const out = { ...contact, preferences: { reminders: ['sms'], booking_updates: [] } };
    expect(planOnNewChannels({ tenantId: T, contact: out, rows: [row('email', 'scheduled')] })).toEqual([]);
    const ess = { ...row('email', 'scheduled'), domainEvent: { type: 'event_cancelled' as DomainEventType, entityId: 'ev-1', revision: 2 } };
    expect(planOnNewChannels({ tenantId: T, contact: out, rows: [ess] }).map((r) => r.channel)).toEqual(['sms']);
  });
});
