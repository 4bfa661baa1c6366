/**
 * SQL for events, bookings, contacts, rules and reminders. Every function takes `db | tx` and a tenant id
 * and filters on it (invariant 9).
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
  type NewReminder,
  type ReminderRule,
  type Tenant,
} from '@/db/schema';

export async function getTenant(db: DbOrTx, tenantId: string): Promise<Tenant | undefined> {
  const [t] = await db.select().from(tenants).where(eq(tenants.id, tenantId));
  return t;
}

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

export async function getEventByExternalUid(db: DbOrTx, tenantId: string, uid: string): Promise<Event | undefined> {
  const [e] = await db
    .select()
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.externalUid, uid)))
    .for('update');
  return e;
}

export async function activeRules(db: DbOrTx, tenantId: string): Promise<ReminderRule[]> {
  return db
    .select()
    .from(reminderRules)
    .where(and(eq(reminderRules.tenantId, tenantId), eq(reminderRules.active, true)));
}

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
 * Whether `guestTenantId` lets `hostTenantId` book its people as external guests (db/schema.ts guestPartnerships):
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

/**
 * Bulk planning (issue #11 §2 "planning", server/scheduling/scheduling.ts `addBookingsBulk`): one statement per table per
 * batch. Rows travel as ONE jsonb parameter (jsonb_to_recordset), so a batch is never near PostgreSQL's 65,535
 * bind-parameter limit and the query builder does no per-row work.
 */

/** Lower-cased addresses (of `lowerEmails`) of the tenant's contacts that hold a live (not cancelled) booking on `eventId`. */
export async function liveBookedEmails(db: DbOrTx, tenantId: string, eventId: string, lowerEmails: string[]): Promise<Set<string>> {
  if (lowerEmails.length === 0) return new Set();
  // From the addresses: an index probe on contacts (tenant, lower(email)) each, then one on the live-booking
  // index (event, contact) — never a scan of the event's bookings or the tenant's contacts.
  const rows = await db.execute<{ e: string }>(sql`
    select x.e
    from jsonb_array_elements_text(${JSON.stringify(lowerEmails)}::jsonb) as x(e)
    join contacts c on c.tenant_id = ${tenantId} and lower(c.email) = x.e
    where exists (select 1 from bookings b where b.event_id = ${eventId} and b.contact_id = c.id and b.status <> 'cancelled' and b.tenant_id = ${tenantId})`);
  return new Set(rows.map((r) => r.e));
}

/** One contact as {@link findOrCreateContact} takes it: the details of a NEW contact (a known one is never changed). */
interface ContactUpsert {
  email: string;
  name?: string;
  locale?: string;
  timeZone?: string | null;
  phone?: string | null;
}

/** A contact as the planner needs it (channel preferences and quiet hours as stored, parsed from JSON). */
interface PlanningContact {
  id: string;
  email: string;
  phone: string | null;
  timeZone: string | null;
  preferences: unknown;
  quietHours: unknown;
}

/**
 * {@link findOrCreateContact} for many contacts in one statement: creates the unknown addresses with the given
 * details and finds the known ones — which keep every detail as stored (name, zone, language, number: the
 * participant edit changes a person, a booking does not), locked FOR SHARE as the single path locks them. The
 * addresses must be distinct case-insensitively (the caller dedupes). Returns, per input position, the contact.
 *
 * One statement holds an INSERT … ON CONFLICT DO NOTHING for the new addresses and a locking SELECT of the known
 * ones (one snapshot: the select does not see the rows the insert adds, the insert skips the rows that exist). An
 * address another transaction inserts concurrently is in neither result; those rows are sent again (then the
 * select sees them).
 * @throws Error when a contact could not be resolved after 3 rounds (would take three concurrent racing writers).
 */
export async function upsertContacts(db: DbOrTx, tenantId: string, input: ContactUpsert[]): Promise<PlanningContact[]> {
  const out: (PlanningContact | undefined)[] = new Array(input.length);
  let pending = input.map((_, i) => i);
  for (let round = 0; pending.length > 0; round++) {
    if (round === 3) throw new Error(`upsertContacts: ${pending.length} contacts changed concurrently three times`);
    const json = JSON.stringify(
      pending.map((i) => {
        const c = input[i];
        return {
          ord: i,
          email: c.email,
          name: c.name ?? '',
          locale: c.locale ?? null,
          time_zone: c.timeZone ?? null,
          phone: c.phone ?? null,
        };
      }),
    );
    const rows = await db.execute<{ ord: number; id: string; email: string; phone: string | null; time_zone: string | null; preferences: string; quiet_hours: string | null }>(sql`
      with x as materialized (
        select * from jsonb_to_recordset(${json}::jsonb) as x(
          ord int, email text, name text, locale text, time_zone text, phone text)
      ),
      ins as (
        insert into contacts (tenant_id, email, name, locale, time_zone, phone)
        -- No locale given: the organisation's default locale (issue #13).
        select ${tenantId}, x.email, x.name, coalesce(x.locale, (select t.locale from tenants t where t.id = ${tenantId}), 'en'), x.time_zone, x.phone from x
        on conflict (tenant_id, lower(email)) do nothing
        returning id, email, phone, time_zone, preferences, quiet_hours
      ),
      known as (
        select c.id, c.email, c.phone, c.time_zone, c.preferences, c.quiet_hours
        from contacts c join x on c.tenant_id = ${tenantId} and lower(c.email) = lower(x.email)
        for share of c
      ),
      done as (select * from ins union all select * from known)
      select x.ord, d.id, d.email, d.phone, d.time_zone, d.preferences::text as preferences, d.quiet_hours::text as quiet_hours
      from x join done d on lower(d.email) = lower(x.email)`);
    for (const r of rows) {
      out[r.ord] = {
        id: r.id,
        email: r.email,
        phone: r.phone,
        timeZone: r.time_zone,
        preferences: JSON.parse(r.preferences),
        quietHours: r.quiet_hours === null ? null : JSON.parse(r.quiet_hours),
      };
    }
    pending = pending.filter((i) => out[i] === undefined);
  }
  return out as PlanningContact[];
}

/** A booking as the bulk path needs it back (the rest are column defaults: status confirmed, version 1). */
interface InsertedBooking {
  id: string;
  contactId: string;
  role: Booking['role'];
  guestTenantId: string | null;
}

/**
 * Inserts confirmed bookings of one event in one statement; a person with a live booking on it already is
 * skipped (ON CONFLICT DO NOTHING on the live-booking index). Returns the rows inserted.
 */
export async function insertBookings(
  db: DbOrTx,
  tenantId: string,
  eventId: string,
  rows: { contactId: string; role: Booking['role']; guestTenantId: string | null }[],
  createdAt: Date,
): Promise<InsertedBooking[]> {
  if (rows.length === 0) return [];
  const json = JSON.stringify(rows.map((r) => ({ contact_id: r.contactId, role: r.role, guest_tenant_id: r.guestTenantId })));
  const out = await db.execute<{ id: string; contact_id: string; role: Booking['role']; guest_tenant_id: string | null }>(sql`
    insert into bookings (tenant_id, event_id, contact_id, role, guest_tenant_id, created_at)
    select ${tenantId}, ${eventId}, x.contact_id, x.role::booking_role, x.guest_tenant_id, ${createdAt.toISOString()}::timestamptz
    from jsonb_to_recordset(${json}::jsonb) as x(contact_id uuid, role text, guest_tenant_id uuid)
    on conflict do nothing
    returning id, contact_id, role, guest_tenant_id`);
  return out.map((r) => ({ id: r.id, contactId: r.contact_id, role: r.role, guestTenantId: r.guest_tenant_id }));
}

/** Planned rule reminders per statement of `insertPlannedReminders`. */
const REMINDER_INSERT_CHUNK = 20_000;

/**
 * Inserts planned rule reminders (the columns planning sets; the rest take their defaults), REMINDER_INSERT_CHUNK
 * rows per statement; a reminder whose business key exists is left as it is (like `insertReminders`).
 * Returns how many were inserted and, per rule, the earliest due instant among the inserted `scheduled` ones
 * (what the wake-up jobs need) — not the rows themselves.
 *
 * Wire format: the bookings of one event share a handful of distinct plans (rule, channel, due, expiry, status —
 * quiet hours add a few), so each row travels as its booking id plus the index of its plan: a `uuid[]` and an
 * `int[]` parameter, and the distinct plans as one small jsonb. (One jsonb object per row cost PostgreSQL
 * ≈ 25 µs of parsing per row; a uuid array element ≈ 2–4 µs.)
 */
export async function insertPlannedReminders(
  db: DbOrTx,
  rows: Pick<NewReminder, 'tenantId' | 'eventId' | 'bookingId' | 'ruleId' | 'scheduleVersion' | 'channel' | 'dueAt' | 'deferredFrom' | 'expiresAt' | 'status' | 'statusReason'>[],
): Promise<{ inserted: number; earliestScheduled: Map<string, Date> }> {
  let inserted = 0;
  const earliestScheduled = new Map<string, Date>();
  for (let i = 0; i < rows.length; i += REMINDER_INSERT_CHUNK) {
    const plans = new Map<string, number>();
    const planList: Record<string, unknown>[] = [];
    const ids: string[] = [];
    const idx: number[] = [];
    for (const r of rows.slice(i, i + REMINDER_INSERT_CHUNK)) {
      const key = `${r.tenantId}|${r.eventId}|${r.scheduleVersion}|${r.ruleId}|${r.channel}|${r.dueAt.getTime()}|${r.deferredFrom?.getTime() ?? ''}|${r.expiresAt.getTime()}|${r.status}|${r.statusReason ?? ''}`;
      let k = plans.get(key);
      if (k === undefined) {
        k = planList.length;
        plans.set(key, k);
        planList.push({
          i: k,
          tenant_id: r.tenantId,
          event_id: r.eventId,
          rule_id: r.ruleId,
          schedule_version: r.scheduleVersion,
          channel: r.channel,
          due_at: r.dueAt.toISOString(),
          deferred_from: r.deferredFrom ? r.deferredFrom.toISOString() : null,
          expires_at: r.expiresAt.toISOString(),
          status: r.status,
          status_reason: r.statusReason ?? null,
        });
      }
      ids.push(r.bookingId);
      idx.push(k);
    }
    // Ids are UUIDs (no characters an array literal would need to quote), so the literal is built directly.
    const out = await db.execute<{ rule_id: string | null; n: number; min_ms: number | null }>(sql`
      with ins as (
        insert into reminders (tenant_id, event_id, booking_id, rule_id, schedule_version, channel, due_at, deferred_from, expires_at, status, status_reason)
        select p.tenant_id, p.event_id, x.booking_id, p.rule_id, p.schedule_version, p.channel::channel, p.due_at, p.deferred_from, p.expires_at, p.status::reminder_status, p.status_reason
        from unnest(${`{${ids.join(',')}}`}::uuid[], ${`{${idx.join(',')}}`}::int[]) as x(booking_id, plan)
        join jsonb_to_recordset(${JSON.stringify(planList)}::jsonb) as p(
          i int, tenant_id uuid, event_id uuid, rule_id uuid, schedule_version integer, channel text,
          due_at timestamptz, deferred_from timestamptz, expires_at timestamptz, status text, status_reason text) on p.i = x.plan
        on conflict (tenant_id, rule_id, booking_id, schedule_version, channel) do nothing
        returning rule_id, due_at, status
      )
      select rule_id, count(*)::int as n,
        (extract(epoch from min(due_at) filter (where status = 'scheduled')) * 1000)::float8 as min_ms
      from ins group by rule_id`);
    for (const r of out) {
      inserted += r.n;
      if (r.rule_id === null || r.min_ms === null) continue;
      const at = new Date(Math.round(r.min_ms));
      const prev = earliestScheduled.get(r.rule_id);
      if (!prev || at < prev) earliestScheduled.set(r.rule_id, at);
    }
  }
  return { inserted, earliestScheduled };
}
