/**
 * SQL of the send path: the locked re-read of a reminder's world, the message-key claim, delivery state
 * writes (each guarded by its from-states) and attempt records.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { randomUUID } from 'node:crypto';
import { prebuilt } from '@/db/prebuilt';
import type { DbOrTx } from '@/db/client';
import {
  announcements,
  bookings,
  contacts,
  deliveries,
  deliveryAttempts,
  domainEvents,
  events,
  messageTexts,
  notificationSettings,
  reminderRules,
  reminders,
  tenants,
  type AnnouncementRow,
  type Booking,
  type Contact,
  type Delivery,
  type DomainEvent,
  type Event,
  type NotificationSettings,
  type Reminder,
  type ReminderRule,
  type Tenant,
} from '@/db/schema';
import { deliveryFromStates, reminderFromStates } from '@/domain/states';
import { decideSender, type SenderDecision } from '@/domain/organisations/guest-sender';
import type { Channel, DeliveryStatus, OutcomeClass, Provider, ReminderStatus } from '@/domain/vocabulary';
import { senderFactsFor } from '@/db/queries/organisations/guest-partnerships';

export interface ReminderWorld {
  reminder: Reminder;
  event: Event;
  booking: Booking;
  contact: Contact;
  rule: ReminderRule | null;
  tenant: Tenant;
  /** For an `external` booking: the guest organisation it names (whether or not the message goes out in its name); else null. */
  guestTenant: Tenant | null;
  /** Whose name the message goes out in, and why (domain/organisations/guest-sender.ts, decided on the partnership as it is now). */
  sender: SenderDecision;
  /**
   * The address {@link sender} was decided for: the one given to {@link loadReminderWorld} (a delivery's own
   * address), else the contact's current address on the reminder's channel; null for a webhook.
   */
  senderDecidedFor: string | null;
  /**
   * The tenant whose identity and suppression list apply: the guest's own organisation for an `external` booking
   * when its partnership allows this person ({@link sender}), else the event's (issue #12).
   */
  sendingTenant: Tenant;
  /** Confirmed attendees and external guests (computed for host reminders only; 0 otherwise). */
  confirmedParticipants: number;
  /** For a notification: the domain event it tells of (old/new timing, reason); else null. */
  domainEvent: DomainEvent | null;
  /** For an announcement's message: the announcement (its texts per language, its audience); else null. */
  announcement: AnnouncementRow | null;
  /** The sending tenant's notification settings (SMS sender, webhook endpoint), or null when it has none. */
  settings: NotificationSettings | null;
}

/** The guest organisation an `external` booking names (joined under this alias). */
const guestTenants = alias(tenants, 'guest_tenant');
/** The guest organisation's notification settings (used when the message goes out in its name). */
const guestSettings = alias(notificationSettings, 'guest_settings');

/**
 * Whose name a message to `booking`'s person goes out in (domain/organisations/guest-sender.ts): for an `external` booking that
 * names a guest organisation, decided on its partnership with the booking's tenant as it is now and on `to` — the
 * channel and the address the message is actually sent to (a delivery's own address, not the contact's current
 * one: review of issue #12) — in one statement (`lock`: FOR SHARE on the partnership row, see
 * db/queries/organisations/guest-partnerships.ts `senderFactsFor`); anything else is decided without a query (the host's own name).
 */
export async function senderOf(
  db: DbOrTx,
  booking: Pick<Booking, 'role' | 'guestTenantId' | 'tenantId'>,
  to: { channel: Channel; address: string | null },
  lock: boolean,
): Promise<SenderDecision> {
  const base = { role: booking.role, guestTenantId: booking.guestTenantId, channel: to.channel, address: to.address, partnership: null, knownToGuest: false };
  if (booking.role !== 'external' || !booking.guestTenantId) return decideSender(base);
  const facts = await senderFactsFor(db, booking.guestTenantId, booking.tenantId, to, lock);
  return decideSender({ ...base, ...facts });
}

/** The person's address a message on `channel` would go to now (email address, mobile number; none for a webhook). */
function personalAddress(contact: Contact, channel: Channel): string | null {
  return channel === 'email' ? contact.email || null : channel === 'sms' ? contact.phone : null;
}

/**
 * Confirmed attendees and external guests of the booking's event, computed for a host's booking only (the host
 * template shows it; every other send skips the count — CASE evaluates the subquery only on its branch).
 */
const participantCountOfHost = sql<number>`case when ${bookings.role} = 'host' then (
  select count(*)::int from bookings p
  where p.event_id = ${events.id} and p.status = 'confirmed' and p.role in ('attendee', 'external')) else 0 end`;

/**
 * Takes the send path's first locks for a reminder: FOR SHARE on its event, then on its booking (one statement;
 * PostgreSQL locks the rows in the order of the OF list — event → booking, the order cancellation and
 * rescheduling use). The reminder row itself is read, not locked, to find them (its event and booking never
 * change). A reminder that does not exist locks nothing.
 */
async function lockEventAndBooking(db: DbOrTx, reminderId: string): Promise<void> {
  await db.execute(sql`
    select 1 from events e join bookings b on b.event_id = e.id
    where b.id = (select booking_id from reminders where id = ${reminderId})
      and e.id = (select event_id from reminders where id = ${reminderId})
    for share of e, b`);
}

/**
 * Reads a reminder with everything a send decision needs, in ONE joined select (plus, for an external guest's
 * booking, one read of its partnership — FOR SHARE when locking — to decide whose name the message goes out in,
 * {@link senderOf}; plus, for a locked webhook send, one FOR SHARE read of the endpoint settings).
 *
 * `lock` (inside a transaction): `'share'` takes FOR SHARE locks on the event and booking rows, so a
 * cancellation or reschedule that is committing right now is waited for and then seen — the decision can
 * never be made on a row that is being changed (PostgreSQL re-reads a locked row that changed: EvalPlanQual);
 * `'share'` locks the reminder FOR SHARE too: PostgreSQL re-reads only the rows a statement locks after a wait, so
 * without it a deliver() that waited for a reschedule got the new event with the OLD reminder (schedule version, due
 * instant) and superseded a delivery the reschedule had carried forward (review of issue #11);
 * `'update'` also locks the reminder FOR UPDATE, so the decision and the claim commit atomically. Locks are
 * taken event → booking → reminder, the same order cancellation and rescheduling use, so the two cannot
 * deadlock: for `'share'` the OF list orders them within the statement; for `'update'`
 * {@link lockEventAndBooking} takes the first two, then this select locks the reminder and reads every row
 * after those locks were granted.
 *
 * `opts.address`: the address the message is being sent to — a claimed delivery's own address, which stays what
 * it was claimed for even when the contact is edited afterwards. Whose name it goes out in is decided for that
 * address (review of issue #12: deciding it from the contact's CURRENT address let a host edit a guest's address
 * to a listed one and have the retry go to the old, unlisted address in the partner's name). Without it (before
 * the claim) the contact's current address on the reminder's channel, which is what the claim then records.
 * @returns null when the reminder does not exist or its booking is not in the reminder's tenant.
 */
export async function loadReminderWorld(db: DbOrTx, reminderId: string, lock: false | 'share' | 'update', opts: { address?: string } = {}): Promise<ReminderWorld | null> {
  if (lock === 'update') await lockEventAndBooking(db, reminderId);
  const q = worldSelect(db).where(eq(reminders.id, reminderId));
  const [row] = lock === 'update' ? await q.for('update', { of: reminders }) : lock === 'share' ? await q.for('share', { of: [events, bookings, reminders] }) : await q;
  return row ? worldOfRow(db, row, lock !== false, opts) : null;
}

/**
 * The joined select behind {@link loadReminderWorld} and {@link loadReminderWorldsForUpdate} (one definition, so the
 * single and the batch send path read exactly the same world), without its WHERE and lock clauses.
 */
function worldSelect(db: DbOrTx) {
  return db
    .select({
      reminder: reminders,
      event: events,
      booking: bookings,
      contact: contacts,
      tenant: tenants,
      guest: guestTenants,
      rule: reminderRules,
      domainEvent: domainEvents,
      announcement: announcements,
      settings: notificationSettings,
      guestSettings,
      confirmedParticipants: participantCountOfHost,
    })
    .from(reminders)
    .innerJoin(bookings, and(eq(bookings.id, reminders.bookingId), eq(bookings.tenantId, reminders.tenantId)))
    .innerJoin(events, eq(events.id, bookings.eventId))
    .innerJoin(contacts, eq(contacts.id, bookings.contactId))
    .innerJoin(tenants, eq(tenants.id, bookings.tenantId))
    .leftJoin(guestTenants, and(eq(bookings.role, 'external'), eq(guestTenants.id, bookings.guestTenantId)))
    .leftJoin(reminderRules, and(eq(reminderRules.id, reminders.ruleId), eq(reminderRules.tenantId, reminders.tenantId)))
    .leftJoin(domainEvents, eq(domainEvents.id, reminders.domainEventId))
    .leftJoin(announcements, and(eq(announcements.id, reminders.announcementId), eq(announcements.tenantId, reminders.tenantId)))
    .leftJoin(notificationSettings, eq(notificationSettings.tenantId, tenants.id))
    .leftJoin(guestSettings, eq(guestSettings.tenantId, guestTenants.id));
}

/** One row of {@link worldSelect}. */
type WorldRow = Awaited<ReturnType<ReturnType<typeof worldSelect>['execute']>>[number];

/**
 * A {@link ReminderWorld} from one row of {@link worldSelect}: whose name the message goes out in (re-decided on every
 * read, issue #12: a partnership narrowed since the booking or the claim applies now; the partnership is read FOR
 * SHARE when `locked`, after the event → booking → reminder locks — its edit locks only that row), and for a locked
 * webhook send the endpoint settings read FOR SHARE (an admin disabling it waits for, or is seen by, the send).
 */
async function worldOfRow(db: DbOrTx, row: WorldRow, locked: boolean, opts: { address?: string }): Promise<ReminderWorld> {
  const { guest, guestSettings: ofGuest, ...rest } = row;
  const channel = row.reminder.channel;
  const senderDecidedFor = channel === 'webhook' ? null : (opts.address ?? personalAddress(row.contact, channel));
  const sender = await senderOf(db, row.booking, { channel, address: senderDecidedFor }, locked);
  const sendingTenant = sender.sender === 'guest' && guest ? guest : row.tenant;
  let settings = sender.sender === 'guest' && guest ? ofGuest : row.settings;
  if (locked && row.reminder.channel === 'webhook') {
    [settings = null] = await db.select().from(notificationSettings).where(eq(notificationSettings.tenantId, sendingTenant.id)).for('share');
  }
  return { ...rest, guestTenant: guest, sender, senderDecidedFor, sendingTenant, settings: row.reminder.channel === 'email' ? null : settings };
}

/** A PostgreSQL `uuid[]` literal of ids (uuids need no quoting), for one array parameter: one statement text whatever the count. */
export const uuidLiteral = (ids: readonly string[]) => `{${ids.join(',')}}`;
const uuidArray = (ids: readonly string[]) => sql`${uuidLiteral(ids)}::uuid[]`;

/**
 * The locked world read of {@link loadReminderWorldsForUpdate} (placeholder `ids`: a `uuid[]` literal), its SQL text
 * built once per process (db/prebuilt.ts): the widest statement of the send path.
 */
const worldsForUpdate = prebuilt((db) =>
  worldSelect(db)
    .where(sql`${reminders.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .orderBy(reminders.id)
    .for('update', { of: reminders })
    .prepare('reminder_worlds_for_update'),
);


/**
 * The batch send path's locked read (server/sending/send-batch.ts): the worlds of many reminders with the SAME
 * joined select and the same per-row work as {@link loadReminderWorld} with `'update'`, in two statements for the
 * batch instead of two per reminder (plus the per-row partnership and webhook-endpoint reads of an external guest or a
 * webhook, as in the single read).
 *
 * Lock order, the same as the single path's for every reminder (event → booking → reminder, the order cancellation
 * and rescheduling use) and, across the batch, one consistent order so two batches (or a batch and a single send)
 * can never wait on each other in a circle: first FOR SHARE on every event and booking of the batch in one statement
 * ordered by (event id, booking id) — PostgreSQL locks a locking select's rows in its ORDER BY order —, then FOR
 * UPDATE on the reminders in reminder id order with the world read (rows locked after a wait are re-read:
 * a reminder another batch just sent is seen `done`).
 * @returns the worlds by reminder id; a reminder that does not exist (or whose booking is not in its tenant) is absent.
 */
export async function loadReminderWorldsForUpdate(db: DbOrTx, reminderIds: readonly string[]): Promise<Map<string, ReminderWorld>> {
  const worlds = new Map<string, ReminderWorld>();
  if (reminderIds.length === 0) return worlds;
  const ids = uuidArray(reminderIds);
  await db.execute(sql`
    select 1 from events e join bookings b on b.event_id = e.id
    where b.id in (select booking_id from reminders where id = any(${ids}))
    order by e.id, b.id
    for share of e, b`);
  const rows = await worldsForUpdate(db, { ids: uuidLiteral(reminderIds) });
  for (const row of rows) worlds.set(row.reminder.id, await worldOfRow(db, row, true, {}));
  return worlds;
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

/** A Date as a timestamptz parameter (postgres.js cannot bind a Date inside a raw drizzle `sql` template). */
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
/** `value in (…)` of a list of enum labels. */
export const oneOf = (values: readonly string[]) => sql`(${sql.join(values.map((v) => sql`${v}`), sql`, `)})`;

/**
 * The claim (invariant 3): one `INSERT … ON CONFLICT (message_key) DO NOTHING`. Returns the new delivery, or
 * null when the key was already claimed — by another worker, a redelivered job or an earlier run.
 * `opts.reminderDone`: in the SAME statement (a data-modifying CTE, which runs whether or not the key was free),
 * moves that reminder to `done` when the transition table allows it — what the send path does after every claim
 * attempt — saving a round trip.
 */
export async function claimMessageKey(
  db: DbOrTx,
  d: {
    tenantId: string;
    reminderId: string;
    messageKey: string;
    channel: Channel;
    address: string;
    template: string;
    /** The language of the message's words and why (domain/messages/locale-fallback.ts), fixed with the claim. */
    messageLocale: string | null;
    localeReason: string | null;
    provider: Provider;
    leaseExpiresAt: Date;
    sendingTenantId: string;
    /** The SEQUENCE of the calendar invitation the message carries, fixed with the claim; null when it carries none. */
    inviteSequence: number | null;
  },
  opts: { reminderDone?: boolean } = {},
): Promise<Delivery | null> {
  const insert = opts.reminderDone
    ? db
        .with(
          db.$with('reminder_done', { id: sql<string>`id` }).as(sql`update reminders set status = 'done', status_reason = null, updated_at = now()
            where id = ${d.reminderId} and status in ${oneOf(reminderFromStates('done'))} returning id`),
        )
        .insert(deliveries)
    : db.insert(deliveries);
  // The organisation's own words in effect now for this kind and language (its highest version, when that one is
  // published rather than a reset to the built-in text), fixed with the claim in the same statement: null = Punctual's
  // built-in text. A text published later applies to messages not yet claimed, never to this one's retries.
  const messageTextVersion = d.messageLocale
    ? sql<number | null>`(select case when ${messageTexts.status} = 'published' then ${messageTexts.version} end from ${messageTexts}
        where ${messageTexts.tenantId} = ${d.tenantId} and ${messageTexts.kind} = ${d.template} and ${messageTexts.locale} = ${d.messageLocale}
          and ${messageTexts.version} is not null
        order by ${messageTexts.version} desc limit 1)`
    : null;
  const [row] = await insert
    .values({ ...d, messageTextVersion, status: 'claimed' })
    .onConflictDoNothing({ target: deliveries.messageKey })
    .returning();
  return row ?? null;
}

/** What one claim records (the fields of {@link claimMessageKey}'s `d`). */
export type ClaimInput = Parameters<typeof claimMessageKey>[1];


/**
 * Records a new sending tenant on a (locked) delivery: the partnership of its external guest changed since the
 * claim, so the next attempt goes out in another name (issue #12).
 */
export async function setDeliverySender(db: DbOrTx, deliveryId: string, sendingTenantId: string): Promise<void> {
  await db.update(deliveries).set({ sendingTenantId, updatedAt: sql`now()` }).where(eq(deliveries.id, deliveryId));
}

/** Points a (locked, not yet sent) delivery at a new address: a webhook endpoint an admin moved since the claim. */
export async function readdressDelivery(db: DbOrTx, deliveryId: string, address: string): Promise<void> {
  await db.update(deliveries).set({ address, updatedAt: sql`now()` }).where(eq(deliveries.id, deliveryId));
}

export async function lockDelivery(db: DbOrTx, deliveryId: string): Promise<Delivery | undefined> {
  const [d] = await db.select().from(deliveries).where(eq(deliveries.id, deliveryId)).for('update');
  return d;
}

/** An attempt record started together with a move to `sending` (its number is the delivery's new attempt count). */
interface AttemptStart {
  tenantId: string;
  attemptNo: number;
  startedAt: Date;
}

/** How an attempt ended, recorded together with the delivery's move out of `sending`. */
export interface AttemptEnd {
  attemptId: string;
  endedAt: Date;
  outcome: OutcomeClass;
  errorCode?: string | null;
  errorMessage?: string | null;
  providerResponse?: string | null;
}

/**
 * Guarded delivery transition to `status`: applies only from a state the transition table allows
 * (domain/states.ts). Returns the updated row, or null when the delivery was not in such a state.
 *
 * In the same statement (data-modifying CTEs, one round trip): `attempt.start` inserts the attempt record
 * `attemptNo` (only when the guard lets the move through — same snapshot, and the caller holds the row lock),
 * and its id is returned as `attemptId`; `attempt.end` finishes attempt `attemptId` (outcome, error, the
 * provider's words).
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
  attempt: { start?: AttemptStart; end?: AttemptEnd } = {},
): Promise<(Delivery & { attemptId?: string }) | null> {
  const { incrementAttempts, incrementFailures, ...fields } = set;
  const from = deliveryFromStates(status);
  const attemptId = attempt.start ? randomUUID() : undefined;
  const ctes = [];
  if (attempt.start) {
    const a = attempt.start;
    ctes.push(
      db.$with('attempt_started', { id: sql<string>`id` }).as(sql`insert into delivery_attempts (id, tenant_id, delivery_id, attempt_no, started_at)
        select ${attemptId}::uuid, ${a.tenantId}::uuid, d.id, ${a.attemptNo}::int, ${at(a.startedAt)}
        from deliveries d where d.id = ${deliveryId} and d.status in ${oneOf(from)} returning id`),
    );
  }
  if (attempt.end) {
    const e = attempt.end;
    ctes.push(
      db.$with('attempt_ended', { id: sql<string>`id` }).as(sql`update delivery_attempts set ended_at = ${at(e.endedAt)}, outcome = ${e.outcome},
        error_code = ${e.errorCode ?? null}, error_message = ${e.errorMessage ?? null}, provider_response = ${e.providerResponse ?? null}
        where id = ${e.attemptId} returning id`),
    );
  }
  const [row] = await (ctes.length ? db.with(...ctes).update(deliveries) : db.update(deliveries))
    .set({
      ...fields,
      status,
      ...(incrementAttempts ? { attemptCount: sql`${deliveries.attemptCount} + 1` } : {}),
      ...(incrementFailures ? { failureCount: sql`${deliveries.failureCount} + 1` } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(deliveries.id, deliveryId), inArray(deliveries.status, from)))
    .returning();
  return row ? { ...row, ...(attemptId ? { attemptId } : {}) } : null;
}

/** The most recent attempt of a delivery, or null. */
export async function lastAttemptOf(db: DbOrTx, deliveryId: string) {
  const [row] = await db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, deliveryId)).orderBy(desc(deliveryAttempts.attemptNo)).limit(1);
  return row ?? null;
}

/** A booking with what its templates need: event, contact, tenant, sending tenant, participant count. */
export type BookingContext = Omit<ReminderWorld, 'reminder' | 'rule' | 'domainEvent' | 'announcement' | 'settings' | 'senderDecidedFor'>;

/**
 * Reads a booking's template context (no locks), in one joined select. Used by the send path and by the nudge dialog's preview
 * (whose name: decided for an email to the contact's current address).
 * @returns null when the booking is not in `tenantId`.
 */
export async function loadBookingContext(db: DbOrTx, tenantId: string, bookingId: string): Promise<BookingContext | null> {
  const [row] = await db
    .select({ event: events, booking: bookings, contact: contacts, tenant: tenants, guest: guestTenants, confirmedParticipants: participantCountOfHost })
    .from(bookings)
    .innerJoin(events, eq(events.id, bookings.eventId))
    .innerJoin(contacts, eq(contacts.id, bookings.contactId))
    .innerJoin(tenants, eq(tenants.id, bookings.tenantId))
    .leftJoin(guestTenants, and(eq(bookings.role, 'external'), eq(guestTenants.id, bookings.guestTenantId)))
    .where(and(eq(bookings.id, bookingId), eq(bookings.tenantId, tenantId)));
  if (!row) return null;
  const { guest, ...ctx } = row;
  const sender = await senderOf(db, row.booking, { channel: 'email', address: row.contact.email }, false);
  return { ...ctx, guestTenant: guest, sender, sendingTenant: sender.sender === 'guest' && guest ? guest : row.tenant };
}
