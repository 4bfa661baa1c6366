/**
 * SQL of the demo seed's history (dev/demo-history.ts): what the simulated worker does next, the dispatcher's
 * one-row claim, and afterwards moving the database's own `now()` stamps of the simulated rows to the simulated
 * instants. Every statement is limited to the given tenant AND the given events (the batch the seed just made), so
 * rows of earlier batches or of real use are never touched.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';

/** A Date as a timestamptz parameter (postgres.js cannot bind a Date inside a raw drizzle `sql` template). */
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const uuids = (ids: string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

/** The next thing a worker would have done, at its instant `at` (UTC). */
type HistoryStep =
  | { kind: 'domain_event'; id: string; at: Date }
  | { kind: 'reminder'; id: string; at: Date }
  | { kind: 'delivery'; id: string; at: Date };

/**
 * The earliest of: an unprocessed domain event of the events (by created_at), a `scheduled` reminder of the events
 * (by due_at), a `retrying` delivery of their reminders (by next_attempt_at) — strictly before `until`, skipping
 * the `skip` keys (`<kind>:<id>:<epoch ms>`, steps already taken that changed nothing). Null when none is left.
 */
export async function nextHistoryStep(db: DbOrTx, tenantId: string, eventIds: string[], until: Date, skip: ReadonlySet<string>): Promise<HistoryStep | null> {
  const rows = await db.execute<{ kind: HistoryStep['kind']; id: string; at: string }>(sql`
    select * from (
      (select 'domain_event' as kind, id, created_at as at from domain_events
        where tenant_id = ${tenantId} and event_id = any(${uuids(eventIds)}) and processed_at is null and created_at < ${at(until)}
        order by created_at, id limit 20)
      union all
      (select 'reminder', id, due_at from reminders
        where tenant_id = ${tenantId} and event_id = any(${uuids(eventIds)}) and status = 'scheduled' and due_at < ${at(until)}
        order by due_at, id limit 20)
      union all
      (select 'delivery', d.id, d.next_attempt_at from deliveries d join reminders r on r.id = d.reminder_id
        where d.tenant_id = ${tenantId} and r.event_id = any(${uuids(eventIds)}) and d.status = 'retrying' and d.next_attempt_at < ${at(until)}
        order by d.next_attempt_at, d.id limit 20)
    ) s order by at, kind, id`);
  for (const r of rows) {
    const when = new Date(r.at);
    if (!skip.has(`${r.kind}:${r.id}:${when.getTime()}`)) return { kind: r.kind, id: r.id, at: when };
  }
  return null;
}

/** The dispatcher's claim of one due reminder (scheduled → dispatched at `now`). Returns whether it moved. */
export async function dispatchOne(db: DbOrTx, reminderId: string, now: Date): Promise<boolean> {
  const rows = await db.execute(sql`
    update reminders set status = 'dispatched', dispatched_at = ${at(now)}, updated_at = ${at(now)}
    where id = ${reminderId} and status = 'scheduled' returning id`);
  return rows.length === 1;
}

/** Notifications planned from domain event `domainEventId` were planned at `plannedAt` (their row's created_at). */
export async function notificationsPlannedAt(db: DbOrTx, domainEventId: string, plannedAt: Date): Promise<void> {
  await db.execute(sql`update reminders set created_at = ${at(plannedAt)}, updated_at = ${at(plannedAt)} where domain_event_id = ${domainEventId}`);
}

/**
 * After the simulation: the stamps PostgreSQL wrote with its own now() become the simulated instants.
 *  - rule reminders were planned when their booking was made (created_at = the booking's created_at);
 *  - a reminder's updated_at = its last simulated change (dispatch, else planning);
 *  - a delivery was created just before its first attempt started (the claim) and last changed when its last
 *    attempt ended.
 * Events and bookings are left alone (bookings carry their simulated instant already; an event's update would bump
 * its row version).
 */
export async function settleHistoryStamps(db: DbOrTx, tenantId: string, eventIds: string[]): Promise<void> {
  const ev = uuids(eventIds);
  await db.execute(sql`
    update reminders r set created_at = b.created_at
    from bookings b
    where b.id = r.booking_id and r.tenant_id = ${tenantId} and r.event_id = any(${ev}) and r.kind = 'rule'`);
  await db.execute(sql`
    update reminders set updated_at = greatest(created_at, coalesce(dispatched_at, created_at))
    where tenant_id = ${tenantId} and event_id = any(${ev})`);
  await db.execute(sql`
    update deliveries d set
      created_at = coalesce((select min(x.started_at) from delivery_attempts x where x.delivery_id = d.id) - interval '40 milliseconds', d.created_at),
      updated_at = coalesce((select max(coalesce(x.ended_at, x.started_at)) from delivery_attempts x where x.delivery_id = d.id), d.updated_at)
    from reminders r
    where r.id = d.reminder_id and d.tenant_id = ${tenantId} and r.event_id = any(${ev})`);
}
