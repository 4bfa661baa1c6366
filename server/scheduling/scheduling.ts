/**
 * Scheduling use-cases: create, reschedule and cancel events; add and cancel bookings. Each runs in ONE
 * transaction that writes the change, the newly planned reminders, the end state of the reminders it
 * makes obsolete, and the wake-up jobs (the outbox, invariant 1). Called alike by route handlers, the
 * iCalendar importer, the seed and tests.
 */
import { TASK } from '@/jobs/registry';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx, Tx } from '@/db/client';
import { enqueueJobs } from '@/db/queries/platform/jobs';
import {
  activeRules,
  bookingsOfEvent,
  carryCandidates,
  carryReminder,
  guestPartnershipExists,
  endSendableReminders,
  getTenant,
  insertBookings,
  insertPlannedReminders,
  liveBookedEmails,
  lockEvent,
  findOrCreateContact,
  upsertContacts,
  insertEvents,
} from '@/db/queries/scheduling/scheduling';
import { bookings, events, type Booking, type Event, type ReminderRule, type Tenant } from '@/db/schema';
import { keptDetails, type KeptDetail } from '@/domain/scheduling/contact-kept';
import { DueInstantError } from '@/domain/scheduling/due-instant';
import { remindersToCarry } from '@/domain/scheduling/carry-forward';
import { wakeJobKey } from '@/domain/keys';
import { planReminders, type PlannedReminder, type PlanningBooking, type PlanningEvent } from '@/domain/scheduling/planning';
import { forEachPreferredChannel } from '@/domain/notifications/preferred-channels';
import { contactsOfBookings } from '@/db/queries/notifications/notify';
import { earliestScheduledByRule, retimeReminder, ruleRemindersOfBookingForUpdate } from '@/db/queries/scheduling/participants';
import { participantReplan } from '@/domain/scheduling/participant-replan';
import type { Contact } from '@/db/schema';
import { bookingRoles } from '@/domain/vocabulary';
import { isValidZone, suggestZone } from '@/domain/zones';
import { parsePhone } from '@/domain/phone';
import { refuseBidiControls } from '@/domain/text';
import { recordBookingCancelled, recordBookingConfirmed, recordBookingsConfirmed, recordEventCancelled, recordEventRescheduled } from './domain-events';
import { AppError, parseInput } from '@/server/platform/errors';


/** An IANA zone this runtime accepts (current names and old aliases, stored as given; domain/zones.ts). */
export const zone = z.string().superRefine((v, ctx) => {
  if (isValidZone(v)) return;
  const guess = suggestZone(v);
  ctx.addIssue({ code: 'custom', message: `must be an IANA time zone such as Europe/Amsterdam${guess ? ` — did you mean ${guess}?` : ''}` });
});
/** A mobile number in international form (libphonenumber-js validity, domain/phone.ts) → E.164; '' → null. */
export const phoneField = z.string().transform((v, ctx) => {
  if (v.trim() === '') return null;
  const r = parsePhone(v);
  if (!r.ok) {
    ctx.addIssue({ code: 'custom', message: r.message });
    return z.NEVER;
  }
  return r.e164;
});
const instant = z.coerce.date().refine((d) => !Number.isNaN(d.getTime()), { message: 'must be an ISO-8601 instant' });

const eventTimingSchema = z
  .object({
    startsAt: instant,
    endsAt: instant,
    timeZone: zone,
    allDay: z.boolean().default(false),
    roomOpenLeadMinutes: z.number().int().min(0).max(24 * 60).nullish(),
  })
  .refine((v) => v.endsAt.getTime() >= v.startsAt.getTime(), { message: 'must not be before startsAt', path: ['endsAt'] });

const createEventSchema = z
  .object({
    title: z.string().trim().min(1, 'required').check(refuseBidiControls),
    description: z.string().check(refuseBidiControls).nullish(),
    location: z.string().check(refuseBidiControls).nullish(),
    roomUrl: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL such as https://meet.example/room' }).max(2000).check(refuseBidiControls).nullish(),
    externalUid: z.string().min(1).nullish(),
  })
  .and(eventTimingSchema);
export type CreateEventInput = z.input<typeof createEventSchema>;

const addBookingSchema = z.object({
  eventId: z.uuid(),
  role: z.enum(bookingRoles),
  contact: z.object({
    email: z.email(),
    /** The name of a NEW contact ('' when omitted); a known person keeps theirs (domain/scheduling/contact-kept.ts). */
    name: z.string().trim().check(refuseBidiControls).optional(),
    // No default: a known person keeps their language unless one is given (upsertContact inserts 'en' for a new one).
    locale: z.string().min(2).optional(),
    timeZone: zone.nullish(),
    /** Mobile number for SMS of a NEW contact, stored in E.164 ('' or null: none); a known person keeps theirs. */
    phone: phoneField.nullish(),
  }),
  guestTenantId: z.uuid().nullish(),
});
type AddBookingInput = z.input<typeof addBookingSchema>;

function planningEvent(e: Event, tenant: Tenant): PlanningEvent {
  return {
    startsAt: e.startsAt,
    endsAt: e.endsAt,
    timeZone: e.timeZone,
    status: e.status,
    roomUrl: e.roomUrl,
    roomOpenLeadMinutes: e.roomOpenLeadMinutes ?? tenant.roomOpenLeadMinutes,
  };
}

async function requireTenant(db: DbOrTx, tenantId: string): Promise<Tenant> {
  const t = await getTenant(db, tenantId);
  if (!t) throw new AppError('not_found', `tenant ${tenantId} not found`, 'tenantId');
  return t;
}

/** Booking ids per `contactsOfBookings` call (one bind parameter each; PostgreSQL allows 65,535 per statement). */
const CONTACT_LOOKUP_CHUNK = 10_000;

/** The contact fields planning reads (channel preferences, quiet hours, addresses, zone). */
type PlanningContactFields = Pick<Contact, 'email' | 'phone' | 'timeZone' | 'preferences' | 'quietHours'>;

/**
 * Plans reminders for `bookingList` under `rules` (domain/scheduling/planning.ts), one per channel each booking's contact
 * accepts, with quiet hours applied (`forEachPreferredChannel`). Pure apart from the AppError mapping.
 * @throws AppError('validation') for an invalid rule offset or event zone.
 */
function planFor(
  tenant: Tenant,
  event: Event,
  bookingList: readonly PlanningBooking[],
  rules: ReminderRule[],
  contacts: Map<string, PlanningContactFields>,
  now: Date,
): (PlannedReminder & { deferredFrom: Date | null })[] {
  let planned: PlannedReminder[];
  try {
    planned = planReminders({ event: planningEvent(event, tenant), bookings: bookingList, rules, now });
  } catch (e) {
    if (e instanceof DueInstantError) throw new AppError('validation', e.message, e.field);
    throw e;
  }
  return forEachPreferredChannel(planned, contacts, tenant.timeZone);
}

/** The `reminders` rows for planned reminders of `event` at its current schedule version. */
function reminderRows(tenant: Tenant, event: Event, planned: (PlannedReminder & { deferredFrom?: Date | null })[]) {
  return planned.map((p) => ({
    tenantId: tenant.id,
    eventId: event.id,
    bookingId: p.bookingId,
    ruleId: p.ruleId,
    scheduleVersion: event.scheduleVersion,
    channel: p.channel,
    dueAt: p.dueAt,
    deferredFrom: p.deferredFrom ?? null,
    expiresAt: p.expiresAt,
    status: p.status,
    statusReason: p.statusReason,
  }));
}

/**
 * One wake-up per (event, rule) at the earliest waiting reminder of that rule (`wakes`: rule id → instant),
 * added in one statement; the job key replaces an earlier wake-up for the same pair. An instant not after `now`
 * runs at once (the database clock's now()).
 */
async function enqueueWakes(tx: Tx, eventId: string, wakes: Map<string, Date>, now: Date): Promise<void> {
  await enqueueJobs(
    tx,
    [...wakes].map(([ruleId, dueAt]) => ({ task: TASK.dispatchDue, payload: { reason: 'wake' }, runAt: dueAt > now ? dueAt : null, jobKey: wakeJobKey(eventId, ruleId) })),
    { jobKeyMode: 'replace' },
  );
}

/**
 * One wake-up per event for ONE rule (`wakes`: event id → the rule's earliest waiting reminder there), the same
 * job key as {@link enqueueWakes} (replacing an earlier wake-up of the pair). Used by a rule's re-plan (server/rules/rules.ts).
 */
export async function enqueueRuleWakes(tx: Tx, ruleId: string, wakes: Map<string, Date>, now: Date): Promise<void> {
  await enqueueJobs(
    tx,
    [...wakes].map(([eventId, dueAt]) => ({ task: TASK.dispatchDue, payload: { reason: 'wake' }, runAt: dueAt > now ? dueAt : null, jobKey: wakeJobKey(eventId, ruleId) })),
    { jobKeyMode: 'replace' },
  );
}

/**
 * Plans reminders for `bookingList` at the event's current schedule version, inserts them, and enqueues
 * one wake-up per (event, rule) at the due instant (replacing an earlier wake-up for the same pair).
 * Returns the number of reminders inserted.
 */
async function planAndEnqueue(tx: Tx, tenant: Tenant, event: Event, bookingList: Booking[], now: Date, opts: { supersedeOlder?: boolean } = {}): Promise<number> {
  const rules = await activeRules(tx, tenant.id);
  const contacts = new Map<string, Contact>();
  for (let i = 0; i < bookingList.length; i += CONTACT_LOOKUP_CHUNK) {
    const ids = bookingList.slice(i, i + CONTACT_LOOKUP_CHUNK).map((b) => b.id);
    for (const [k, v] of await contactsOfBookings(tx, tenant.id, ids)) contacts.set(k, v);
  }
  const planned = planFor(tenant, event, bookingList, rules, contacts, now);
  // A reschedule: reminders whose due instant did not move are carried into the new version (a reminder that
  // already went out is never planned again under a new message key); the rest of the older versions is
  // superseded. A carried row holds the new version's business key, so the insert below skips its plan.
  const carried = opts.supersedeOlder ? remindersToCarry(await carryCandidates(tx, tenant.id, event.id, event.scheduleVersion), planned) : [];
  for (const c of carried) await carryReminder(tx, c.id, event.scheduleVersion, c.planned.expiresAt);
  if (opts.supersedeOlder) {
    await endSendableReminders(tx, tenant.id, { eventId: event.id, belowVersion: event.scheduleVersion }, 'superseded', `superseded by schedule version ${event.scheduleVersion}`);
  }
  const { inserted, earliestScheduled: wakes } = await insertPlannedReminders(tx, reminderRows(tenant, event, planned));
  // A wake-up per rule at its earliest waiting reminder, carried ones included (the job key replaces the old wake).
  for (const c of carried) {
    if (c.planned.status !== 'scheduled') continue;
    const prev = wakes.get(c.planned.ruleId);
    if (!prev || c.planned.dueAt < prev) wakes.set(c.planned.ruleId, c.planned.dueAt);
  }
  await enqueueWakes(tx, event.id, wakes, now);
  return inserted;
}

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
    startsAt: data.startsAt,
    endsAt: data.endsAt,
    timeZone: data.timeZone,
    allDay: data.allDay,
    roomOpenLeadMinutes: data.roomOpenLeadMinutes ?? null,
  };
}

/**
 * Books a contact (found or created by email) onto an event and plans their reminders, in one transaction. A
 * known person's details are never changed by a booking (db/queries/scheduling/scheduling.ts `findOrCreateContact`,
 * domain/scheduling/contact-kept.ts): `kept` lists what the input said that differs from the stored details (empty for a
 * new contact), so the caller can tell the staff member to edit the participant instead.
 * @throws AppError not_found (event), conflict (already booked), validation (field named), invalid_state (event cancelled).
 */
export async function addBooking(db: Db | Tx, tenantId: string, input: AddBookingInput, now: Date): Promise<Booking & { kept: KeptDetail[] }> {
  const data = parseInput(addBookingSchema, input);
  if (data.role === 'external' && !data.guestTenantId) {
    throw new AppError('validation', 'guestTenantId: required for an external guest (their own tenant reminds them)', 'guestTenantId');
  }
  return db.transaction(async (tx) => {
    const tenant = await requireTenant(tx, tenantId);
    const event = await lockEvent(tx, tenantId, data.eventId);
    if (!event) throw new AppError('not_found', `event ${data.eventId} not found`, 'eventId');
    if (event.status === 'cancelled') throw new AppError('invalid_state', 'event is cancelled', 'eventId');
    if (data.guestTenantId) {
      // The guest is reminded in their own organisation's name: that organisation must have agreed.
      if (!(await guestPartnershipExists(tx, data.guestTenantId, tenantId))) throw new AppError('forbidden', "guestTenantId: that organisation has not agreed to have its people booked as guests of yours", 'guestTenantId');
    }
    const contact = await findOrCreateContact(tx, { tenantId, ...data.contact });
    const contactId = contact.id;
    const kept = contact.created ? [] : keptDetails(contact, data.contact);
    const [b] = await tx
      .insert(bookings)
      .values({ tenantId, eventId: event.id, contactId, role: data.role, guestTenantId: data.guestTenantId ?? null, createdAt: now })
      .onConflictDoNothing()
      .returning();
    if (!b) throw new AppError('conflict', `${data.contact.email} is already booked on this event`, 'contact.email');
    await planAndEnqueue(tx, tenant, event, [b], now);
    await recordBookingConfirmed(tx, b, event, now);
    return { ...b, kept };
  });
}

/** One person for `addBookingsBulk`: `addBooking`'s input without the event (same schema, same rules). */
export type BulkBookingInput = Omit<AddBookingInput, 'eventId'>;

/** Bookings written per round of `addBookingsBulk` (each round: one statement per table). */
const BULK_BOOKING_CHUNK = 10_000;

const bulkRowSchema = addBookingSchema.omit({ eventId: true });

/**
 * Books many people onto ONE event in one transaction, with exactly `addBooking`'s effects for each (contact
 * found or created by tenant + address — a known person's details kept as stored, as `addBooking` keeps them —, booking, reminders planned by the same planner with the same channel and
 * quiet-hours handling, wake-ups, `booking_confirmed` / `participant_added_as_host` domain events and their
 * notify jobs) — but in bulk: per round of BULK_BOOKING_CHUNK people one statement each for the booked-check,
 * contacts, bookings, reminders, domain events and notify jobs; the wake-ups (one per rule) once at the end.
 *
 * - Every row is validated first (`addBooking`'s schema; an external guest needs `guestTenantId`, and each guest
 *   tenant must have agreed): a bad row throws and NOTHING is written (all-or-nothing).
 * - A person already booked on the event (a live booking), or listed again under the same address
 *   (case-insensitive; the first row wins), is not booked: listed in `skipped` with its input index and
 *   nothing is written for it (not even a contact update — as `addBooking`'s conflict rolls back).
 * - `opts.notify` (default true, as `addBooking`): false records no domain events and adds no notify jobs, so
 *   nobody is told about these bookings (an import of existing bookings). Reminders are planned either way.
 *
 * @param now the booking instant (UTC; bookings' `created_at`, the planner's "now", the facts' instant).
 * @returns bookings written, reminders inserted, skipped rows (input index and reason).
 * @throws AppError validation (field `people.<index>.<field>`, message naming the row), forbidden (guest tenant
 *   without agreement, field `people.<index>.guestTenantId`), not_found (event, tenant), invalid_state
 *   (cancelled event), validation (a rule whose offset cannot be planned).
 */
export async function addBookingsBulk(
  db: Db | Tx,
  tenantId: string,
  eventId: string,
  people: BulkBookingInput[],
  now: Date,
  opts: { notify?: boolean } = {},
): Promise<{ bookings: number; reminders: number; skipped: { index: number; reason: string }[] }> {
  parseInput(z.object({ eventId: z.uuid() }), { eventId });
  const rows = people.map((p, i) => {
    let data: z.output<typeof bulkRowSchema>;
    try {
      data = parseInput(bulkRowSchema, p);
    } catch (e) {
      if (e instanceof AppError) throw new AppError(e.code, `people[${i}]: ${e.message}`, `people.${i}${e.field ? `.${e.field}` : ''}`);
      throw e;
    }
    if (data.role === 'external' && !data.guestTenantId) {
      throw new AppError('validation', `people[${i}]: guestTenantId: required for an external guest (their own tenant reminds them)`, `people.${i}.guestTenantId`);
    }
    return data;
  });
  const skipped: { index: number; reason: string }[] = [];
  // The first row of an address books it; a later one would be addBooking's "already booked".
  const firstOf = new Map<string, number>();
  const unique: number[] = [];
  rows.forEach((r, i) => {
    const key = r.contact.email.toLowerCase();
    const first = firstOf.get(key);
    if (first === undefined) {
      firstOf.set(key, i);
      unique.push(i);
    } else skipped.push({ index: i, reason: `${r.contact.email} is listed already (row ${first}): booked once` });
  });
  const notify = opts.notify ?? true;

  return db.transaction(async (tx) => {
    const tenant = await requireTenant(tx, tenantId);
    const event = await lockEvent(tx, tenantId, eventId);
    if (!event) throw new AppError('not_found', `event ${eventId} not found`, 'eventId');
    if (event.status === 'cancelled') throw new AppError('invalid_state', 'event is cancelled', 'eventId');
    const guestFirstRow = new Map<string, number>();
    for (const i of unique) {
      const g = rows[i].guestTenantId;
      if (g && !guestFirstRow.has(g)) guestFirstRow.set(g, i);
    }
    for (const [g, i] of guestFirstRow) {
      if (!(await guestPartnershipExists(tx, g, tenantId))) {
        throw new AppError('forbidden', `people[${i}]: guestTenantId: that organisation has not agreed to have its people booked as guests of yours`, `people.${i}.guestTenantId`);
      }
    }
    const rules = await activeRules(tx, tenant.id);
    let bookingCount = 0;
    let reminderCount = 0;
    const wakes = new Map<string, Date>();
    for (let c = 0; c < unique.length; c += BULK_BOOKING_CHUNK) {
      const chunk = unique.slice(c, c + BULK_BOOKING_CHUNK);
      const booked = await liveBookedEmails(tx, tenantId, eventId, chunk.map((i) => rows[i].contact.email.toLowerCase()));
      const todo: number[] = [];
      for (const i of chunk) {
        if (booked.has(rows[i].contact.email.toLowerCase())) skipped.push({ index: i, reason: `${rows[i].contact.email} is already booked on this event` });
        else todo.push(i);
      }
      const contacts = await upsertContacts(tx, tenantId, todo.map((i) => rows[i].contact));
      const indexOfContact = new Map(contacts.map((ct, k) => [ct.id, todo[k]]));
      const contactOf = new Map(contacts.map((ct) => [ct.id, ct]));
      const inserted = await insertBookings(
        tx,
        tenantId,
        eventId,
        todo.map((i, k) => ({ contactId: contacts[k].id, role: rows[i].role, guestTenantId: rows[i].guestTenantId ?? null })),
        now,
      );
      if (inserted.length < todo.length) {
        // Not expected under the event's lock (addBooking takes it too); still: say so rather than guess.
        const got = new Set(inserted.map((b) => b.contactId));
        for (const ct of contacts) if (!got.has(ct.id)) skipped.push({ index: indexOfContact.get(ct.id)!, reason: `${ct.email} is already booked on this event` });
      }
      bookingCount += inserted.length;
      const bookingContacts = new Map(inserted.map((b) => [b.id, contactOf.get(b.contactId)!]));
      const planned = planFor(tenant, event, inserted.map((b) => ({ id: b.id, role: b.role, status: 'confirmed' as const })), rules, bookingContacts, now);
      const r = await insertPlannedReminders(tx, reminderRows(tenant, event, planned));
      reminderCount += r.inserted;
      for (const [ruleId, at] of r.earliestScheduled) {
        const prev = wakes.get(ruleId);
        if (!prev || at < prev) wakes.set(ruleId, at);
      }
      if (notify) await recordBookingsConfirmed(tx, inserted.map((b) => ({ id: b.id, tenantId, eventId, role: b.role })), event, now);
    }
    await enqueueWakes(tx, event.id, wakes, now);
    skipped.sort((a, b) => a.index - b.index);
    return { bookings: bookingCount, reminders: reminderCount, skipped };
  });
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

/**
 * Cancels one booking and its still-sendable reminders, in one transaction. The booking's row lock orders
 * this against a concurrent send, which reads the booking FOR SHARE right before the provider call
 * (db/queries/sending/delivery.ts `loadReminderWorld`): that send either sees the cancellation or committed its
 * `sending` state before it. Idempotent. @throws AppError not_found.
 */
export async function cancelBooking(db: Db | Tx, tenantId: string, bookingId: string, reason: string, now: Date): Promise<Booking> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ status: bookings.status }).from(bookings).where(and(eq(bookings.tenantId, tenantId), eq(bookings.id, bookingId))).for('update');
    const [b] = await tx
      .update(bookings)
      .set({ status: 'cancelled', statusReason: reason, updatedAt: now })
      .where(and(eq(bookings.tenantId, tenantId), eq(bookings.id, bookingId)))
      .returning();
    if (!b) throw new AppError('not_found', `booking ${bookingId} not found`, 'bookingId');
    await endSendableReminders(tx, tenantId, { bookingId }, 'cancelled', `booking cancelled: ${reason}`);
    if (before?.status !== 'cancelled') {
      const [event] = await tx.select().from(events).where(eq(events.id, b.eventId));
      await recordBookingCancelled(tx, b, event, reason, now);
    }
    return b;
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

/** What {@link replanParticipantBooking} changed for one booking. */
export interface ParticipantReplanResult {
  bookingId: string;
  eventId: string;
  /** Waiting reminders moved to new instants (same rows, same message keys), with their instants before and after. */
  retimed: { reminderId: string; ruleId: string; channel: string; from: { dueAt: Date; deferredFrom: Date | null }; to: { dueAt: Date; deferredFrom: Date | null } }[];
  /** Reminders newly planned (a channel that became possible, e.g. SMS after a number was added). */
  inserted: number;
  /** Reminders already handed to a send (dispatched, claimed, sending, sent): left exactly as they are. */
  handedOver: number;
}

/**
 * Re-plans ONE booking's rule reminders after its participant's details changed (issue #12: zone, mobile
 * number), at the event's CURRENT schedule version, with the same planner as every other path (`planFor`:
 * domain/scheduling/planning.ts, the person's channels, quiet hours in their zone). What happens to each stored reminder
 * is decided by domain/scheduling/participant-replan.ts: a waiting (`scheduled`) one whose planned instants moved is
 * re-timed in place — the same row and message key, so it is still one message —; one already handed to a
 * send (`dispatched`, `done`) or ended is never touched; a newly possible channel is inserted. Then the
 * wake-up of every rule touched is set to that rule's earliest waiting reminder of the event (never later
 * than another participant's).
 *
 * The caller runs this in the transaction that writes the person, AFTER locking the event FOR UPDATE (the
 * lock a send takes FOR SHARE before it re-reads the person, db/queries/sending/delivery.ts `loadReminderWorld`: a send
 * either went first or sees the new details) and after writing the contact.
 * @param reason status reason given to re-timed reminders (shown on their timeline row).
 * @throws AppError('validation') for a rule whose offset cannot be planned (the edit then writes nothing).
 */
export async function replanParticipantBooking(tx: Tx, tenantId: string, event: Event, booking: Booking, now: Date, reason: string): Promise<ParticipantReplanResult> {
  const result: ParticipantReplanResult = { bookingId: booking.id, eventId: event.id, retimed: [], inserted: 0, handedOver: 0 };
  const tenant = await requireTenant(tx, tenantId);
  const rules = await activeRules(tx, tenantId);
  const contacts = await contactsOfBookings(tx, tenantId, [booking.id]);
  const planned = planFor(tenant, event, [booking], rules, contacts, now);
  const stored = await ruleRemindersOfBookingForUpdate(tx, tenantId, booking.id, event.scheduleVersion);
  const steps = participantReplan(
    stored.filter((s): s is typeof s & { ruleId: string } => s.ruleId !== null),
    planned,
  );
  const touched = new Set<string>();
  const inserts: (PlannedReminder & { deferredFrom: Date | null })[] = [];
  for (const step of steps) {
    if (step.kind === 'retime') {
      if (!(await retimeReminder(tx, step.id, step.to, reason))) continue;
      touched.add(step.ruleId);
      result.retimed.push({
        reminderId: step.id,
        ruleId: step.ruleId,
        channel: step.channel,
        from: { dueAt: step.from.dueAt, deferredFrom: step.from.deferredFrom },
        to: { dueAt: step.to.dueAt, deferredFrom: step.to.deferredFrom },
      });
    } else if (step.kind === 'insert') inserts.push(step.planned);
    else if (step.why === 'handed_over') result.handedOver++;
  }
  if (inserts.length > 0) {
    const r = await insertPlannedReminders(tx, reminderRows(tenant, event, inserts));
    result.inserted = r.inserted;
    for (const ruleId of r.earliestScheduled.keys()) touched.add(ruleId);
  }
  // Each touched rule's wake-up at its earliest waiting reminder of the event (the job key replaces the old one):
  // computed over all participants, so a later instant of this one never delays anybody else's.
  if (touched.size > 0) await enqueueWakes(tx, event.id, await earliestScheduledByRule(tx, tenantId, event.id, [...touched]), now);
  return result;
}
