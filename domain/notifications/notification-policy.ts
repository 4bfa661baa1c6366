/**
 * A tenant's notification policy (issue #9): per domain event type, which booking roles hear about it and with
 * which template. Pure: no I/O, no clock. Which CHANNELS a person hears on is their preferences' business
 * (preferences.ts); this module only says WHO.
 *
 * Rules:
 * - A tenant with no stored policy notifies nobody ({@link emptyPolicy}); {@link defaultPolicy} is what a tenant
 *   gets offered (or seeded): every type on for every role it concerns ({@link concernedRoles}).
 * - `booking_confirmed`, `booking_cancelled` and `participant_added_as_host` are about ONE booking (the domain
 *   event's subject): only that booking hears, if its role is on. `event_rescheduled` and `event_cancelled` are
 *   about the event: every CONFIRMED booking whose role is on hears.
 * - Each type has a closed list of templates ({@link notificationTemplates}); the first is the default.
 */
import { z } from 'zod';
import { bookingRoles, domainEventTypes, essentialTypes, type BookingRole, type BookingStatus, type DomainEventType } from '@/domain/vocabulary';

/** For one domain event type: which roles are notified, and the template id they get. */
interface PolicyEntry {
  attendee: boolean;
  external: boolean;
  host: boolean;
  template: string;
}

/** A tenant's notification policy: one entry per domain event type. */
export type NotificationPolicy = Record<DomainEventType, PolicyEntry>;

/** Template ids allowed per domain event type (the first is the default). */
export const notificationTemplates: Record<DomainEventType, readonly string[]> = {
  booking_confirmed: ['booking-confirmed'],
  booking_cancelled: ['booking-cancelled'],
  event_rescheduled: ['event-rescheduled'],
  event_cancelled: ['event-cancelled'],
  participant_added_as_host: ['host-added'],
  event_details_changed: ['event-details-changed'],
  booking_declined: ['booking-declined'],
};

/**
 * Roles a type concerns (what {@link defaultPolicy} turns on, and what a policy form offers first): hosts hear
 * about being added as a host and about the event changing; attendees and external guests hear about their
 * booking and about the event changing.
 */
export const concernedRoles: Record<DomainEventType, readonly BookingRole[]> = {
  booking_confirmed: ['attendee', 'external'],
  booking_cancelled: ['attendee', 'external'],
  event_rescheduled: ['attendee', 'external', 'host'],
  event_cancelled: ['attendee', 'external', 'host'],
  participant_added_as_host: ['host'],
  event_details_changed: ['attendee', 'external', 'host'],
  booking_declined: ['host'],
};

/** Types about the whole event (every confirmed booking hears); the others are about their subject booking only. */
export const eventWideTypes: readonly DomainEventType[] = ['event_rescheduled', 'event_cancelled', 'event_details_changed'];

/**
 * Types added after policies were first stored, each with the type whose roles a stored policy without it inherits:
 * a tenant that tells people about a reschedule also tells them about a changed place or link (its own entry, once
 * saved, decides from then on). A policy sent to the API may leave these out (same rule).
 */
const inheritedFrom: Partial<Record<DomainEventType, DomainEventType>> = { event_details_changed: 'event_rescheduled' };

/**
 * Types added after policies were first stored whose missing entry takes {@link defaultPolicy}'s: a participant's "I can't
 * come" reaches the event's hosts in every organisation until it says otherwise (staff learn a place was freed).
 */
const defaultWhenMissing: ReadonlySet<DomainEventType> = new Set(['booking_declined']);

function policyOf(on: (type: DomainEventType, role: BookingRole) => boolean): NotificationPolicy {
  return Object.fromEntries(
    domainEventTypes.map((type) => [
      type,
      { attendee: on(type, 'attendee'), external: on(type, 'external'), host: on(type, 'host'), template: notificationTemplates[type][0] },
    ]),
  ) as NotificationPolicy;
}

/** Every type on for every role it concerns ({@link concernedRoles}), with its first template. */
export const defaultPolicy: NotificationPolicy = policyOf((type, role) => concernedRoles[type].includes(role));

/** Everything off, first templates: a tenant with no policy row notifies nobody. */
export const emptyPolicy: NotificationPolicy = policyOf(() => false);

const flag = z.boolean({ error: (iss) => (iss.input === undefined ? 'required: true or false' : 'must be true or false') });

function entrySchema(type: DomainEventType) {
  const allowed = notificationTemplates[type];
  return z.strictObject(
    {
      attendee: flag,
      external: flag,
      host: flag,
      template: z.string({ error: `must be one of ${allowed.join(', ')}` }).refine((t) => allowed.includes(t), { message: `must be one of ${allowed.join(', ')}` }),
    },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? `unknown ${iss.keys.length === 1 ? 'field' : 'fields'} ${iss.keys.map((k) => JSON.stringify(k)).join(', ')} (expected attendee, external, host and template)`
          : iss.input === undefined
            ? 'required: { attendee, external, host, template }'
            : 'must be an object { attendee, external, host, template }',
    },
  );
}

/**
 * zod schema for a policy sent to the API: an object with an entry for EVERY domain event type, each
 * `{ attendee: boolean, external: boolean, host: boolean, template }` with a template from
 * {@link notificationTemplates}; no other keys — except that a type added later (`event_details_changed`) may be left
 * out and then takes the roles of the type it inherits from. Issue paths name the field, so `fromZodError` (server/platform/errors.ts)
 * reads e.g. "booking_confirmed.template: must be one of booking-confirmed" or "event_cancelled.host: must be
 * true or false".
 */
export const policySchema = z.strictObject(
  Object.fromEntries(domainEventTypes.map((t) => [t, inheritedFrom[t] || defaultWhenMissing.has(t) ? entrySchema(t).optional() : entrySchema(t)])) as { [T in DomainEventType]: ReturnType<typeof entrySchema> },
  {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? `unknown event ${iss.keys.length === 1 ? 'type' : 'types'} ${iss.keys.map((k) => JSON.stringify(k)).join(', ')} (expected ${domainEventTypes.join(', ')})`
        : `must be an object with an entry for each of ${domainEventTypes.join(', ')}`,
  },
  // A type added later may be left out: it then inherits (readPolicy), so the output always has every type.
).transform((p): NotificationPolicy => readPolicy(p));

/**
 * Reads a policy stored in a jsonb column, tolerantly and per type: a missing or unreadable entry is
 * {@link emptyPolicy}'s (nobody notified) — except a missing entry of a type added later, which takes the roles of the
 * type it inherits from ({@link inheritedFrom}: `event_details_changed` those of `event_rescheduled`), or the default's
 * ({@link defaultWhenMissing}: `booking_declined`, the hosts); in an entry, a flag that is not `true` is off and a template that is
 * not allowed for the type is the type's first. A JSON string (double-encoded jsonb) is decoded first. Never throws.
 */
export function readPolicy(stored: unknown): NotificationPolicy {
  let value = stored;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      value = null;
    }
  }
  const obj = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const out = {} as NotificationPolicy;
  // A policy someone saved (it has entries), not an empty or unreadable value (which notifies nobody).
  const saved = domainEventTypes.some((t) => t in obj);
  for (const type of domainEventTypes) {
    const e = obj[type];
    if (e === null || typeof e !== 'object' || Array.isArray(e)) {
      const from = inheritedFrom[type];
      // Computed earlier in this loop: the inherited type comes first in domainEventTypes.
      out[type] =
        e === undefined && from && out[from]
          ? { ...out[from], template: notificationTemplates[type][0] }
          : e === undefined && defaultWhenMissing.has(type) && saved
            ? { ...defaultPolicy[type] }
            : { ...emptyPolicy[type] };
      continue;
    }
    const entry = e as Record<string, unknown>;
    const template = notificationTemplates[type].includes(entry.template as string) ? (entry.template as string) : notificationTemplates[type][0];
    out[type] = { attendee: entry.attendee === true, external: entry.external === true, host: entry.host === true, template };
  }
  return out;
}

/**
 * Who hears about a domain event, by booking, with the template they get (in the order of `bookings`, each
 * booking at most once).
 * - `booking_confirmed`, `participant_added_as_host`: the subject booking only, if its role is on and it is
 *   still confirmed (a booking cancelled before the notification was made is not told it was confirmed — it
 *   hears about the cancellation instead).
 * - `booking_cancelled`: the subject booking only, if its role is on — even though its status is now cancelled.
 * - `event_rescheduled`, `event_cancelled`, `event_details_changed`: every CONFIRMED booking whose role is on (the
 *   subject is ignored).
 * - `booking_declined` (the participant said they cannot come): every OTHER confirmed booking whose role is on —
 *   by default the hosts, so the staff running the event learn the place is free.
 * A subject id that is null or not among `bookings` gives nobody.
 */
export function audienceOf(input: {
  type: DomainEventType;
  policy: NotificationPolicy;
  subjectBookingId: string | null;
  bookings: { id: string; role: BookingRole; status: BookingStatus }[];
}): { bookingId: string; template: string }[] {
  const entry = input.policy[input.type];
  if (!entry) return [];
  const on = (role: BookingRole) => entry[role] === true;
  if (eventWideTypes.includes(input.type)) {
    const seen = new Set<string>();
    const out: { bookingId: string; template: string }[] = [];
    for (const b of input.bookings) {
      if (b.status !== 'confirmed' || !on(b.role) || seen.has(b.id)) continue;
      seen.add(b.id);
      out.push({ bookingId: b.id, template: entry.template });
    }
    return out;
  }
  if (input.type === 'booking_declined') {
    // About one booking, heard by the OTHER people of the event whose role is on (by default the hosts: staff learn
    // that a place was freed); the subject itself, now cancelled, never.
    return input.bookings
      .filter((b, i, all) => b.id !== input.subjectBookingId && b.status === 'confirmed' && on(b.role) && all.findIndex((x) => x.id === b.id) === i)
      .map((b) => ({ bookingId: b.id, template: entry.template }));
  }
  if (input.subjectBookingId === null) return [];
  const subject = input.bookings.find((b) => b.id === input.subjectBookingId);
  if (!subject || !on(subject.role)) return [];
  if (input.type !== 'booking_cancelled' && subject.status !== 'confirmed') return [];
  return [{ bookingId: subject.id, template: entry.template }];
}

const whenPhrase: Record<DomainEventType, string> = {
  booking_confirmed: 'When a booking is confirmed',
  booking_cancelled: 'When a booking is cancelled',
  event_rescheduled: 'When an event is rescheduled',
  event_cancelled: 'When an event is cancelled',
  participant_added_as_host: 'When a host is added',
  event_details_changed: "When staff tell people about a change of an event's title, place, online-room link or description",
  booking_declined: 'When a participant says they cannot come',
};

/** [about one booking ("the attendee"), about every booking of the event ("attendees")] */
const roleWords: Record<BookingRole, [string, string]> = {
  attendee: ['the attendee', 'attendees'],
  external: ['the external guest', 'external guests'],
  host: ['the host', 'hosts'],
};

function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * The policy read back for staff, one sentence per domain event type in the style of describe-rule.ts, e.g.
 * "When a booking is confirmed, the attendee and the external guest get “Booking confirmed”.", "When an event is
 * cancelled (essential: sent even to people who opted out of booking updates), attendees, external guests and
 * hosts get “Event cancelled”.", "When a host is added: nobody is notified." — followed, when any non-essential
 * type notifies someone, by one sentence on quiet hours.
 * @param templateLabel the human name of a template id (e.g. "Booking confirmed").
 */
export function describePolicy(policy: NotificationPolicy, templateLabel: (id: string) => string): string[] {
  const sentences = domainEventTypes.map((type) => {
    const entry = policy[type] ?? emptyPolicy[type];
    const essential = essentialTypes.includes(type) ? ' (essential: sent even to people who opted out of booking updates)' : '';
    const when = `${whenPhrase[type]}${essential}`;
    const roles = bookingRoles.filter((r) => entry[r] === true);
    if (roles.length === 0) return `${when}: nobody is notified.`;
    // booking_declined is heard by the OTHER people of the event (plural), like an event-wide type.
    const wide = eventWideTypes.includes(type) || type === 'booking_declined';
    const who = list(roles.map((r) => roleWords[r][wide ? 1 : 0]));
    const verb = !wide && roles.length === 1 ? 'gets' : 'get';
    return `${when}, ${who} ${verb} “${templateLabel(entry.template)}”.`;
  });
  const delayable = domainEventTypes.some((t) => !essentialTypes.includes(t) && bookingRoles.some((r) => (policy[t] ?? emptyPolicy[t])[r] === true));
  if (delayable) {
    sentences.push(
      'Quiet hours delay non-essential notifications: people with quiet hours get them when their quiet hours end, if that is before the notification expires, else at its due time.',
    );
  }
  return sentences;
}
