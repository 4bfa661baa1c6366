/**
 * Scheduling use-cases on events: create (one or many), reschedule, cancel and re-plan. Each runs in ONE
 * transaction that writes the change, the newly planned reminders, the end state of the reminders it makes
 * obsolete, and the wake-up jobs (the outbox, invariant 1). Called alike by route handlers, the iCalendar
 * importer, the seed and tests. Bookings: ./bookings.ts.
 */
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '@/db/client';
import { bookingsOfEvent, endSendableReminders, lockEvent, insertEvents } from '@/db/queries/scheduling/scheduling';
import { events, type Event } from '@/db/schema';
import { recordEventCancelled, recordEventRescheduled } from './domain-events';
import { AppError, parseInput } from '@/server/platform/errors';
import { type CreateEventInput, createEventSchema, eventTimingSchema } from './inputs';
import { planAndEnqueue, requireTenant } from './planning';

/** Creates an event (schedule version 1). Plans nothing yet: reminders come with bookings. @throws AppError('validation', field). */
export async function createEvent(db: Db | Tx, tenantId: string, input: CreateEventInput): Promise<Event> {
  const data = parseInput(createEventSchema, input);
  await requireTenant(db, tenantId);
  const [e] = await db.insert(events).values(eventRow(tenantId, data)).returning();
  return e;
}

/** The `events` row for validated create input (schedule version 1, status scheduled by default). */
function eventRow(tenantId: string, data: z.output<typeof createEventSchema>) {
  return {
    tenantId,
    title: data.title,
    description: data.description ?? null,
    location: data.location ?? null,
    roomUrl: data.roomUrl ?? null,
    externalUid: data.externalUid ?? null,
    eventNote: data.eventNote && Object.keys(data.eventNote).length > 0 ? data.eventNote : null,
    startsAt: data.startsAt,
    endsAt: data.endsAt,
    timeZone: data.timeZone,
    allDay: data.allDay,
    roomOpenLeadMinutes: data.roomOpenLeadMinutes ?? null,
  };
}

/**
 * Changes an event's timing. Any change of start, end, zone, all-day flag or room-open lead bumps the
 * schedule version, supersedes every still-sendable reminder of older versions and plans the new ones, in one
 * transaction. Unchanged timing is a no-op (same version).
 * @throws AppError not_found, validation, invalid_state (cancelled event).
 */
export async function rescheduleEvent(
  db: Db | Tx,
  tenantId: string,
  eventId: string,
  timing: z.input<typeof eventTimingSchema>,
  now: Date,
): Promise<Event> {
  const t = parseInput(eventTimingSchema, timing);
  const run = async (tx: Tx) => {
    const tenant = await requireTenant(tx, tenantId);
    const event = await lockEvent(tx, tenantId, eventId);
    if (!event) throw new AppError('not_found', `event ${eventId} not found`, 'eventId');
    if (event.status === 'cancelled') throw new AppError('invalid_state', 'a cancelled event cannot be rescheduled', 'eventId');
    const lead = t.roomOpenLeadMinutes === undefined ? event.roomOpenLeadMinutes : t.roomOpenLeadMinutes;
    const unchanged =
      event.startsAt.getTime() === t.startsAt.getTime() &&
      event.endsAt.getTime() === t.endsAt.getTime() &&
      event.timeZone === t.timeZone &&
      event.allDay === t.allDay &&
      event.roomOpenLeadMinutes === lead;
    if (unchanged) return event;
    const [updated] = await tx
      .update(events)
      .set({
        startsAt: t.startsAt,
        endsAt: t.endsAt,
        timeZone: t.timeZone,
        allDay: t.allDay,
        roomOpenLeadMinutes: lead,
        scheduleVersion: sql`${events.scheduleVersion} + 1`,
        updatedAt: now,
      })
      .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)))
      .returning();
    const bookingList = await bookingsOfEvent(tx, tenantId, eventId);
    await planAndEnqueue(tx, tenant, updated, bookingList, now, { supersedeOlder: true });
    await recordEventRescheduled(tx, event, updated, now);
    return updated;
  };
  // On a Tx this is a savepoint inside the caller's transaction (the importer's one-transaction import).
  return db.transaction(run);
}

/** Cancels an event and every still-sendable reminder of it, in one transaction. Idempotent. @throws AppError not_found. */
export async function cancelEvent(db: Db | Tx, tenantId: string, eventId: string, reason: string, now: Date): Promise<Event> {
  return db.transaction(async (tx) => {
    const event = await lockEvent(tx, tenantId, eventId);
    if (!event) throw new AppError('not_found', `event ${eventId} not found`, 'eventId');
    if (event.status === 'cancelled') return event;
    const [updated] = await tx
      .update(events)
      .set({ status: 'cancelled', statusReason: reason, updatedAt: now })
      .where(eq(events.id, eventId))
      .returning();
    // Only the rule reminders and nudges end: notifications about earlier changes still tell what happened.
    await endSendableReminders(tx, tenantId, { eventId }, 'cancelled', `event cancelled: ${reason}`);
    await recordEventCancelled(tx, updated, reason, now);
    return updated;
  });
}

/** Plans reminders for every booking of an event (used after rules change or by the importer). */
export async function replanEvent(tx: Tx, tenantId: string, eventId: string, now: Date): Promise<number> {
  const tenant = await requireTenant(tx, tenantId);
  const event = await lockEvent(tx, tenantId, eventId);
  if (!event) throw new AppError('not_found', `event ${eventId} not found`, 'eventId');
  return planAndEnqueue(tx, tenant, event, await bookingsOfEvent(tx, tenantId, eventId), now);
}

/**
 * Creates many events in one statement (the iCalendar importer's batches). Each input is validated like
 * `createEvent`'s; no reminders are planned (they come with bookings).
 * @throws AppError validation naming the field (prefixed with the event's external UID) — nothing is written.
 */
export async function createEvents(db: Db | Tx, tenantId: string, inputs: CreateEventInput[]): Promise<void> {
  const rows = inputs.map((input) => {
    let data;
    try {
      data = parseInput(createEventSchema, input);
    } catch (e) {
      if (e instanceof AppError) throw new AppError(e.code, `event UID ${input.externalUid ?? '?'}: ${e.message}`, e.field);
      throw e;
    }
    return eventRow(tenantId, data);
  });
  await insertEvents(db, rows);
}
