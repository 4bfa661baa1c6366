/**
 * The planned-messages list for staff (`/reminders`, issue #12): one tenant's reminders — rule reminders, nudges
 * and notifications on every channel — filtered by view and time window (domain/scheduling/reminder-list.ts decides which
 * statuses and instants), with the event, participant and rule of each. Every join is scoped to the tenant
 * (invariant 9): a row of another tenant is never returned nor counted.
 *
 * Performance: reads `reminders` by tenant and status (no dedicated index; the list is paged and the due views
 * use `reminders_due_idx` / `reminders_dispatched_due_idx` where the planner finds them useful).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import type { ReminderListQuery } from '@/domain/scheduling/reminder-list';
import type { BookingRole, Channel, DomainEventType, ReminderKind, ReminderStatus } from '@/domain/vocabulary';

/** A Date as a timestamptz parameter (postgres.js cannot bind a Date inside a raw drizzle `sql` template). */
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** One row of the list. Instants are UTC `Date`s. */
export interface ReminderListRow {
  id: string;
  kind: ReminderKind;
  channel: Channel;
  status: ReminderStatus;
  statusReason: string | null;
  dueAt: Date;
  expiresAt: Date;
  /** When the reminder was planned (its row was written): later than dueAt for a late-planned one. */
  createdAt: Date;
  updatedAt: Date;
  /** Quiet hours moved it: the instant it was due before. */
  deferredFrom: Date | null;
  ruleName: string | null;
  notificationType: DomainEventType | null;
  eventId: string;
  eventTitle: string;
  /** IANA zone the event is planned in: the list shows its instants in it. */
  eventZone: string;
  bookingId: string;
  role: BookingRole;
  contactName: string;
  contactEmail: string;
  contactPhone: string | null;
}

/** Raw column for each instant a view can filter by (see domain/scheduling/reminder-list.ts). */
const columnSql: Record<ReminderListQuery['column'], SQL> = {
  due_at: sql`r.due_at`,
  expires_at: sql`r.expires_at`,
  updated_at: sql`r.updated_at`,
};

/**
 * One page of `tenantId`'s reminders matching `q` (and `channel` when given), with the total count.
 * Order: `q.order` on `q.column`, ties by id (stable paging).
 */
export async function listReminders(
  db: DbOrTx,
  tenantId: string,
  q: ReminderListQuery,
  opts: { channel?: Channel; limit: number; offset: number },
): Promise<{ items: ReminderListRow[]; total: number }> {
  const col = columnSql[q.column];
  const conds: SQL[] = [sql`r.tenant_id = ${tenantId}`, sql`r.status::text in (${sql.join(q.statuses.map((s) => sql`${s}`), sql`, `)})`];
  if (q.from) conds.push(sql`${col} >= ${at(q.from)}`);
  if (q.to) conds.push(q.toInclusive ? sql`${col} <= ${at(q.to)}` : sql`${col} < ${at(q.to)}`);
  if (opts.channel) conds.push(sql`r.channel = ${opts.channel}`);
  const where = sql.join(conds, sql` and `);
  const [{ n }] = await db.execute<{ n: number }>(sql`select count(*)::int as n from reminders r where ${where}`);
  const dir = q.order === 'asc' ? sql`asc` : sql`desc`;
  const rows = await db.execute<Record<string, unknown>>(sql`
    select r.id, r.kind, r.channel, r.status, r.status_reason, r.due_at, r.expires_at, r.created_at, r.updated_at, r.deferred_from,
           ru.name as rule_name, r.notification_type,
           e.id as event_id, e.title as event_title, e.time_zone as event_zone,
           b.id as booking_id, b.role, c.name as contact_name, c.email as contact_email, c.phone as contact_phone
    from reminders r
    join events e on e.id = r.event_id and e.tenant_id = ${tenantId}
    join bookings b on b.id = r.booking_id and b.tenant_id = ${tenantId}
    join contacts c on c.id = b.contact_id and c.tenant_id = ${tenantId}
    left join reminder_rules ru on ru.id = r.rule_id and ru.tenant_id = ${tenantId}
    where ${where}
    order by ${col} ${dir}, r.id ${dir}
    limit ${opts.limit} offset ${opts.offset}`);
  const date = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));
  const items = rows.map(
    (r): ReminderListRow => ({
      id: String(r.id),
      kind: r.kind as ReminderKind,
      channel: r.channel as Channel,
      status: r.status as ReminderStatus,
      statusReason: (r.status_reason as string | null) ?? null,
      dueAt: date(r.due_at),
      expiresAt: date(r.expires_at),
      createdAt: date(r.created_at),
      updatedAt: date(r.updated_at),
      deferredFrom: r.deferred_from ? date(r.deferred_from) : null,
      ruleName: (r.rule_name as string | null) ?? null,
      notificationType: (r.notification_type as DomainEventType | null) ?? null,
      eventId: String(r.event_id),
      eventTitle: String(r.event_title),
      eventZone: String(r.event_zone),
      bookingId: String(r.booking_id),
      role: r.role as BookingRole,
      contactName: String(r.contact_name ?? ''),
      contactEmail: String(r.contact_email),
      contactPhone: (r.contact_phone as string | null) ?? null,
    }),
  );
  return { items, total: Number(n) };
}
