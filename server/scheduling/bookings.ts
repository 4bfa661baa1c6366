/**
 * Scheduling use-cases on bookings: add one, add many to one event (the bulk path), cancel one. Each runs in ONE
 * transaction that writes the change, the newly planned reminders, the end state of the reminders it makes
 * obsolete, and the wake-up jobs (the outbox, invariant 1). Called alike by route handlers, the CSV import,
 * the seed and tests. Events: ./events.ts.
 */
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '@/db/client';
import {
  activeRules,
  guestPartnershipExists,
  endSendableReminders,
  lockEvent,
  findOrCreateContact,
} from '@/db/queries/scheduling/scheduling';
import {
  insertBookings,
  insertPlannedReminders,
  liveBookedEmails,
  upsertContacts,
} from '@/db/queries/scheduling/bulk-planning';
import { bookings, events, type Booking } from '@/db/schema';
import { keptDetails, type KeptDetail } from '@/domain/scheduling/contact-kept';
import { inviteSequenceOnCancel } from '@/db/queries/calendar/invite-sequence';
import { recordBookingCancelled, recordBookingConfirmed, recordBookingsConfirmed } from './domain-events';
import { AppError, parseInput } from '@/server/platform/errors';
import { type AddBookingInput, addBookingSchema } from './inputs';
import { enqueueWakes, planAndEnqueue, planFor, reminderRows, requireTenant } from './planning';

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
 * Cancels one booking and its still-sendable reminders, in one transaction; its calendar SEQUENCE goes one up (the
 * CANCEL carries it, domain/calendar/invite-sequence.ts) unless it was already cancelled. The booking's row lock orders
 * this against a concurrent send, which reads the booking FOR SHARE right before the provider call
 * (db/queries/sending/delivery.ts `loadReminderWorld`): that send either sees the cancellation or committed its
 * `sending` state before it. Idempotent. @throws AppError not_found.
 */
export async function cancelBooking(db: Db | Tx, tenantId: string, bookingId: string, reason: string, now: Date): Promise<Booking> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ status: bookings.status }).from(bookings).where(and(eq(bookings.tenantId, tenantId), eq(bookings.id, bookingId))).for('update');
    const [b] = await tx
      .update(bookings)
      .set({
        status: 'cancelled',
        statusReason: reason,
        updatedAt: now,
        inviteSequence: inviteSequenceOnCancel,
        // Attendance: cancelled by staff (a participant's own "I can't come" goes through ./attendance.ts instead).
        ...(before && before.status !== 'cancelled' ? { attendance: 'cancelled_by_staff' as const, attendanceSource: 'staff' as const, attendanceBy: sql`nullif(current_setting('punctual.actor', true), '')`, attendanceAt: now } : {}),
      })
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
