/**
 * SQL behind the front desk's "today" view (`/today`, issue #13). Every query is scoped to one tenant
 * (invariant 9): an event, booking, contact, reminder or delivery of another tenant is never returned nor
 * counted — an external guest's contact is read only through this tenant's own booking of them, as the event
 * page does (db/queries/scheduling/event-views.ts getEventPage). Every list is bounded (a `limit`, with the full count beside it),
 * so a day with hundreds of events or an event with thousands of participants keeps the page small.
 *
 * Instants in and out are UTC `Date`s; the caller derives the windows (domain/dashboards/today.ts dayWindow, reminderWindow).
 *
 * Performance: today's events read `events_tenant_starts_idx` (tenant_id, starts_at); participants are read and
 * counted per event through `bookings_event_status_idx` (event_id, status; migration 0021 — cancelled ones too);
 * the attention list reads deliveries through `deliveries_attention_idx` for dead/unknown.
 */
import type { AttendanceSource, AttendanceState } from '@/domain/scheduling/attendance';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import type { ReminderListQuery } from '@/domain/scheduling/reminder-list';
import { isUuid } from '@/domain/ids';
import { messageTitle } from '@/domain/sending/message-labels';
import type { BookingRole, BookingStatus, Channel, DeliveryStatus, DomainEventType, EventStatus, ReminderKind, ReminderStatus } from '@/domain/vocabulary';
import { listReminders, type ReminderListRow } from '@/db/queries/scheduling/reminders-list';

/** A Date as a timestamptz parameter (postgres.js cannot bind a Date inside a raw drizzle `sql` template). */
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const date = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));

/** One of today's events, with how many people are booked. */
interface TodayEventRow {
  id: string;
  title: string;
  location: string | null;
  roomUrl: string | null;
  startsAt: Date;
  endsAt: Date;
  allDay: boolean;
  /** The event's own IANA zone (may differ from the tenant's). */
  timeZone: string;
  status: EventStatus;
  statusReason: string | null;
  /** Bookings not cancelled (people expected). */
  participants: number;
  /** Cancelled bookings. */
  cancelledBookings: number;
  /** Live participant bookings (hosts not counted) by attendance: said they will come / no answer yet; and declined ones. */
  attendance: { confirmed: number; unconfirmed: number; declined: number };
}

/**
 * `tenantId`'s events that START in [day.start, day.end) — cancelled ones included (the desk should know) —
 * in start order (ties by title, id), at most `limit`, with the number there are in all.
 */
export async function todayEvents(
  db: DbOrTx,
  tenantId: string,
  day: { start: Date; end: Date },
  limit = 200,
): Promise<{ items: TodayEventRow[]; total: number }> {
  const where = sql`e.tenant_id = ${tenantId} and e.starts_at >= ${at(day.start)} and e.starts_at < ${at(day.end)}`;
  const [{ n }] = await db.execute<{ n: number }>(sql`select count(*)::int as n from events e where ${where}`);
  const rows = await db.execute<Record<string, unknown>>(sql`
    with today as (
      select e.id, e.title, e.location, e.room_url, e.starts_at, e.ends_at, e.all_day, e.time_zone, e.status, e.status_reason
      from events e where ${where}
      order by e.starts_at, e.title, e.id
      limit ${limit}
    )
    select t.*,
           coalesce(b.live, 0)::int as participants,
           coalesce(b.cancelled, 0)::int as cancelled_bookings,
           coalesce(b.att_confirmed, 0)::int as att_confirmed,
           coalesce(b.att_unconfirmed, 0)::int as att_unconfirmed,
           coalesce(b.att_declined, 0)::int as att_declined
    from today t
    left join (
      select event_id,
             count(*) filter (where status <> 'cancelled') as live,
             count(*) filter (where status = 'cancelled') as cancelled,
             count(*) filter (where status <> 'cancelled' and role <> 'host' and attendance = 'confirmed') as att_confirmed,
             count(*) filter (where status <> 'cancelled' and role <> 'host' and attendance = 'unconfirmed') as att_unconfirmed,
             count(*) filter (where attendance = 'declined') as att_declined
      from bookings
      where tenant_id = ${tenantId} and event_id in (select id from today)
      group by event_id
    ) b on b.event_id = t.id
    order by t.starts_at, t.title, t.id`);
  return {
    total: Number(n),
    items: rows.map((r) => ({
      id: String(r.id),
      title: String(r.title),
      location: (r.location as string | null) ?? null,
      roomUrl: (r.room_url as string | null) ?? null,
      startsAt: date(r.starts_at),
      endsAt: date(r.ends_at),
      allDay: Boolean(r.all_day),
      timeZone: String(r.time_zone),
      status: r.status as EventStatus,
      statusReason: (r.status_reason as string | null) ?? null,
      participants: Number(r.participants),
      cancelledBookings: Number(r.cancelled_bookings),
      attendance: { confirmed: Number(r.att_confirmed), unconfirmed: Number(r.att_unconfirmed), declined: Number(r.att_declined) },
    })),
  };
}

/**
 * `tenantId`'s scheduled events starting in (now, now + 24 h] with MORE than `threshold` live participant bookings
 * (hosts not counted) whose person has not confirmed (attendance `unconfirmed`), soonest first, at most 20.
 */
export async function unconfirmedAlerts(
  db: DbOrTx,
  tenantId: string,
  now: Date,
  threshold: number,
): Promise<{ id: string; title: string; startsAt: Date; timeZone: string; unconfirmed: number }[]> {
  const rows = await db.execute<Record<string, unknown>>(sql`
    select e.id, e.title, e.starts_at, e.time_zone, count(*)::int as n
    from events e
    join bookings b on b.event_id = e.id and b.tenant_id = e.tenant_id
    where e.tenant_id = ${tenantId} and e.status = 'scheduled'
      and e.starts_at > ${at(now)} and e.starts_at <= ${at(now)} + interval '24 hours'
      and b.status <> 'cancelled' and b.role <> 'host' and b.attendance = 'unconfirmed'
    group by e.id
    having count(*) > ${threshold}
    order by e.starts_at, e.id
    limit 20`);
  return rows.map((r) => ({ id: String(r.id), title: String(r.title), startsAt: date(r.starts_at), timeZone: String(r.time_zone), unconfirmed: Number(r.n) }));
}

/** The first of `tenantId`'s scheduled events starting at or after `from` (for "Next: …"), or null. */
export async function nextEventFrom(db: DbOrTx, tenantId: string, from: Date): Promise<{ id: string; title: string; startsAt: Date; timeZone: string } | null> {
  const [r] = await db.execute<Record<string, unknown>>(sql`
    select id, title, starts_at, time_zone from events
    where tenant_id = ${tenantId} and status = 'scheduled' and starts_at >= ${at(from)}
    order by starts_at, id limit 1`);
  return r ? { id: String(r.id), title: String(r.title), startsAt: date(r.starts_at), timeZone: String(r.time_zone) } : null;
}

/** A manual reminder (nudge) of a participant with its delivery, for the notice after "Remind now". */
interface TodayNudge {
  id: string;
  status: ReminderStatus;
  statusReason: string | null;
  delivery: { status: DeliveryStatus; statusReason: string | null; address: string } | null;
}

/** One participant of an event as the desk sees them. */
export interface TodayParticipant {
  bookingId: string;
  role: BookingRole;
  status: BookingStatus;
  statusReason: string | null;
  /** Whether the person said they will come (domain/scheduling/attendance.ts), who answered and when (ISO-8601 UTC). */
  attendance: { state: AttendanceState; source: AttendanceSource | null; by: string | null; at: string | null; tentativeAt: string | null };
  /** null when the contact is not readable from this tenant (never expected: a booking names a contact). */
  contact: { id: string; name: string; email: string; phone: string | null } | null;
  /** The person's own IANA zone, or null when none is on file. */
  ownZone: string | null;
  /** Their nudges requested since `nudgesSince` (newest first), so "Remind now" can say what became of one. */
  nudges: TodayNudge[];
}

/** Order at the desk: hosts first (who runs it), then attendees, then guests of other tenants; live before cancelled. */
const roleRank = sql`case b.role when 'host' then 0 when 'attendee' then 1 else 2 end`;

/**
 * The participants of `tenantId`'s event `eventId`: at most `limit` (hosts, attendees, external guests; live
 * bookings before cancelled ones; by name), the number of bookings in all, and each shown person's nudges
 * requested at or after `nudgesSince`.
 * @returns null when the event is not the tenant's (or the id is not a uuid).
 */
export async function todayParticipants(
  db: DbOrTx,
  tenantId: string,
  eventId: string,
  opts: { limit: number; nudgesSince: Date },
): Promise<{ eventId: string; items: TodayParticipant[]; total: number; live: number } | null> {
  if (!isUuid(eventId)) return null;
  const [ev] = await db.execute<{ id: string }>(sql`select id from events where id = ${eventId} and tenant_id = ${tenantId}`);
  if (!ev) return null;
  const [{ n, live }] = await db.execute<{ n: number; live: number }>(sql`
    select count(*)::int as n, (count(*) filter (where status <> 'cancelled'))::int as live
    from bookings where tenant_id = ${tenantId} and event_id = ${eventId}`);
  const rows = await db.execute<Record<string, unknown>>(sql`
    select b.id as booking_id, b.role, b.status, b.status_reason,
           b.attendance, b.attendance_source, b.attendance_by, b.attendance_at, b.tentative_at,
           c.id as contact_id, c.name, c.email, c.phone, c.time_zone
    from bookings b
    left join contacts c on c.id = b.contact_id and (c.tenant_id = ${tenantId} or c.tenant_id = b.guest_tenant_id)
    where b.tenant_id = ${tenantId} and b.event_id = ${eventId}
    order by ${roleRank}, (b.status = 'cancelled'), lower(coalesce(nullif(c.name, ''), c.email)), b.id
    limit ${opts.limit}`);
  const ids = rows.map((r) => String(r.booking_id));
  const nudgeRows =
    ids.length === 0
      ? []
      : await db.execute<Record<string, unknown>>(sql`
          select r.id, r.booking_id, r.status, r.status_reason,
                 d.status as d_status, d.status_reason as d_reason, d.address as d_address
          from reminders r
          left join lateral (
            select status, status_reason, address from deliveries
            where reminder_id = r.id and tenant_id = ${tenantId} order by created_at desc limit 1
          ) d on true
          where r.tenant_id = ${tenantId} and r.kind = 'nudge' and r.event_id = ${eventId}
            and r.booking_id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})
            and r.created_at >= ${at(opts.nudgesSince)}
          order by r.created_at desc`);
  const nudges = new Map<string, TodayNudge[]>();
  for (const r of nudgeRows) {
    const list = nudges.get(String(r.booking_id)) ?? [];
    list.push({
      id: String(r.id),
      status: r.status as ReminderStatus,
      statusReason: (r.status_reason as string | null) ?? null,
      delivery: r.d_status ? { status: r.d_status as DeliveryStatus, statusReason: (r.d_reason as string | null) ?? null, address: String(r.d_address) } : null,
    });
    nudges.set(String(r.booking_id), list);
  }
  return {
    eventId,
    total: Number(n),
    live: Number(live),
    items: rows.map((r) => ({
      bookingId: String(r.booking_id),
      role: r.role as BookingRole,
      status: r.status as BookingStatus,
      statusReason: (r.status_reason as string | null) ?? null,
      attendance: {
        state: r.attendance as AttendanceState,
        source: (r.attendance_source as AttendanceSource | null) ?? null,
        by: (r.attendance_by as string | null) ?? null,
        at: r.attendance_at ? date(r.attendance_at).toISOString() : null,
        tentativeAt: r.tentative_at ? date(r.tentative_at).toISOString() : null,
      },
      contact: r.contact_id ? { id: String(r.contact_id), name: String(r.name ?? ''), email: String(r.email), phone: (r.phone as string | null) ?? null } : null,
      ownZone: (r.time_zone as string | null) ?? null,
      nudges: nudges.get(String(r.booking_id)) ?? [],
    })),
  };
}

/** A planned message due soon, with its delivery's status (null before one was claimed). */
interface DueReminderRow extends ReminderListRow {
  deliveryId: string | null;
  deliveryStatus: DeliveryStatus | null;
  deliveryAddress: string | null;
}

/** The statuses the reminders section lists: waiting, taken by the scheduler, handed to a delivery. */
const dueReminderStatuses: ReminderStatus[] = ['scheduled', 'dispatched', 'done'];

/**
 * `tenantId`'s messages (rule reminders, nudges, notifications; every channel) `scheduled`, `dispatched` or `done`
 * with due_at in [from, to), soonest first, at most `limit`, with the number there are in all; each with its
 * delivery's status. The list itself is db/queries/scheduling/reminders-list.ts listReminders (the `/reminders` page's query).
 */
export async function remindersDue(
  db: DbOrTx,
  tenantId: string,
  w: { from: Date; to: Date },
  limit = 50,
): Promise<{ items: DueReminderRow[]; total: number }> {
  const q: ReminderListQuery = { statuses: dueReminderStatuses, column: 'due_at', from: w.from, to: w.to, toInclusive: false, order: 'asc' };
  const page = await listReminders(db, tenantId, q, { limit, offset: 0 });
  const ids = page.items.map((r) => r.id);
  const ds =
    ids.length === 0
      ? []
      : await db.execute<Record<string, unknown>>(sql`
          select distinct on (reminder_id) reminder_id, id, status, address from deliveries
          where tenant_id = ${tenantId} and reminder_id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})
          order by reminder_id, created_at desc`);
  const byReminder = new Map(ds.map((d) => [String(d.reminder_id), d]));
  return {
    total: page.total,
    items: page.items.map((r) => {
      const d = byReminder.get(r.id);
      return { ...r, deliveryId: d ? String(d.id) : null, deliveryStatus: d ? (d.status as DeliveryStatus) : null, deliveryAddress: d ? String(d.address) : null };
    }),
  };
}

/** Something about today's events a person must look at. */
export interface TodayAttentionRow {
  /** `delivery`: a dead letter, an unknown outcome or a delivery rejected for good; `reminder`: a reminder that failed on its template data (no delivery). */
  kind: 'delivery' | 'reminder';
  /** The delivery's id (kind `delivery`) or the reminder's (kind `reminder`). */
  id: string;
  status: 'dead' | 'unknown' | 'failed';
  statusReason: string | null;
  channel: Channel;
  /** The address the delivery went to, else the participant's email. */
  address: string;
  /** What the message is: rule name, "Manual reminder", or the notification's type in plain words. */
  title: string;
  eventId: string;
  eventTitle: string;
  eventZone: string;
  /** When its status last changed. */
  updatedAt: Date;
}

/**
 * Problems with messages about `tenantId`'s events that start in [day.start, day.end): deliveries `dead`,
 * `unknown` or `failed`, and reminders `failed` (template data invalid: nothing was claimed), newest change
 * first, at most `limit`, with the number there are in all and the count per status.
 */
export async function todayAttention(
  db: DbOrTx,
  tenantId: string,
  day: { start: Date; end: Date },
  limit = 50,
): Promise<{ items: TodayAttentionRow[]; total: number; counts: { dead: number; unknown: number; failed: number } }> {
  const rows = await db.execute<Record<string, unknown>>(sql`
    with today as (
      select id, title, time_zone from events
      where tenant_id = ${tenantId} and starts_at >= ${at(day.start)} and starts_at < ${at(day.end)}
    ), items as (
      select 'delivery' as kind, d.id, d.status::text as status, d.status_reason, d.channel::text as channel, d.address,
             r.kind::text as r_kind, r.notification_type::text as notification_type, ru.name as rule_name,
             t.id as event_id, t.title as event_title, t.time_zone as event_zone, d.updated_at
      from deliveries d
      join reminders r on r.id = d.reminder_id and r.tenant_id = ${tenantId}
      join today t on t.id = r.event_id
      left join reminder_rules ru on ru.id = r.rule_id and ru.tenant_id = ${tenantId}
      where d.tenant_id = ${tenantId} and d.status in ('dead', 'unknown', 'failed')
      union all
      select 'reminder', r.id, r.status::text, r.status_reason, r.channel::text, coalesce(c.email, ''),
             r.kind::text, r.notification_type::text, ru.name,
             t.id, t.title, t.time_zone, r.updated_at
      from reminders r
      join today t on t.id = r.event_id
      join bookings b on b.id = r.booking_id and b.tenant_id = ${tenantId}
      left join contacts c on c.id = b.contact_id and (c.tenant_id = ${tenantId} or c.tenant_id = b.guest_tenant_id)
      left join reminder_rules ru on ru.id = r.rule_id and ru.tenant_id = ${tenantId}
      where r.tenant_id = ${tenantId} and r.status = 'failed'
    )
    select *, count(*) over ()::int as total,
           (count(*) filter (where status = 'dead') over ())::int as n_dead,
           (count(*) filter (where status = 'unknown') over ())::int as n_unknown,
           (count(*) filter (where status = 'failed') over ())::int as n_failed
    from items
    order by updated_at desc, id
    limit ${limit}`);
  const first = rows[0];
  return {
    total: first ? Number(first.total) : 0,
    counts: { dead: first ? Number(first.n_dead) : 0, unknown: first ? Number(first.n_unknown) : 0, failed: first ? Number(first.n_failed) : 0 },
    items: rows.map((r) => ({
      kind: r.kind === 'reminder' ? 'reminder' : 'delivery',
      id: String(r.id),
      status: r.status as TodayAttentionRow['status'],
      statusReason: (r.status_reason as string | null) ?? null,
      channel: r.channel as Channel,
      address: String(r.address ?? ''),
      title: messageTitle({ kind: r.r_kind as ReminderKind, ruleName: (r.rule_name as string | null) ?? null, notificationType: (r.notification_type as DomainEventType | null) ?? null }),
      eventId: String(r.event_id),
      eventTitle: String(r.event_title),
      eventZone: String(r.event_zone),
      updatedAt: date(r.updated_at),
    })),
  };
}
