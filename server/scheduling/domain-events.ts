/**
 * The booking side's only knowledge of notifications: it records WHAT HAPPENED (invariant 12). Each function
 * appends one domain event in the caller's transaction and enqueues the notify job for it in the same
 * transaction (the outbox, invariant 1) — a change that rolls back leaves neither. Who hears about it, on
 * which channel, is decided later by server/notifications/notify.ts.
 *
 * Revisions (part of every notification's message key, domain/keys.ts): a booking's confirmation and
 * cancellation happen once per booking row (revision 1; a re-booking is a new row); an event's reschedule
 * and cancellation carry the schedule version they produced / ended at; a details change the event's row version it
 * produced (one per save).
 */
import { TASK } from '@/jobs/registry';
import type { Tx } from '@/db/client';
import { insertDomainEvent, insertDomainEvents } from '@/db/queries/scheduling/domain-events';
import { enqueueJob, enqueueJobs } from '@/db/queries/platform/jobs';
import type { Booking, Event } from '@/db/schema';
import type { DetailChange } from '@/domain/scheduling/event-details-change';

/** Timing of an event as a domain event payload records it (UTC instants as ISO strings; IANA zone). */
interface TimingPayload {
  startsAt: string;
  endsAt: string;
  timeZone: string;
  allDay: boolean;
}

const timingOf = (e: Pick<Event, 'startsAt' | 'endsAt' | 'timeZone' | 'allDay'>): TimingPayload => ({
  startsAt: e.startsAt.toISOString(),
  endsAt: e.endsAt.toISOString(),
  timeZone: e.timeZone,
  allDay: e.allDay,
});

/** `at`: the instant of the change (the use-case's `now`, on the database clock): notifications are timed from it. */
async function append(tx: Tx, at: Date, e: Omit<Parameters<typeof insertDomainEvent>[1], 'createdAt'>): Promise<void> {
  const row = await insertDomainEvent(tx, { ...e, createdAt: at });
  if (row) await enqueueJob(tx, TASK.notify, { domainEventId: row.id }, { jobKey: `notify:${row.id}`, maxAttempts: 25 });
}

/** The fact a booking records when it is made: `participant_added_as_host` for a host, else `booking_confirmed`. */
function bookingConfirmedFact(b: Pick<Booking, 'id' | 'tenantId' | 'eventId' | 'role'>, event: Event) {
  return {
    tenantId: b.tenantId,
    type: b.role === 'host' ? ('participant_added_as_host' as const) : ('booking_confirmed' as const),
    entityId: b.id,
    eventId: b.eventId,
    bookingId: b.id,
    revision: 1,
    payload: { role: b.role, scheduleVersion: event.scheduleVersion, timing: timingOf(event) },
  };
}

/** A booking was made: `participant_added_as_host` for a host, else `booking_confirmed`. */
export async function recordBookingConfirmed(tx: Tx, b: Booking, event: Event, at: Date): Promise<void> {
  await append(tx, at, bookingConfirmedFact(b, event));
}

/**
 * `recordBookingConfirmed` for many bookings of one event (the bulk planning path): the same facts, inserted in
 * one statement, and their notify jobs (same payload, key and attempts as `append`) added in one statement.
 * Returns how many facts were recorded.
 */
export async function recordBookingsConfirmed(tx: Tx, bs: Pick<Booking, 'id' | 'tenantId' | 'eventId' | 'role'>[], event: Event, at: Date): Promise<number> {
  const rows = await insertDomainEvents(tx, bs.map((b) => ({ ...bookingConfirmedFact(b, event), createdAt: at })));
  await enqueueJobs(tx, rows.map((r) => ({ task: TASK.notify, payload: { domainEventId: r.id }, jobKey: `notify:${r.id}`, maxAttempts: 25 })));
  return rows.length;
}

/** Staff cancelled a booking (with their reason). */
export async function recordBookingCancelled(tx: Tx, b: Booking, event: Event, reason: string, at: Date): Promise<void> {
  await append(tx, at, {
    tenantId: b.tenantId,
    type: 'booking_cancelled',
    entityId: b.id,
    eventId: b.eventId,
    bookingId: b.id,
    revision: 1,
    payload: { role: b.role, reason, scheduleVersion: event.scheduleVersion, timing: timingOf(event) },
  });
}

/**
 * The participant said they cannot come ("I can't come" link, a DECLINED calendar reply): their booking is cancelled.
 * Payload: role, the reason they typed (or null), who (`participantName`, so the hosts' message can name them),
 * how (`source`), the schedule version and timing. Revision 1: once per booking row.
 */
export async function recordBookingDeclined(
  tx: Tx,
  b: Booking,
  event: Event,
  who: { participantName: string; source: string },
  reason: string | null,
  at: Date,
): Promise<void> {
  await append(tx, at, {
    tenantId: b.tenantId,
    type: 'booking_declined',
    entityId: b.id,
    eventId: b.eventId,
    bookingId: b.id,
    revision: 1,
    payload: { role: b.role, reason, participantName: who.participantName, source: who.source, scheduleVersion: event.scheduleVersion, timing: timingOf(event) },
  });
}

/** An event's timing changed: old and new timing, and the schedule version it produced. */
export async function recordEventRescheduled(tx: Tx, before: Event, after: Event, at: Date): Promise<void> {
  await append(tx, at, {
    tenantId: after.tenantId,
    type: 'event_rescheduled',
    entityId: after.id,
    eventId: after.id,
    bookingId: null,
    revision: after.scheduleVersion,
    payload: { scheduleVersion: after.scheduleVersion, previous: timingOf(before), timing: timingOf(after) },
  });
}

/** An event was called off (with the reason). Revision: the schedule version it ended at. */
export async function recordEventCancelled(tx: Tx, event: Event, reason: string, at: Date): Promise<void> {
  await append(tx, at, {
    tenantId: event.tenantId,
    type: 'event_cancelled',
    entityId: event.id,
    eventId: event.id,
    bookingId: null,
    revision: event.scheduleVersion,
    payload: { reason, scheduleVersion: event.scheduleVersion, timing: timingOf(event) },
  });
}

/**
 * Staff changed an event's title, place, online-room link or description and chose to tell its people: what changed
 * (old → new, domain/scheduling/event-details-change.ts) and whether telling was the default or staff's own choice.
 * Revision: the event's row version after the change (`after.version`), unique per save.
 */
export async function recordEventDetailsChanged(tx: Tx, after: Event, changes: DetailChange[], byDefault: boolean, at: Date): Promise<void> {
  await append(tx, at, {
    tenantId: after.tenantId,
    type: 'event_details_changed',
    entityId: after.id,
    eventId: after.id,
    bookingId: null,
    revision: after.version,
    payload: { changes, notifyByDefault: byDefault, scheduleVersion: after.scheduleVersion, timing: timingOf(after) },
  });
}
