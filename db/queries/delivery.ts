/**
 * SQL of the send path: the locked re-read of a reminder's world, the message-key claim, delivery state
 * writes (each guarded by its from-states) and attempt records.
 */
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import {
  bookings,
  contacts,
  deliveries,
  deliveryAttempts,
  domainEvents,
  events,
  notificationSettings,
  reminderRules,
  reminders,
  suppressions,
  tenants,
  type Booking,
  type Contact,
  type Delivery,
  type DomainEvent,
  type Event,
  type NotificationSettings,
  type Reminder,
  type ReminderRule,
  type Tenant,
} from '../schema';
import { deliveryFromStates, reminderFromStates } from '../../domain/states';
import type { Channel, DeliveryStatus, OutcomeClass, Provider, ReminderStatus } from '../../domain/vocabulary';

export interface ReminderWorld {
  reminder: Reminder;
  event: Event;
  booking: Booking;
  contact: Contact;
  rule: ReminderRule | null;
  tenant: Tenant;
  /** The tenant whose identity and suppression list apply: the guest's own for `external`, else the event's. */
  sendingTenant: Tenant;
  /** Confirmed attendees and external guests (computed for host reminders only; 0 otherwise). */
  confirmedParticipants: number;
  /** For a notification: the domain event it tells of (old/new timing, reason); else null. */
  domainEvent: DomainEvent | null;
  /** The sending tenant's notification settings (SMS sender, webhook endpoint), or null when it has none. */
  settings: NotificationSettings | null;
}

/**
 * Reads a reminder with everything a send decision needs.
 *
 * `lock` (inside a transaction): `'share'` takes FOR SHARE locks on the event and booking rows, so a
 * cancellation or reschedule that is committing right now is waited for and then seen — the decision can
 * never be made on a row that is being changed; `'update'` also locks the reminder FOR UPDATE, so the decision
 * and the claim commit atomically. Locks are taken event → booking → reminder, the same order cancellation
 * and rescheduling use, so the two cannot deadlock.
 */
export async function loadReminderWorld(db: DbOrTx, reminderId: string, lock: false | 'share' | 'update'): Promise<ReminderWorld | null> {
  const [peek] = await db.select().from(reminders).where(eq(reminders.id, reminderId));
  if (!peek) return null;
  if (lock) {
    await db.execute(sql`select 1 from events where id = ${peek.eventId} for share`);
    await db.execute(sql`select 1 from bookings where id = ${peek.bookingId} for share`);
  }
  const [reminder] = lock === 'update' ? await db.select().from(reminders).where(eq(reminders.id, reminderId)).for('update') : [peek];
  const [rule] = reminder.ruleId
    ? await db
        .select()
        .from(reminderRules)
        .where(and(eq(reminderRules.id, reminder.ruleId), eq(reminderRules.tenantId, reminder.tenantId)))
    : [];
  const ctx = await loadBookingContext(db, reminder.tenantId, reminder.bookingId);
  if (!ctx) return null;
  const [domainEvent] = reminder.domainEventId ? await db.select().from(domainEvents).where(eq(domainEvents.id, reminder.domainEventId)) : [];
  // The webhook endpoint is read FOR SHARE on a webhook send: an admin disabling it waits for, or is seen by, the send.
  const settingsQuery = db.select().from(notificationSettings).where(eq(notificationSettings.tenantId, ctx.sendingTenant.id));
  const [settings] = reminder.channel === 'email' ? [] : lock && reminder.channel === 'webhook' ? await settingsQuery.for('share') : await settingsQuery;
  return { reminder, ...ctx, rule: rule ?? null, domainEvent: domainEvent ?? null, settings: settings ?? null };
}

/**
 * Puts a reminder back to wait until `until` (the end of the recipient's quiet hours): due_at moves, and
 * `deferred_from` keeps the first due instant it had. Returns whether it moved.
 */
export async function holdReminder(db: DbOrTx, reminderId: string, until: Date, reason: string): Promise<boolean> {
  const rows = await db
    .update(reminders)
    .set({ status: 'scheduled', statusReason: reason, dueAt: until, deferredFrom: sql`coalesce(${reminders.deferredFrom}, ${reminders.dueAt})`, dispatchedAt: null, updatedAt: sql`now()` })
    .where(and(eq(reminders.id, reminderId), inArray(reminders.status, ['scheduled', ...reminderFromStates('scheduled')])))
    .returning({ id: reminders.id });
  return rows.length === 1;
}

/** Moves a reminder to `status` if the transition table allows it from its current state. Returns whether it moved. */
export async function setReminderStatus(db: DbOrTx, reminderId: string, status: ReminderStatus, reason: string | null): Promise<boolean> {
  const rows = await db
    .update(reminders)
    .set({ status, statusReason: reason, updatedAt: sql`now()` })
    .where(and(eq(reminders.id, reminderId), inArray(reminders.status, reminderFromStates(status))))
    .returning({ id: reminders.id });
  return rows.length === 1;
}

/**
 * The claim (invariant 3): one `INSERT … ON CONFLICT (message_key) DO NOTHING`. Returns the new delivery, or
 * null when the key was already claimed — by another worker, a redelivered job or an earlier run.
 */
export async function claimMessageKey(
  db: DbOrTx,
  d: { tenantId: string; reminderId: string; messageKey: string; channel: Channel; address: string; template: string; provider: Provider; leaseExpiresAt: Date },
): Promise<Delivery | null> {
  const [row] = await db
    .insert(deliveries)
    .values({ ...d, status: 'claimed' })
    .onConflictDoNothing({ target: deliveries.messageKey })
    .returning();
  return row ?? null;
}

/** Points a (locked, not yet sent) delivery at a new address: a webhook endpoint an admin moved since the claim. */
export async function readdressDelivery(db: DbOrTx, deliveryId: string, address: string): Promise<void> {
  await db.update(deliveries).set({ address, updatedAt: sql`now()` }).where(eq(deliveries.id, deliveryId));
}

export async function lockDelivery(db: DbOrTx, deliveryId: string): Promise<Delivery | undefined> {
  const [d] = await db.select().from(deliveries).where(eq(deliveries.id, deliveryId)).for('update');
  return d;
}

/**
 * Guarded delivery transition to `status`: applies only from a state the transition table allows
 * (domain/states.ts). Returns the updated row, or null when the delivery was not in such a state.
 */
export async function transitionDelivery(
  db: DbOrTx,
  deliveryId: string,
  status: DeliveryStatus,
  set: Partial<
    Pick<Delivery, 'statusReason' | 'providerMessageId' | 'leaseExpiresAt' | 'nextAttemptAt' | 'acceptedAt' | 'subject' | 'repairOwner' | 'lastError' | 'reportedAt'>
  > & {
    incrementAttempts?: boolean;
    incrementFailures?: boolean;
  },
): Promise<Delivery | null> {
  const { incrementAttempts, incrementFailures, ...fields } = set;
  const [row] = await db
    .update(deliveries)
    .set({
      ...fields,
      status,
      ...(incrementAttempts ? { attemptCount: sql`${deliveries.attemptCount} + 1` } : {}),
      ...(incrementFailures ? { failureCount: sql`${deliveries.failureCount} + 1` } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(deliveries.id, deliveryId), inArray(deliveries.status, deliveryFromStates(status))))
    .returning();
  return row ?? null;
}

/**
 * The LIVE suppression of `address` on `channel` (case-insensitive) on the list of any of `tenantIds`, or null.
 * Removed entries (soft-deleted, `removed_at` set) are history and stop nothing. An email address's entry stops
 * email, a number's entry SMS (a STOP at the carrier stops SMS only, issue #10 §3).
 */
export async function findSuppression(db: DbOrTx, tenantIds: string[], address: string, channel: Channel) {
  const [row] = await db
    .select()
    .from(suppressions)
    .where(
      and(
        inArray(suppressions.tenantId, tenantIds),
        eq(suppressions.channel, channel),
        sql`lower(${suppressions.address}) = lower(${address})`,
        isNull(suppressions.removedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The most recent attempt of a delivery, or null. */
export async function lastAttemptOf(db: DbOrTx, deliveryId: string) {
  const [row] = await db
    .select()
    .from(deliveryAttempts)
    .where(eq(deliveryAttempts.deliveryId, deliveryId))
    .orderBy(desc(deliveryAttempts.attemptNo))
    .limit(1);
  return row ?? null;
}

export async function startAttempt(db: DbOrTx, a: { tenantId: string; deliveryId: string; attemptNo: number; startedAt: Date }) {
  const [row] = await db.insert(deliveryAttempts).values(a).returning({ id: deliveryAttempts.id });
  return row.id;
}

export async function finishAttempt(
  db: DbOrTx,
  attemptId: string,
  r: { endedAt: Date; outcome: OutcomeClass; errorCode?: string | null; errorMessage?: string | null; providerResponse?: string | null },
) {
  await db
    .update(deliveryAttempts)
    .set({
      endedAt: r.endedAt,
      outcome: r.outcome,
      errorCode: r.errorCode ?? null,
      errorMessage: r.errorMessage ?? null,
      providerResponse: r.providerResponse ?? null,
    })
    .where(eq(deliveryAttempts.id, attemptId));
}


/** A booking with what its templates need: event, contact, tenant, sending tenant, participant count. */
export type BookingContext = Omit<ReminderWorld, 'reminder' | 'rule' | 'domainEvent' | 'settings'>;

/**
 * Reads a booking's template context (no locks). Used by the send path and by the nudge dialog's preview.
 * @returns null when the booking is not in `tenantId`.
 */
export async function loadBookingContext(db: DbOrTx, tenantId: string, bookingId: string): Promise<BookingContext | null> {
  const [row] = await db
    .select({ event: events, booking: bookings, contact: contacts, tenant: tenants })
    .from(bookings)
    .innerJoin(events, eq(events.id, bookings.eventId))
    .innerJoin(contacts, eq(contacts.id, bookings.contactId))
    .innerJoin(tenants, eq(tenants.id, bookings.tenantId))
    .where(and(eq(bookings.id, bookingId), eq(bookings.tenantId, tenantId)));
  if (!row) return null;
  let sendingTenant = row.tenant;
  if (row.booking.role === 'external' && row.booking.guestTenantId) {
    const [g] = await db.select().from(tenants).where(eq(tenants.id, row.booking.guestTenantId));
    if (g) sendingTenant = g;
  }
  // Only the host template shows the participant count: skip the query on every other send.
  let confirmedParticipants = 0;
  if (row.booking.role === 'host') {
    const [{ n }] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(bookings)
      .where(and(eq(bookings.eventId, row.event.id), eq(bookings.status, 'confirmed'), inArray(bookings.role, ['attendee', 'external'])));
    confirmedParticipants = n;
  }
  return { ...row, sendingTenant, confirmedParticipants };
}
