import { describe, expect, it } from 'vitest';
import {
  audienceOf,
  concernedRoles,
  defaultPolicy,
  describePolicy,
  emptyPolicy,
  notificationTemplates,
  policySchema,
  readPolicy,
  type NotificationPolicy,
} from './notification-policy';
import { domainEventTypes, type BookingRole, type BookingStatus } from '@/domain/vocabulary';

const labels: Record<string, string> = {
  'booking-confirmed': 'Booking confirmed',
  'booking-cancelled': 'Booking cancelled',
  'event-rescheduled': 'Event rescheduled',
  'event-cancelled': 'Event cancelled',
  'host-added': 'You are a host',
  'event-details-changed': 'Event details changed',
  'booking-declined': 'A participant cannot come',
};
const label = (id: string) => labels[id] ?? id;

function firstError(input: unknown): string | null {
  const r = policySchema.safeParse(input);
  if (r.success) return null;
  const i = r.error.issues[0];
  const field = i.path.map(String).join('.');
  return field ? `${field}: ${i.message}` : i.message;
}

const clone = (p: NotificationPolicy): NotificationPolicy => JSON.parse(JSON.stringify(p));

describe('notificationTemplates, defaultPolicy and emptyPolicy', () => {
  it('templates per type', () => {
    expect(notificationTemplates).toEqual({
      booking_confirmed: ['booking-confirmed'],
      booking_cancelled: ['booking-cancelled'],
      event_rescheduled: ['event-rescheduled'],
      event_cancelled: ['event-cancelled'],
      participant_added_as_host: ['host-added'],
      event_details_changed: ['event-details-changed'],
      booking_declined: ['booking-declined'],
    });
  });
  it('default: every type on for every role it concerns, with its first template', () => {
    expect(defaultPolicy).toEqual({
      booking_confirmed: { attendee: true, external: true, host: false, template: 'booking-confirmed' },
      booking_cancelled: { attendee: true, external: true, host: false, template: 'booking-cancelled' },
      event_rescheduled: { attendee: true, external: true, host: true, template: 'event-rescheduled' },
      event_cancelled: { attendee: true, external: true, host: true, template: 'event-cancelled' },
      participant_added_as_host: { attendee: false, external: false, host: true, template: 'host-added' },
      event_details_changed: { attendee: true, external: true, host: true, template: 'event-details-changed' },
      booking_declined: { attendee: false, external: false, host: true, template: 'booking-declined' },
    });
  });
  it('empty: everything off', () => {
    for (const t of domainEventTypes) {
      expect(emptyPolicy[t]).toEqual({ attendee: false, external: false, host: false, template: notificationTemplates[t][0] });
    }
  });
  it('concerned roles agree with the default', () => {
    for (const t of domainEventTypes) {
      expect((['attendee', 'external', 'host'] as const).filter((r) => defaultPolicy[t][r])).toEqual(concernedRoles[t]);
    }
  });
});

describe('policySchema', () => {
  it('accepts the default and the empty policy', () => {
    expect(policySchema.parse(defaultPolicy)).toEqual(defaultPolicy);
    expect(policySchema.parse(emptyPolicy)).toEqual(emptyPolicy);
  });
  const withEntry = (type: string, entry: unknown) => ({ ...clone(defaultPolicy), [type]: entry });
  it.each([
    [withEntry('booking_confirmed', { ...defaultPolicy.booking_confirmed, template: 'host-added' }), 'booking_confirmed.template: must be one of booking-confirmed'],
    [withEntry('event_cancelled', { ...defaultPolicy.event_cancelled, template: 7 }), 'event_cancelled.template: must be one of event-cancelled'],
    [withEntry('event_cancelled', { ...defaultPolicy.event_cancelled, host: 'yes' }), 'event_cancelled.host: must be true or false'],
    [withEntry('booking_cancelled', { attendee: true, external: true, template: 'booking-cancelled' }), 'booking_cancelled.host: required: true or false'],
    [withEntry('booking_cancelled', { ...defaultPolicy.booking_cancelled, sms: true }), 'booking_cancelled: unknown field "sms" (expected attendee, external, host and template)'],
    [withEntry('event_rescheduled', true), 'event_rescheduled: must be an object { attendee, external, host, template }'],
    [withEntry('booking_reminded', defaultPolicy.booking_confirmed), 'unknown event type "booking_reminded" (expected booking_confirmed, booking_cancelled, event_rescheduled, event_cancelled, participant_added_as_host, event_details_changed, booking_declined)'],
    [(({ participant_added_as_host: _, ...rest }) => rest)(clone(defaultPolicy)), 'participant_added_as_host: required: { attendee, external, host, template }'],
    [null, 'must be an object with an entry for each of booking_confirmed, booking_cancelled, event_rescheduled, event_cancelled, participant_added_as_host, event_details_changed, booking_declined'],
  ])('refuses naming the field: %#', (input, message) => {
    expect(firstError(input)).toBe(message);
  });
});

describe('a type added later (event_details_changed)', () => {
  const { event_details_changed: _gone, ...older } = clone(defaultPolicy);
  it('a stored policy without it: takes the roles of event_rescheduled, with its own template', () => {
    const attendeesOnly = { ...older, event_rescheduled: { attendee: true, external: false, host: false, template: 'event-rescheduled' } };
    expect(readPolicy(attendeesOnly).event_details_changed).toEqual({ attendee: true, external: false, host: false, template: 'event-details-changed' });
    expect(readPolicy(older).event_details_changed).toEqual(defaultPolicy.event_details_changed);
  });
  it('its own stored entry decides (here: nobody), even when event_rescheduled notifies', () => {
    expect(readPolicy({ ...older, event_details_changed: emptyPolicy.event_details_changed }).event_details_changed).toEqual(emptyPolicy.event_details_changed);
  });
  it('a policy sent to the API may leave it out; it then inherits, and a wrong entry is still refused', () => {
    expect(policySchema.parse(older)).toEqual(defaultPolicy);
    expect(firstError({ ...older, event_details_changed: { attendee: 'yes' } })).toBe('event_details_changed.attendee: must be true or false');
  });
});

describe('readPolicy', () => {
  it('missing or garbage → empty policy', () => {
    for (const stored of [undefined, null, 'junk', 3, [], {}]) expect(readPolicy(stored)).toEqual(emptyPolicy);
  });
  it('reads a stored policy, and a double-encoded one', () => {
    expect(readPolicy(clone(defaultPolicy))).toEqual(defaultPolicy);
    expect(readPolicy(JSON.stringify(defaultPolicy))).toEqual(defaultPolicy);
  });
  it('per type: a missing entry is off, a non-true flag is off, an unknown template is the first', () => {
    const p = readPolicy({
      booking_confirmed: { attendee: true, external: 'true', host: 1, template: 'nope' },
      event_cancelled: { host: true },
      event_rescheduled: 'on',
    });
    expect(p.booking_confirmed).toEqual({ attendee: true, external: false, host: false, template: 'booking-confirmed' });
    expect(p.event_cancelled).toEqual({ attendee: false, external: false, host: true, template: 'event-cancelled' });
    expect(p.event_rescheduled).toEqual(emptyPolicy.event_rescheduled);
    expect(p.booking_cancelled).toEqual(emptyPolicy.booking_cancelled);
  });
});

describe('audienceOf', () => {
  const b = (id: string, role: BookingRole, status: BookingStatus = 'confirmed') => ({ id, role, status });
  const bookings = [b('a1', 'attendee'), b('x1', 'external'), b('h1', 'host'), b('a2', 'attendee', 'cancelled'), b('h2', 'host', 'cancelled')];

  it('booking_confirmed: only the subject booking, when its role is on', () => {
    expect(audienceOf({ type: 'booking_confirmed', policy: defaultPolicy, subjectBookingId: 'a1', bookings })).toEqual([{ bookingId: 'a1', template: 'booking-confirmed' }]);
    expect(audienceOf({ type: 'booking_confirmed', policy: defaultPolicy, subjectBookingId: 'x1', bookings })).toEqual([{ bookingId: 'x1', template: 'booking-confirmed' }]);
    expect(audienceOf({ type: 'booking_confirmed', policy: defaultPolicy, subjectBookingId: 'h1', bookings })).toEqual([]); // hosts off
  });
  it('booking_confirmed for a booking cancelled since: nobody', () => {
    expect(audienceOf({ type: 'booking_confirmed', policy: defaultPolicy, subjectBookingId: 'a2', bookings })).toEqual([]);
  });
  it('booking_cancelled: the subject even though it is now cancelled', () => {
    expect(audienceOf({ type: 'booking_cancelled', policy: defaultPolicy, subjectBookingId: 'a2', bookings })).toEqual([{ bookingId: 'a2', template: 'booking-cancelled' }]);
    expect(audienceOf({ type: 'booking_cancelled', policy: defaultPolicy, subjectBookingId: 'h2', bookings })).toEqual([]); // hosts off
    const hostsToo = clone(defaultPolicy);
    hostsToo.booking_cancelled.host = true;
    expect(audienceOf({ type: 'booking_cancelled', policy: hostsToo, subjectBookingId: 'h2', bookings })).toEqual([{ bookingId: 'h2', template: 'booking-cancelled' }]);
  });
  it('participant_added_as_host: the subject host only', () => {
    expect(audienceOf({ type: 'participant_added_as_host', policy: defaultPolicy, subjectBookingId: 'h1', bookings })).toEqual([{ bookingId: 'h1', template: 'host-added' }]);
    expect(audienceOf({ type: 'participant_added_as_host', policy: defaultPolicy, subjectBookingId: 'h2', bookings })).toEqual([]); // cancelled since
    expect(audienceOf({ type: 'participant_added_as_host', policy: emptyPolicy, subjectBookingId: 'h1', bookings })).toEqual([]);
  });
  it('a missing or unknown subject: nobody', () => {
    expect(audienceOf({ type: 'booking_confirmed', policy: defaultPolicy, subjectBookingId: null, bookings })).toEqual([]);
    expect(audienceOf({ type: 'booking_cancelled', policy: defaultPolicy, subjectBookingId: 'zz', bookings })).toEqual([]);
  });
  it('event_rescheduled / event_cancelled: every confirmed booking whose role is on, subject ignored', () => {
    for (const type of ['event_rescheduled', 'event_cancelled'] as const) {
      const template = notificationTemplates[type][0];
      expect(audienceOf({ type, policy: defaultPolicy, subjectBookingId: 'a2', bookings })).toEqual([
        { bookingId: 'a1', template },
        { bookingId: 'x1', template },
        { bookingId: 'h1', template },
      ]);
      const attendeesOnly = clone(emptyPolicy);
      attendeesOnly[type].attendee = true;
      expect(audienceOf({ type, policy: attendeesOnly, subjectBookingId: null, bookings })).toEqual([{ bookingId: 'a1', template }]);
      expect(audienceOf({ type, policy: emptyPolicy, subjectBookingId: null, bookings })).toEqual([]);
    }
  });
  it('a booking listed twice is notified once', () => {
    expect(audienceOf({ type: 'event_cancelled', policy: defaultPolicy, subjectBookingId: null, bookings: [b('a1', 'attendee'), b('a1', 'attendee')] })).toHaveLength(1);
  });
});

describe('describePolicy', () => {
  it('the default policy', () => {
    expect(describePolicy(defaultPolicy, label)).toEqual([
      'When a booking is confirmed, the attendee and the external guest get “Booking confirmed”.',
      'When a booking is cancelled, the attendee and the external guest get “Booking cancelled”.',
      'When an event is rescheduled, attendees, external guests and hosts get “Event rescheduled”.',
      'When an event is cancelled (essential: sent even to people who opted out of booking updates), attendees, external guests and hosts get “Event cancelled”.',
      'When a host is added, the host gets “You are a host”.',
      "When staff tell people about a change of an event's title, place, online-room link or description, attendees, external guests and hosts get “Event details changed”.",
      'When a participant says they cannot come, hosts get “A participant cannot come”.',
      'Quiet hours delay non-essential notifications: people with quiet hours get them when their quiet hours end, if that is before the notification expires, else at its due time.',
    ]);
  });
  it('nobody notified; no quiet-hours sentence when only essential types notify', () => {
    const p = clone(emptyPolicy);
    p.event_cancelled.host = true;
    expect(describePolicy(p, label)).toEqual([
      'When a booking is confirmed: nobody is notified.',
      'When a booking is cancelled: nobody is notified.',
      'When an event is rescheduled: nobody is notified.',
      'When an event is cancelled (essential: sent even to people who opted out of booking updates), hosts get “Event cancelled”.',
      'When a host is added: nobody is notified.',
      "When staff tell people about a change of an event's title, place, online-room link or description: nobody is notified.",
      'When a participant says they cannot come: nobody is notified.',
    ]);
  });
  it('one role of a single booking takes "gets"', () => {
    const p = clone(emptyPolicy);
    p.booking_confirmed.external = true;
    expect(describePolicy(p, label)[0]).toBe('When a booking is confirmed, the external guest gets “Booking confirmed”.');
  });
});

describe('booking_declined audience', () => {
  it('the other confirmed bookings whose role is on (by default the hosts), never the subject', () => {
    const bookings = [
      { id: 'a1', role: 'attendee' as const, status: 'cancelled' as const },
      { id: 'a2', role: 'attendee' as const, status: 'confirmed' as const },
      { id: 'h1', role: 'host' as const, status: 'confirmed' as const },
      { id: 'h2', role: 'host' as const, status: 'cancelled' as const },
    ];
    expect(audienceOf({ type: 'booking_declined', policy: defaultPolicy, subjectBookingId: 'a1', bookings })).toEqual([{ bookingId: 'h1', template: 'booking-declined' }]);
    expect(audienceOf({ type: 'booking_declined', policy: emptyPolicy, subjectBookingId: 'a1', bookings })).toEqual([]);
  });
});

describe('a type added later (booking_declined)', () => {
  it('a stored policy without it notifies the hosts (the default); an empty or unreadable one nobody', () => {
    const { booking_declined: _gone, ...older } = clone(defaultPolicy);
    expect(readPolicy(older).booking_declined).toEqual({ attendee: false, external: false, host: true, template: 'booking-declined' });
    expect(readPolicy({}).booking_declined).toEqual(emptyPolicy.booking_declined);
    expect(readPolicy({ ...older, booking_declined: { attendee: false, external: false, host: false, template: 'booking-declined' } }).booking_declined.host).toBe(false);
  });
});
