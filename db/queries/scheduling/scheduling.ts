/**
 * SQL for events, bookings, contacts, rules and reminders. Every function takes `db | tx` and a tenant id
 * and filters on it (invariant 9). The bulk path's statements (many rows per statement) are in ./bulk-planning.ts.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { reminderFromStates } from '@/domain/states';
import type { DbOrTx } from '@/db/client';
import {
  bookings,
  contacts,
  guestPartnerships,
  events,
  reminderRules,
  reminders,
  tenants,
  type Booking,
  type Event,
  type NewEvent,
  type ReminderRule,
  type Tenant,
} from '@/db/schema';

/** The tenant with this id, or undefined. */
export async function getTenant(db: DbOrTx, tenantId: string): Promise<Tenant | undefined> {
  const [t] = await db.select().from(tenants).where(eq(tenants.id, tenantId));
  return t;
}

/** The tenant with this slug (its short name), or undefined. */
export async function getTenantBySlug(db: DbOrTx, slug: string): Promise<Tenant | undefined> {
  const [t] = await db.select().from(tenants).where(eq(tenants.slug, slug));
  return t;
}

/** Reads an event and takes a row lock on it (FOR UPDATE) so concurrent reschedules serialise. */
export async function lockEvent(db: DbOrTx, tenantId: string, eventId: string): Promise<Event | undefined> {
  const [e] = await db
    .select()
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)))
    .for('update');
  return e;
}

/** The tenant's active reminder rules. */
export async function activeRules(db: DbOrTx, tenantId: string): Promise<ReminderRule[]> {
  return db
    .select()
    .from(reminderRules)
    .where(and(eq(reminderRules.tenantId, tenantId), eq(reminderRules.active, true)));
}

/** Every booking of the tenant's event, cancelled ones included. */
export async function bookingsOfEvent(db: DbOrTx, tenantId: string, eventId: string): Promise<Booking[]> {
  return db
    .select()
    .from(bookings)
    .where(and(eq(bookings.tenantId, tenantId), eq(bookings.eventId, eventId)));
}

/**
 * The most recent cancelled booking of the same person on the same event as `booking` (not `booking`
 * itself), or undefined: a new booking after one is a re-booking (the cancelled one stays as history).
 */
export async function previousCancelledBooking(db: DbOrTx, tenantId: string, booking: Pick<Booking, 'id' | 'eventId' | 'contactId'>): Promise<Booking | undefined> {
  const [b] = await db
    .select()
    .from(bookings)
    .where(
      and(
        eq(bookings.tenantId, tenantId),
        eq(bookings.eventId, booking.eventId),
        eq(bookings.contactId, booking.contactId),
        eq(bookings.status, 'cancelled'),
        sql`${bookings.id} <> ${booking.id}`,
      ),
    )
    .orderBy(sql`${bookings.createdAt} desc`)
    .limit(1);
  return b;
}

/** A contact found or created by {@link findOrCreateContact}: its details as stored, and whether this call created it. */
interface FoundContact {
  id: string;
  created: boolean;
  name: string;
  locale: string;
  timeZone: string | null;
  phone: string | null;
}

/**
 * Finds the tenant's contact with this address (case-insensitive) or creates it with the given details (name ''
 * and the tenant's default locale — `tenants.locale`, issue #13 — when not given). A KNOWN contact is never changed (domain/scheduling/contact-kept.ts: a booking
 * overwriting a person's details was a lost update of the participant edit and left their other bookings planned
 * for the old zone/number; the participant edit is the one way to change a person). The known contact's row is
 * locked FOR SHARE, so a participant edit or preferences save that is committing is waited for and seen (its
 * new zone is what this booking is planned with), and one that starts later waits for this transaction; callers
 * lock the event first (event → contact, the order the edit uses). Two statements at most (insert … on conflict
 * do nothing; then the locked read), repeated if the address was inserted and is not yet visible (a concurrent
 * insert committing).
 */
export async function findOrCreateContact(
  db: DbOrTx,
  c: { tenantId: string; email: string; name?: string; locale?: string; timeZone?: string | null; phone?: string | null },
): Promise<FoundContact> {
  for (let round = 0; ; round++) {
    // The unique index is on lower(email), an expression drizzle's conflict target cannot name: plain SQL.
    const ins = await db.execute<{ id: string; name: string; locale: string; time_zone: string | null; phone: string | null }>(sql`
      insert into contacts (tenant_id, email, name, locale, time_zone, phone)
      values (${c.tenantId}, ${c.email}, ${c.name ?? ''},
        -- No locale given: the organisation's default locale (its settings page, issue #13).
        coalesce(${c.locale ?? null}::text, (select t.locale from tenants t where t.id = ${c.tenantId}), 'en'),
        ${c.timeZone ?? null}, ${c.phone ?? null})
      on conflict (tenant_id, lower(email)) do nothing
      returning id, name, locale, time_zone, phone`);
    const row = ins[0];
    if (row) return { id: row.id, created: true, name: row.name, locale: row.locale, timeZone: row.time_zone, phone: row.phone };
    const [known] = await db
      .select({ id: contacts.id, name: contacts.name, locale: contacts.locale, timeZone: contacts.timeZone, phone: contacts.phone })
      .from(contacts)
      .where(and(eq(contacts.tenantId, c.tenantId), sql`lower(${contacts.email}) = lower(${c.email})`))
      .for('share');
    if (known) return { ...known, created: false };
    if (round === 2) throw new Error(`findOrCreateContact: ${c.email} neither inserted nor found three times`);
  }
}

/**
 * Ends every still-sendable (`scheduled`/`dispatched`) reminder matching `where` with a terminal status.
 * Returns how many changed. Reminders already `done` keep their state: that mail went out.
 */
export async function endSendableReminders(
  db: DbOrTx,
  tenantId: string,
  scope: { eventId: string; belowVersion?: number } | { bookingId: string },
  status: 'superseded' | 'cancelled',
  reason: string,
): Promise<number> {
  // Notifications are not ended here: each tells of a change that happened; the last re-read before the send
  // (domain/sending/send-decision.ts) decides whether a later change made it moot.
  const conds = [eq(reminders.tenantId, tenantId), inArray(reminders.status, reminderFromStates(status)), sql`${reminders.kind} <> 'notification'`];
  if ('bookingId' in scope) conds.push(eq(reminders.bookingId, scope.bookingId));
  else {
    conds.push(eq(reminders.eventId, scope.eventId));
    if (scope.belowVersion !== undefined) conds.push(sql`${reminders.scheduleVersion} < ${scope.belowVersion}`);
  }
  const rows = await db
    .update(reminders)
    .set({ status, statusReason: reason, updatedAt: sql`now()` })
    .where(and(...conds))
    .returning({ id: reminders.id });
  return rows.length;
}

/**
 * Ends the waiting (`scheduled`/`dispatched`) reminders of one booking planned by rules that target only unconfirmed
 * bookings (`reminder_rules.only_unconfirmed`): `cancelled` with `reason`. Called when the person confirms. Returns how
 * many ended.
 */
export async function endOnlyUnconfirmedReminders(db: DbOrTx, tenantId: string, bookingId: string, reason: string): Promise<number> {
  const rows = await db
    .update(reminders)
    .set({ status: 'cancelled', statusReason: reason, updatedAt: sql`now()` })
    .where(
      and(
        eq(reminders.tenantId, tenantId),
        eq(reminders.bookingId, bookingId),
        eq(reminders.kind, 'rule'),
        inArray(reminders.status, ['scheduled', 'dispatched']),
        sql`${reminders.ruleId} in (select id from reminder_rules where tenant_id = ${tenantId} and only_unconfirmed)`,
      ),
    )
    .returning({ id: reminders.id });
  return rows.length;
}

/**
 * What a change would touch, for the confirmation dialogs: reminders still waiting to go out
 * (`scheduled`/`dispatched`) and reminders already handed to a delivery (`done`), for an event or one booking.
 * Counts only rule reminders (nudges are already on their way).
 */
export async function reminderImpact(
  db: DbOrTx,
  tenantId: string,
  scope: { eventId: string } | { bookingId: string },
): Promise<{ pending: number; done: number }> {
  const by = 'bookingId' in scope ? eq(reminders.bookingId, scope.bookingId) : eq(reminders.eventId, scope.eventId);
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${reminders.status} in ('scheduled', 'dispatched'))::int`,
      done: sql<number>`count(*) filter (where ${reminders.status} = 'done')::int`,
    })
    .from(reminders)
    .where(and(eq(reminders.tenantId, tenantId), eq(reminders.kind, 'rule'), by));
  return row ?? { pending: 0, done: 0 };
}

/**
 * Whether `guestTenantId` lets `hostTenantId` book its people as external guests (db/schema/organisations.ts guestPartnerships):
 * only an `active` partnership does — a pending one (not yet accepted by the other side), a declined or an ended one
 * does not (issue #13).
 */
export async function guestPartnershipExists(db: DbOrTx, guestTenantId: string, hostTenantId: string): Promise<boolean> {
  const [row] = await db
    .select({ g: guestPartnerships.guestTenantId })
    .from(guestPartnerships)
    .where(and(eq(guestPartnerships.guestTenantId, guestTenantId), eq(guestPartnerships.hostTenantId, hostTenantId), eq(guestPartnerships.status, 'active')));
  return !!row;
}

/** The tenants that let `hostTenantId` book their people as external guests (slug and name; `active` partnerships only), by name. */
export async function guestTenantsOf(db: DbOrTx, hostTenantId: string): Promise<{ slug: string; name: string }[]> {
  return db
    .select({ slug: tenants.slug, name: tenants.name })
    .from(guestPartnerships)
    .innerJoin(tenants, eq(tenants.id, guestPartnerships.guestTenantId))
    .where(and(eq(guestPartnerships.hostTenantId, hostTenantId), eq(guestPartnerships.status, 'active')))
    .orderBy(tenants.name);
}

/** The tenant's events with these external UIDs, locked FOR UPDATE (the importer's batches of ~1000). */
export async function lockEventsByExternalUids(db: DbOrTx, tenantId: string, uids: string[]): Promise<Event[]> {
  if (uids.length === 0) return [];
  return db
    .select()
    .from(events)
    .where(and(eq(events.tenantId, tenantId), inArray(events.externalUid, uids)))
    // In id order, like every other writer that locks several events (rule re-plan), so two cannot deadlock.
    .orderBy(asc(events.id))
    .for('update');
}

/** External UIDs of the tenant's events that match a PostgreSQL regular expression (one scan). */
export async function externalUidsMatching(db: DbOrTx, tenantId: string, pattern: string): Promise<string[]> {
  const rows = await db
    .select({ uid: events.externalUid })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), sql`${events.externalUid} ~ ${pattern}`));
  return rows.map((r) => r.uid!);
}

/**
 * Inserts events in one statement whose rows travel as ONE jsonb parameter (jsonb_to_recordset): building a
 * 1000-row VALUES list through the query builder cost more CPU and memory than the rest of an import.
 * Columns not listed take their defaults. Callers batch (the importer: 1000 rows).
 */
export async function insertEvents(
  db: DbOrTx,
  rows: (Pick<NewEvent, 'tenantId' | 'title' | 'startsAt' | 'endsAt' | 'timeZone'> &
    Partial<Pick<NewEvent, 'description' | 'location' | 'roomUrl' | 'externalUid' | 'allDay' | 'roomOpenLeadMinutes'>>)[],
): Promise<void> {
  if (rows.length === 0) return;
  const json = JSON.stringify(
    rows.map((r) => ({
      tenant_id: r.tenantId,
      title: r.title,
      description: r.description ?? null,
      location: r.location ?? null,
      room_url: r.roomUrl ?? null,
      external_uid: r.externalUid ?? null,
      starts_at: r.startsAt.toISOString(),
      ends_at: r.endsAt.toISOString(),
      time_zone: r.timeZone,
      all_day: r.allDay ?? false,
      room_open_lead_minutes: r.roomOpenLeadMinutes ?? null,
    })),
  );
  await db.execute(sql`
    insert into events (tenant_id, title, description, location, room_url, external_uid, starts_at, ends_at, time_zone, all_day, room_open_lead_minutes)
    select tenant_id, title, description, location, room_url, external_uid, starts_at, ends_at, time_zone, all_day, room_open_lead_minutes
    from jsonb_to_recordset(${json}::jsonb) as x(
      tenant_id uuid, title text, description text, location text, room_url text, external_uid text,
      starts_at timestamptz, ends_at timestamptz, time_zone text, all_day boolean, room_open_lead_minutes integer)`);
}

/** Changes an event's title/description/location (and, for the importer, its external UID). */
export async function updateEventTexts(
  db: DbOrTx,
  tenantId: string,
  eventId: string,
  set: { title?: string; description?: string | null; location?: string | null; externalUid?: string },
  now: Date,
): Promise<void> {
  await db
    .update(events)
    .set({ ...set, updatedAt: now })
    .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
}

/**
 * Rule reminders of an event below `version` that a reschedule may carry forward (domain/scheduling/carry-forward.ts):
 * scheduled, dispatched or done, newest version first. Row-locked (the event's lock already orders writers).
 */
export async function carryCandidates(db: DbOrTx, tenantId: string, eventId: string, version: number) {
  return db
    .select({ id: reminders.id, ruleId: reminders.ruleId, bookingId: reminders.bookingId, channel: reminders.channel, dueAt: reminders.dueAt, status: reminders.status })
    .from(reminders)
    .where(
      and(
        eq(reminders.tenantId, tenantId),
        eq(reminders.eventId, eventId),
        eq(reminders.kind, 'rule'),
        sql`${reminders.scheduleVersion} < ${version}`,
        inArray(reminders.status, ['scheduled', 'dispatched', 'done']),
      ),
    )
    .orderBy(sql`${reminders.scheduleVersion} desc`)
    .for('update');
}

/** Moves a reminder to schedule version `version` with the new plan's expiry instant (its due instant is unchanged). */
export async function carryReminder(db: DbOrTx, id: string, version: number, expiresAt: Date): Promise<void> {
  await db.update(reminders).set({ scheduleVersion: version, expiresAt, updatedAt: sql`now()` }).where(eq(reminders.id, id));
}

/** How many confirmed bookings an event of the tenant has (the people an event-wide change is told to); 0 for an unknown event. */
export async function confirmedBookingCount(db: DbOrTx, tenantId: string, eventId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(bookings)
    .where(and(eq(bookings.tenantId, tenantId), eq(bookings.eventId, eventId), eq(bookings.status, 'confirmed')));
  return row?.n ?? 0;
}
