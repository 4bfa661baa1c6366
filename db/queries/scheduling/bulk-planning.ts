/**
 * Bulk planning (issue #11 §2 "planning", server/scheduling/bookings.ts `addBookingsBulk`): one statement per table per
 * batch. Rows travel as ONE jsonb parameter (jsonb_to_recordset), so a batch is never near PostgreSQL's 65,535
 * bind-parameter limit and the query builder does no per-row work. Every function takes `db | tx` and a tenant id
 * and filters on it (invariant 9). Single-row SQL of the same tables: ./scheduling.ts.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import type { Booking, NewReminder } from '@/db/schema';

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
 * rows per statement; a reminder whose business key exists is left as it is (replays of the same planning are harmless).
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

/**
 * Fresh planner statistics for the tables a large bulk booking grew (bookings, reminders, contacts): run AFTER its
 * transaction committed. Right after a 2,000-person import, before autovacuum's next analyze (up to a minute), the
 * event page's "has a problem" filter was planned on empty statistics and took over a second instead of ~60 ms.
 * ANALYZE samples at most 30,000 rows per table (default_statistics_target 100), so it stays cheap on large tables.
 */
export async function refreshPlannerStatistics(db: DbOrTx): Promise<void> {
  await db.execute(sql`analyze bookings, reminders, contacts`);
}
