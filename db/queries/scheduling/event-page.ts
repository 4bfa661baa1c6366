/**
 * The event page's read model: the event, its bookings and each booking's messages (reminders, nudges,
 * notifications) with their deliveries, attempts and reports. Every query filters on `tenant_id` (invariant 9).
 * Instants are ISO-8601 UTC strings (the same object is rendered by the server page and sent as JSON).
 */
import { isUuid } from '@/domain/ids';
import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { BookingRole, DeliveryStatus, ReminderKind, ReminderStatus } from '@/domain/vocabulary';
import { messageTitle } from '@/domain/sending/message-labels';
import type { DbOrTx } from '@/db/client';
import { bookings, contacts, deliveries, deliveryAttempts, events, reminderRules, reminders, tenants } from '@/db/schema';
import { reportsOfDeliveries, reportView, type ReportView } from '@/db/queries/reports/reports';
import { participantSummary, problemDeliveryStatuses, problemReminderStatusesWithoutDelivery, sentMessageCount } from '@/domain/scheduling/participant-summary';
import { isFiltered, PARTICIPANT_PAGE_SIZE, PHONE_SEPARATORS_SQL, participantSearchTerms, type ParticipantFilter } from '@/domain/scheduling/participant-filter';
import { eventCoverage } from '@/domain/scheduling/coverage';

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);
// ---------------------------------------------------------------------------------------------------------
// Event page

export type { AttemptView, BookingView, DeliveryView, EventPage, EventView, ParticipantCounts, ReminderView } from './event-page-views';
import type { AttemptView, BookingView, DeliveryView, EventPage, ParticipantCounts, ReminderView } from './event-page-views';

/** The default order's roles: attendees, then external guests, then hosts. */
const roleOrder: Record<BookingRole, number> = { attendee: 0, external: 1, host: 2 };

/**
 * The ICU root collation: PostgreSQL then orders and lower-cases names as JavaScript's `localeCompare` and
 * `toLowerCase` do (the database's own collation may be `C`, which puts "Zoe" before "ann"). PostgreSQL built
 * with ICU has it (Debian's packages and the embedded server do).
 */
const ICU = sql.raw('"und-x-icu"');

/** Milliseconds, as the page's ISO instants have them (`bookedAt`): two bookings in one millisecond are a tie. */
const ms = (col: SQL) => sql`date_trunc('milliseconds', ${col})`;

/**
 * The event's bookings as rows `x` of what the list counts, filters and sorts on: id, role, status, created_at,
 * the contact visible to this tenant (a guest's contact may live in the guest's own tenant: visible here only
 * through this tenant's booking) — c_id, name, email, phone, null without one — and `rebooked_as`: for a cancelled
 * booking of a person booked again on this event (several bookings, one live at most, index
 * bookings_event_contact_live_uq), the newest of their other bookings made at or after it (to the millisecond);
 * null otherwise. Window functions over each person's bookings, newest first, give it in one pass (a correlated
 * subquery per booking made PostgreSQL's cost estimate large enough to switch on JIT compilation: +0.7 s).
 */
function listedBookings(tenantId: string, eventId: string): SQL {
  return sql`select y.id, y.role, y.status, y.created_at, y.c_id, y.name, y.email, y.phone,
      case when y.status <> 'cancelled' then null
        when y.newest <> y.id then y.newest
        when y.second_ms = ${ms(sql`y.created_at`)} then y.second
      end as rebooked_as
    from (
      select b.id, b.role, b.status, b.created_at, c.id as c_id, c.name, c.email, c.phone,
        first_value(b.id) over person as newest,
        nth_value(b.id, 2) over person as second,
        nth_value(${ms(sql`b.created_at`)}, 2) over person as second_ms
      from bookings b
      left join contacts c on c.id = b.contact_id and (c.tenant_id = ${tenantId} or c.tenant_id = b.guest_tenant_id)
      where b.event_id = ${eventId} and b.tenant_id = ${tenantId}
      window person as (partition by b.contact_id order by b.created_at desc, b.id rows between unbounded preceding and unbounded following)
    ) y`;
}

/**
 * Every message `m` of the event (tenant-scoped) with its booking, kind, schedule version, status and newest
 * delivery's status (null without one). Materialized: computed once, driven from the event's reminders, whatever
 * the statistics say (right after a bulk import they still count the tables as empty, and the planner would
 * otherwise probe reminders per booking through the wrong index).
 */
function eventMessages(tenantId: string, eventId: string): SQL {
  return sql`select r.id, r.booking_id, r.kind, r.schedule_version, r.status,
      (select d.status from deliveries d where d.reminder_id = r.id and d.tenant_id = ${tenantId} order by d.created_at desc, d.id desc limit 1) as delivery_status
    from reminders r where r.tenant_id = ${tenantId} and r.event_id = ${eventId}`;
}

const sqlList = (values: readonly string[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);

/**
 * The "has a problem" rule of domain/scheduling/participant-summary.ts (`problemDeliveryStatuses`,
 * `problemReminderStatusesWithoutDelivery`) over rows `m` of {@link eventMessages}.
 */
const isProblem = sql`(m.delivery_status in (${sqlList(problemDeliveryStatuses)}) or (m.delivery_status is null and m.status in (${sqlList(problemReminderStatusesWithoutDelivery)})))`;

/**
 * `with x as (<the bookings>)[, p as materialized (<ids of bookings with a problem>)]`: what the list's queries
 * read. `p` is small (problems are the exception), so testing each booking against it stays cheap even when the
 * planner, on stale statistics, tests row by row.
 */
function listSources(tenantId: string, eventId: string, f: ParticipantFilter | null): SQL {
  const problems = f?.problem ? sql`, p as materialized (select distinct m.booking_id from (${eventMessages(tenantId, eventId)}) m where ${isProblem})` : sql``;
  return sql`with x as (${listedBookings(tenantId, eventId)})${problems}`;
}

/**
 * The condition of `f` over the rows `x` of {@link listedBookings}, with `p` ({@link listSources}) when it asks for
 * problems (the in-memory rule: applyParticipantFilter).
 */
function filterCondition(f: ParticipantFilter): SQL {
  const parts: SQL[] = [sql`true`];
  if (f.role) parts.push(sql`x.role = ${f.role}`);
  if (f.state) parts.push(sql`x.status = ${f.state}`);
  if (f.problem) parts.push(sql`x.id in (select p.booking_id from p)`);
  const search = participantSearchTerms(f.q);
  if (search) {
    const phone = search.digits
      ? sql` or (x.phone is not null and strpos(regexp_replace(x.phone, ${PHONE_SEPARATORS_SQL}, '', 'g'), ${search.digits}) > 0)`
      : sql``;
    parts.push(sql`x.c_id is not null and (strpos(lower(x.name collate ${ICU}), ${search.text}) > 0 or strpos(lower(x.email collate ${ICU}), ${search.text}) > 0${phone})`);
  }
  return sql.join(parts, sql` and `);
}

/**
 * The list's order over rows `x`: by role, then name, then email; one person's bookings together, the live one
 * first, then history, newest first; the booking id last. `booked`: newest booking first, ties in that order.
 */
function listOrder(sort: ParticipantFilter['sort']): SQL {
  const role = sql.raw(`case x.role ${Object.entries(roleOrder).map(([r, n]) => `when '${r}' then ${n}`).join(' ')} end`);
  const byName = sql`${role}, coalesce(x.name, '') collate ${ICU}, coalesce(x.email, '') collate ${ICU}, (x.status = 'cancelled'), ${ms(sql`x.created_at`)} desc, x.id`;
  return sort === 'booked' ? sql`${ms(sql`x.created_at`)} desc, ${byName}` : byName;
}

/**
 * Runs `read` in a transaction (a savepoint inside the caller's) with JIT compilation off. The list's aggregates
 * cost about 8 per message of the event in PostgreSQL's estimate, so an event of 2,000 people with a reschedule
 * behind it passes `jit_above_cost` (100,000), and compiling then takes longer (0.5–1 s) than running the query
 * (20–30 ms). `SET LOCAL` ends with the transaction (inside a caller's transaction: with the caller's).
 */
async function withoutJit<T>(db: DbOrTx, read: (tx: DbOrTx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local jit = off`);
    return read(tx);
  });
}

/**
 * The event `eventId` of tenant `tenantId` with its bookings (contact, role, status) and, per booking,
 * all its reminders of every schedule version ordered by due instant, each with its rule and its delivery.
 * With `filter` (domain/scheduling/participant-filter.ts) only one page of the matching bookings is returned:
 * the database counts, filters, sorts and cuts the page, and only the page's reminders, deliveries, attempts and
 * reports are read and summarised. Counts, "messages sent" and coverage are always over every booking (SQL
 * aggregates: one row per kind/version/status/newest-delivery-status group, classified by domain/).
 * Without `filter`: every booking, in the default order, each with its whole timeline.
 * @param pageSize bookings per page (default PARTICIPANT_PAGE_SIZE); ignored without `filter`.
 * @returns null when the id is malformed or the event does not belong to the tenant.
 */
export async function getEventPage(db: DbOrTx, tenantId: string, eventId: string, filter: ParticipantFilter | null = null, pageSize?: number): Promise<EventPage | null> {
  if (!isUuid(eventId)) return null;
  const [row] = await db
    .select({ event: events, tenantLead: tenants.roomOpenLeadMinutes, tenantZone: tenants.timeZone })
    .from(events)
    .innerJoin(tenants, eq(tenants.id, events.tenantId))
    .where(and(eq(events.id, eventId), eq(events.tenantId, tenantId)))
    .limit(1);
  if (!row) return null;
  const e = row.event;
  const size = filter ? (pageSize ?? PARTICIPANT_PAGE_SIZE) : null;
  const where = filter ? filterCondition(filter) : sql`true`;
  const sources = listSources(tenantId, e.id, filter);

  const [countRows, pageRows, coverageRows] = await withoutJit(db, (db) => Promise.all([
    db.execute<{ people: number; confirmed: number; attendee: number; external: number; host: number; matching: number }>(sql`
      ${sources}
      select count(*) filter (where x.rebooked_as is null)::int as people,
        count(*) filter (where x.rebooked_as is null and x.status = 'confirmed')::int as confirmed,
        count(*) filter (where x.rebooked_as is null and x.role = 'attendee')::int as attendee,
        count(*) filter (where x.rebooked_as is null and x.role = 'external')::int as external,
        count(*) filter (where x.rebooked_as is null and x.role = 'host')::int as host,
        count(*) filter (where ${where})::int as matching
      from x`),
    db.execute<{ id: string; rebooked_as: string | null }>(sql`
      ${sources}
      select x.id, x.rebooked_as from x where ${where} order by ${listOrder(filter?.sort ?? 'name')}
      ${size === null ? sql`` : sql`limit ${size} offset ${(filter!.page - 1) * size}`}`),
    // Every reminder of every booking, counted by what coverage and "messages sent" read.
    db.execute<{ kind: ReminderKind; schedule_version: number; status: ReminderStatus; delivery_status: DeliveryStatus | null; booking_cancelled: boolean; n: number }>(sql`
      -- The booking's status by its primary key, one lookup per message (a join may scan the event's bookings per message on stale statistics).
      with m as materialized (
        select m.*, (select b.status from bookings b where b.id = m.booking_id and b.tenant_id = ${tenantId} and b.event_id = ${e.id}) as booking_status
        from (${eventMessages(tenantId, e.id)}) m
      )
      select m.kind, m.schedule_version, m.status, m.delivery_status, (m.booking_status = 'cancelled') as booking_cancelled, count(*)::int as n
      from m where m.booking_status is not null
      group by 1, 2, 3, 4, 5`),
  ]));
  const counts = countRows[0]!;
  const groups = coverageRows.map((g) => ({
    kind: g.kind,
    scheduleVersion: g.schedule_version,
    status: g.status,
    deliveryStatus: g.delivery_status,
    bookingCancelled: g.booking_cancelled,
    count: g.n,
  }));
  const participants: ParticipantCounts = {
    people: counts.people,
    confirmed: counts.confirmed,
    byRole: { attendee: counts.attendee, external: counts.external, host: counts.host },
    sent: sentMessageCount(groups),
    matching: counts.matching,
    page: filter?.page ?? 1,
    pageSize: size ?? counts.matching,
    filtered: !!filter && isFiltered(filter),
  };
  const coverage = eventCoverage(groups, e.scheduleVersion);

  // The page's bookings, their messages and those messages' deliveries (newest first), attempts and reports.
  const pageIds = pageRows.map((p) => p.id);
  const onPage = (col: typeof bookings.id | typeof reminders.bookingId) => (size === null ? undefined : inArray(col, pageIds));
  const [bookingRows, reminderRows] =
    pageIds.length === 0
      ? [[], []]
      : await Promise.all([
          db
            .select({
              booking: bookings,
              contact: { id: contacts.id, name: contacts.name, email: contacts.email, phone: contacts.phone },
              contactZone: contacts.timeZone,
            })
            .from(bookings)
            .leftJoin(contacts, and(eq(contacts.id, bookings.contactId), or(eq(contacts.tenantId, tenantId), eq(contacts.tenantId, bookings.guestTenantId))))
            .where(and(eq(bookings.eventId, e.id), eq(bookings.tenantId, tenantId), onPage(bookings.id))),
          db
            .select({ reminder: reminders, ruleName: reminderRules.name, template: reminderRules.template })
            .from(reminders)
            .leftJoin(reminderRules, and(eq(reminderRules.id, reminders.ruleId), eq(reminderRules.tenantId, tenantId)))
            .where(and(eq(reminders.eventId, e.id), eq(reminders.tenantId, tenantId), onPage(reminders.bookingId)))
            .orderBy(asc(reminders.dueAt), asc(reminders.scheduleVersion), asc(reminderRules.name), asc(reminders.channel), asc(reminders.id)),
        ]);
  // By the ids read (an index lookup each), not a subquery the planner may turn into a scan of the tenant's deliveries.
  const reminderIds = reminderRows.map((r) => r.reminder.id);
  const deliveryRows =
    reminderIds.length === 0
      ? []
      : await db
          .select()
          .from(deliveries)
          .where(and(eq(deliveries.tenantId, tenantId), inArray(deliveries.reminderId, reminderIds)))
          .orderBy(desc(deliveries.createdAt), desc(deliveries.id));
  const statusOf = new Map<string, DeliveryStatus>();
  for (const d of deliveryRows) if (d.reminderId && !statusOf.has(d.reminderId)) statusOf.set(d.reminderId, d.status);

  const remindersByBooking = new Map<string, ReminderView[]>();
  for (const r of reminderRows) {
    const m = r.reminder;
    const list = remindersByBooking.get(m.bookingId) ?? [];
    list.push({
      id: m.id,
      kind: m.kind,
      requestedBy: m.requestedBy,
      ruleId: m.ruleId,
      ruleName: messageTitle({ kind: m.kind, ruleName: r.ruleName, notificationType: m.notificationType }),
      notificationType: m.notificationType,
      deferredFrom: isoOrNull(m.deferredFrom),
      template: m.template ?? r.template ?? '',
      channel: m.channel,
      scheduleVersion: m.scheduleVersion,
      status: m.status,
      statusReason: m.statusReason,
      dueAt: iso(m.dueAt),
      expiresAt: iso(m.expiresAt),
      dispatchedAt: isoOrNull(m.dispatchedAt),
      delivery: null,
    });
    remindersByBooking.set(m.bookingId, list);
  }

  const bookingById = new Map(bookingRows.map((r) => [r.booking.id, r]));
  const bookingViews = pageRows.flatMap(({ id, rebooked_as }): BookingView[] => {
    const found = bookingById.get(id);
    if (!found) return []; // deleted between the two reads: bookings are never deleted, but do not trust it
    const { booking: b, contact, contactZone } = found;
    const list = remindersByBooking.get(b.id) ?? [];
    return [
      {
        id: b.id,
        role: b.role,
        status: b.status,
        statusReason: b.statusReason,
        guestTenantId: b.guestTenantId,
        contact,
        personZone: contactZone ?? row.tenantZone,
        ownZone: contactZone ?? null,
        bookedAt: iso(b.createdAt),
        rebookedAs: rebooked_as,
        reminders: list,
        summary: participantSummary(list.map((r) => ({ ...r, deliveryStatus: statusOf.get(r.id) ?? null })), e.scheduleVersion, e.timeZone),
        version: b.version,
        attendance: { state: b.attendance, source: b.attendanceSource, by: b.attendanceBy, at: isoOrNull(b.attendanceAt), tentativeAt: isoOrNull(b.tentativeAt) },
      },
    ];
  });

  const deliveryIds = deliveryRows.map((d) => d.id);
  const [attemptRows, reportRows] =
    deliveryIds.length === 0
      ? [[], []]
      : await Promise.all([
          db
            .select()
            .from(deliveryAttempts)
            .where(and(eq(deliveryAttempts.tenantId, tenantId), inArray(deliveryAttempts.deliveryId, deliveryIds)))
            .orderBy(asc(deliveryAttempts.attemptNo)),
          reportsOfDeliveries(db, deliveryIds),
        ]);
  const attemptsByDelivery = new Map<string, AttemptView[]>();
  for (const a of attemptRows) {
    const list = attemptsByDelivery.get(a.deliveryId) ?? [];
    list.push({
      attemptNo: a.attemptNo,
      startedAt: iso(a.startedAt),
      endedAt: isoOrNull(a.endedAt),
      outcome: a.outcome,
      errorCode: a.errorCode,
      detail: a.errorMessage ?? a.providerResponse,
    });
    attemptsByDelivery.set(a.deliveryId, list);
  }
  const reportsByDelivery = new Map<string, ReportView[]>();
  for (const r of reportRows) {
    const list = reportsByDelivery.get(r.deliveryId!) ?? [];
    list.push(reportView(r));
    reportsByDelivery.set(r.deliveryId!, list);
  }
  const deliveryByReminder = new Map<string, DeliveryView>();
  for (const d of deliveryRows) {
    if (!d.reminderId || deliveryByReminder.has(d.reminderId)) continue; // newest first: keep the first seen
    deliveryByReminder.set(d.reminderId, {
      id: d.id,
      channel: d.channel,
      provider: d.provider,
      status: d.status,
      statusReason: d.statusReason,
      messageKey: d.messageKey,
      address: d.address,
      subject: d.subject,
      providerMessageId: d.providerMessageId,
      attemptCount: d.attemptCount,
      acceptedAt: isoOrNull(d.acceptedAt),
      nextAttemptAt: isoOrNull(d.nextAttemptAt),
      repairOwner: d.repairOwner,
      attempts: attemptsByDelivery.get(d.id) ?? [],
      reports: reportsByDelivery.get(d.id) ?? [],
    });
  }

  for (const b of bookingViews) for (const r of b.reminders) r.delivery = deliveryByReminder.get(r.id) ?? null;

  return {
    event: {
      id: e.id,
      title: e.title,
      description: e.description,
      location: e.location,
      startsAt: iso(e.startsAt),
      endsAt: iso(e.endsAt),
      allDay: e.allDay,
      timeZone: e.timeZone,
      roomUrl: e.roomUrl,
      eventNote: e.eventNote ?? null,
      roomOpenLeadMinutes: e.roomOpenLeadMinutes ?? row.tenantLead,
      status: e.status,
      statusReason: e.statusReason,
      scheduleVersion: e.scheduleVersion,
      version: e.version,
      updatedAt: iso(e.updatedAt),
    },
    bookings: bookingViews,
    participants,
    coverage,
  };
}
