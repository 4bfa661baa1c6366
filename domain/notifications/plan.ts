/**
 * The notification plan (issue #9, invariant 12): which messages one domain event becomes — who hears about it
 * (the tenant's policy, notification-policy.ts), on which channels (each person's preferences, preferences.ts;
 * the organisation's webhook), when (quiet hours for non-essential messages, quiet-hours.ts) and until when.
 * Pure: no I/O, no clock. server/notifications/notify.ts loads the inputs, asks {@link recipientsOf} whose
 * suppressions an essential message needs, and inserts what {@link planNotifications} returns.
 *
 * Rules:
 * - An event-wide change (`eventWideTypes`) concerns the people booked when it happened: a booking made after
 *   the domain event was recorded already planned with the new timing (or, on a cancelled event, could not exist).
 * - Due at the instant the change HAPPENED (the domain event's `createdAt`), not when the job ran; expires
 *   {@link NOTIFICATION_LATE_SEND_MS} after it and, except for an essential type or `booking_cancelled`, no
 *   later than the event's end (no "event moved" notice after the event).
 * - An essential type (vocabulary.ts `essentialTypes`) ignores opt-outs but never a suppression: of the
 *   channels it would use, those whose address is suppressed are dropped; when none is left, the other channel
 *   the person has an unsuppressed address for (email first); when that fails too, what they accept (the send
 *   path then records why it was suppressed).
 * - The host organisation's webhook (enabled, with a URL) hears about the host's own people — never about an
 *   external guest, whose messages are their own organisation's business. Quiet hours never hold it back.
 * - One message per (recipient, channel): its message key is `notificationMessageKey` (domain/keys.ts).
 */
import { notificationMessageKey } from '@/domain/keys';
import { audienceOf, eventWideTypes, readPolicy } from '@/domain/notifications/notification-policy';
import { channelsFor, readPreferences } from '@/domain/notifications/preferences';
import { applyQuietHours, parseQuietHours } from '@/domain/notifications/quiet-hours';
import { essentialTypes, type BookingRole, type BookingStatus, type Channel, type DomainEventType, type PersonalChannel } from '@/domain/vocabulary';

/** How late a notification is still worth sending: 24 h after the change (ms). */
export const NOTIFICATION_LATE_SEND_MS = 24 * 3600_000;

/** The domain event being planned (its outbox row). */
interface PlanDomainEvent {
  id: string;
  tenantId: string;
  eventId: string;
  type: DomainEventType;
  /** The booking or event the message key names. */
  entityId: string;
  revision: number;
  /** The subject booking of a booking-level type (null for event-wide types). */
  bookingId: string | null;
  /** When the change happened (UTC). */
  createdAt: Date;
  /** `{ scheduleVersion? }`: the version the change produced (else the event's current one). */
  payload: unknown;
}

/** The contact fields planning reads. */
interface PlanContact {
  id: string;
  email: string | null;
  phone: string | null;
  /** Stored preferences (jsonb), read tolerantly (preferences.ts `readPreferences`). */
  preferences: unknown;
  /** Stored quiet hours (jsonb), or null. */
  quietHours: unknown;
  /** IANA zone of the contact; null = the tenant's. */
  timeZone: string | null;
}

/** One booking of the event with its contact. */
export interface PlanPerson {
  booking: { id: string; role: BookingRole; status: BookingStatus; createdAt: Date; guestTenantId: string | null };
  contact: PlanContact;
}

export interface PlanInput {
  domainEvent: PlanDomainEvent;
  event: { scheduleVersion: number; endsAt: Date };
  /** The host tenant's IANA zone (quiet hours of a contact without their own zone). */
  tenantTimeZone: string;
  /** The host tenant's notification settings row (none stored = nobody notified, no webhook). */
  settings: { policy: unknown; webhookEnabled: boolean; webhookUrl: string | null } | null | undefined;
  /** Every booking of the event, any status. */
  people: PlanPerson[];
  /**
   * Essential types only: by booking id, the personal channels whose address is suppressed for the sending
   * tenants ({@link sendingTenantIds}). Missing = nothing suppressed.
   */
  suppressed?: ReadonlyMap<string, ReadonlySet<PersonalChannel>>;
}

/** One planned notification: the fields of a `reminders` row of kind `notification`. */
interface PlannedNotification {
  tenantId: string;
  eventId: string;
  bookingId: string;
  ruleId: null;
  kind: 'notification';
  template: string;
  scheduleVersion: number;
  channel: Channel;
  domainEventId: string;
  notificationType: DomainEventType;
  messageKey: string;
  dueAt: Date;
  deferredFrom: Date | null;
  expiresAt: Date;
  status: 'scheduled';
}

/** The tenants whose suppressions stop a message to this booking: the host and, for a guest, its own organisation. */
export function sendingTenantIds(hostTenantId: string, booking: { guestTenantId: string | null }): string[] {
  return [...new Set([hostTenantId, booking.guestTenantId ?? hostTenantId])];
}

/** Whether the domain event's type is essential (ignores opt-outs; its suppressions must be loaded). */
export function isEssentialType(type: DomainEventType): boolean {
  return essentialTypes.includes(type);
}

/** Who hears about the domain event, with their template, in the order of `people` (policy + booked-before rule). */
export function recipientsOf(input: Pick<PlanInput, 'domainEvent' | 'settings' | 'people'>): { person: PlanPerson; template: string }[] {
  const de = input.domainEvent;
  const people = input.people.filter((p) => !eventWideTypes.includes(de.type) || p.booking.createdAt.getTime() <= de.createdAt.getTime());
  const audience = audienceOf({
    type: de.type,
    policy: readPolicy(input.settings?.policy),
    subjectBookingId: de.bookingId,
    bookings: people.map((p) => ({ id: p.booking.id, role: p.booking.role, status: p.booking.status })),
  });
  const out: { person: PlanPerson; template: string }[] = [];
  for (const a of audience) {
    const person = people.find((x) => x.booking.id === a.bookingId);
    if (person) out.push({ person, template: a.template });
  }
  return out;
}

/** The expiry instant of the domain event's notifications (see module doc). */
function notificationExpiry(type: DomainEventType, happened: Date, eventEndsAt: Date): Date {
  const cap = new Date(happened.getTime() + NOTIFICATION_LATE_SEND_MS);
  return isEssentialType(type) || type === 'booking_cancelled' || eventEndsAt.getTime() > cap.getTime() ? cap : eventEndsAt;
}

/**
 * Channels an essential message can actually reach (issue #9 §3: essential ignores opt-outs, never a
 * suppression): the accepted channels whose address is not suppressed; when none is left, the other channel the
 * person has an address for that is not suppressed (email first) — a person who takes everything by SMS and
 * replied STOP still hears that the event is cancelled, by email.
 */
function reachableForEssential(contact: Pick<PlanContact, 'email' | 'phone'>, accepted: PersonalChannel[], suppressed: ReadonlySet<PersonalChannel>): PersonalChannel[] {
  const open = (c: PersonalChannel) => !!(c === 'email' ? contact.email : contact.phone) && !suppressed.has(c);
  const reachable = accepted.filter(open);
  if (reachable.length > 0) return reachable;
  for (const c of ['email', 'sms'] as const) if (!accepted.includes(c) && open(c)) return [c];
  return accepted; // nothing reachable: plan what they accept, and the send path records why it was suppressed
}

/** The messages one domain event becomes (see module doc), recipient by recipient, channels email, sms, webhook. */
export function planNotifications(input: PlanInput): PlannedNotification[] {
  const de = input.domainEvent;
  const essential = isEssentialType(de.type);
  const scheduleVersion = (de.payload as { scheduleVersion?: number } | null)?.scheduleVersion ?? input.event.scheduleVersion;
  const happened = de.createdAt;
  const expiresAt = notificationExpiry(de.type, happened, input.event.endsAt);
  const webhookOn = !!(input.settings?.webhookEnabled && input.settings.webhookUrl);
  const rows: PlannedNotification[] = [];
  for (const { person: p, template } of recipientsOf(input)) {
    let personal = channelsFor({
      category: 'booking_updates',
      essential,
      prefs: readPreferences(p.contact.preferences),
      hasEmail: !!p.contact.email,
      hasPhone: !!p.contact.phone,
    });
    if (essential) personal = reachableForEssential(p.contact, personal, input.suppressed?.get(p.booking.id) ?? new Set());
    // The host's own endpoint hears about the host's own people. An external guest's messages are their own
    // organisation's business: they go to no webhook (the host must not learn the guest organisation's
    // endpoint, nor that organisation receive the host's event data).
    const webhook = p.booking.role !== 'external' && webhookOn;
    const chans: Channel[] = [...personal, ...(webhook ? (['webhook'] as const) : [])];
    const quiet = essential ? null : parseQuietHours(p.contact.quietHours);
    const zone = p.contact.timeZone ?? input.tenantTimeZone;
    for (const channel of chans) {
      // Quiet hours are the person's: the organisation's webhook is never held back.
      const q = channel === 'webhook' ? { dueAt: happened, deferredFrom: null } : applyQuietHours({ dueAt: happened, expiresAt, quiet, zone });
      rows.push({
        tenantId: de.tenantId,
        eventId: de.eventId,
        bookingId: p.booking.id,
        ruleId: null,
        kind: 'notification',
        template,
        scheduleVersion,
        channel,
        domainEventId: de.id,
        notificationType: de.type,
        messageKey: notificationMessageKey({ tenantId: de.tenantId, type: de.type, entityId: de.entityId, revision: de.revision, recipientId: p.contact.id, channel }),
        dueAt: q.dueAt,
        deferredFrom: q.deferredFrom,
        expiresAt,
        status: 'scheduled',
      });
    }
  }
  return rows;
}

/** A planned notification row still waiting for a person, as the preferences save reads it back. */
interface WaitingNotification<R> {
  reminder: R;
  domainEvent: { type: DomainEventType; entityId: string; revision: number };
}

/**
 * After a person changed their preferences: for each booking-change notification still waiting for them
 * (`scheduled` — held for quiet hours, or not yet due), a copy on each channel they accept now and have no
 * message on (the one they dropped is stopped at send time). `rows`: every notification row of those domain
 * events for their bookings, any status; groups without a `scheduled` row plan nothing. A copy keeps the waiting
 * row's fields except its identity, timestamps, status reason and dispatch instant, with the new channel's message key.
 */
export function planOnNewChannels<
  R extends { domainEventId: string | null; bookingId: string; status: string; channel: Channel; id: string; createdAt?: unknown; updatedAt?: unknown; statusReason?: unknown; dispatchedAt?: unknown },
>(input: { tenantId: string; contact: Pick<PlanContact, 'id' | 'email' | 'phone' | 'preferences'>; rows: WaitingNotification<R>[] }) {
  const { tenantId, contact } = input;
  const groups = new Map<string, WaitingNotification<R>[]>();
  for (const r of input.rows) {
    const k = `${r.reminder.domainEventId}:${r.reminder.bookingId}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const planned: (Omit<R, 'id' | 'createdAt' | 'updatedAt' | 'statusReason' | 'dispatchedAt'> & { channel: Channel; status: 'scheduled'; messageKey: string })[] = [];
  for (const group of groups.values()) {
    const waiting = group.find((g) => g.reminder.status === 'scheduled');
    if (!waiting) continue;
    const de = waiting.domainEvent;
    const have = new Set(group.map((g) => g.reminder.channel));
    const chans = channelsFor({
      category: 'booking_updates',
      essential: isEssentialType(de.type),
      prefs: readPreferences(contact.preferences),
      hasEmail: !!contact.email,
      hasPhone: !!contact.phone,
    });
    for (const channel of chans) {
      if (have.has(channel)) continue;
      const { id: _id, createdAt: _c, updatedAt: _u, statusReason: _s, dispatchedAt: _d, ...copy } = waiting.reminder;
      planned.push({
        ...copy,
        channel,
        status: 'scheduled',
        messageKey: notificationMessageKey({ tenantId, type: de.type, entityId: de.entityId, revision: de.revision, recipientId: contact.id, channel }),
      });
    }
  }
  return planned;
}
