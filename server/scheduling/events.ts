/**
 * Scheduling use-cases on events: create (one or many), reschedule, change details, cancel and re-plan. Each runs in ONE
 * transaction that writes the change, the newly planned reminders, the end state of the reminders it makes
 * obsolete, and the wake-up jobs (the outbox, invariant 1). Called alike by route handlers, the iCalendar
 * importer, the seed and tests. Bookings: ./bookings.ts.
 */
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '@/db/client';
import { bookingsOfEvent, endSendableReminders, lockEvent, insertEvents } from '@/db/queries/scheduling/scheduling';
import { bumpInviteSequencesOfEvent } from '@/db/queries/calendar/invite-sequence';
import { events, type Event } from '@/db/schema';
import { recordEventCancelled, recordEventDetailsChanged, recordEventRescheduled } from './domain-events';
import { detailChangesOf, notifyDecision, type DetailChange, type EventDetails } from '@/domain/scheduling/event-details-change';
import { noteKey } from '@/domain/scheduling/event-note';
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
    // Every confirmed booking's calendar entry gets a new invitation (the reschedule notice): one SEQUENCE up.
    await bumpInviteSequencesOfEvent(tx, tenantId, eventId);
    const bookingList = await bookingsOfEvent(tx, tenantId, eventId);
    await planAndEnqueue(tx, tenant, updated, bookingList, now, { supersedeOlder: true });
    await recordEventRescheduled(tx, event, updated, now);
    return updated;
  };
  // On a Tx this is a savepoint inside the caller's transaction (the importer's one-transaction import).
  return db.transaction(run);
}

/** What {@link changeEventDetails} did: the event after it, the details that changed, and whether people are told. */
export interface DetailsChangeResult {
  event: Event;
  changes: DetailChange[];
  /** True when a "details changed" notice and updated calendar entry go to the event's people. */
  notified: boolean;
  /** True when `notified` is the default for these changes (staff did not choose), domain/scheduling/event-details-change.ts. */
  byDefault: boolean;
}

/**
 * Changes an event's details — title, place, online-room link, description (and, with them, the note for
 * participants, which no invitation carries) — in the caller's transaction (a savepoint on a Tx). Only a real change
 * is written (an unchanged save leaves the row version alone). When a title, place, link or description changed and
 * people are to be told (`notify`: staff's choice; undefined: the default, `notifyByDefault` — yes unless only the
 * description changed), in the same transaction: every confirmed booking's calendar SEQUENCE goes one up and the
 * domain event `event_details_changed` (old → new per detail) is recorded; the notify task then sends each person
 * the "details changed" notice with the updated invitation, per the notification policy.
 * @throws AppError not_found, invalid_state (cancelled event).
 */
export async function changeEventDetails(
  db: Db | Tx,
  tenantId: string,
  eventId: string,
  details: Omit<EventDetails, 'title'> & { title: string; eventNote?: Record<string, string> | null },
  opts: { notify?: boolean; now: Date },
): Promise<DetailsChangeResult> {
  return db.transaction(async (tx) => {
    const before = await lockEvent(tx, tenantId, eventId);
    if (!before) throw new AppError('not_found', `event ${eventId} not found`, 'eventId');
    if (before.status === 'cancelled') throw new AppError('invalid_state', 'a cancelled event cannot be edited', 'eventId');
    const changes = detailChangesOf(before, details);
    const { eventNote, ...texts } = details;
    const noteChanged = eventNote !== undefined && noteKey(eventNote) !== noteKey(before.eventNote);
    const decision = notifyDecision(changes, opts.notify);
    if (changes.length === 0 && !noteChanged) return { event: before, changes, notified: false, byDefault: decision.byDefault };
    const [after] = await tx
      .update(events)
      .set({ ...texts, ...(eventNote !== undefined ? { eventNote } : {}), updatedAt: opts.now })
      .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)))
      .returning();
    if (decision.notify) {
      await bumpInviteSequencesOfEvent(tx, tenantId, eventId);
      await recordEventDetailsChanged(tx, after, changes, decision.byDefault, opts.now);
    }
    return { event: after, changes, notified: decision.notify, byDefault: decision.byDefault };
  });
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
    // The CANCEL every confirmed booking gets carries the next SEQUENCE.
    await bumpInviteSequencesOfEvent(tx, tenantId, eventId);
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
