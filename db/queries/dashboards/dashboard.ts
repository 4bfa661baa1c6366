/**
 * SQL behind the dashboard (issue #4 item 2). Every query is scoped to one tenant (invariant 9): rows of
 * another tenant are never counted. Instants in and out are UTC instants; the caller derives the windows
 * from `now` and the tenant zone with domain/dashboards/dashboard.ts (dashboardWindows, hourBuckets).
 *
 * Performance: the chart queries read delivery_attempts through `delivery_attempts_tenant_started_idx`
 * (tenant_id, started_at); the tile counts read deliveries/reminders by tenant and status without a
 * dedicated index (fine for thousands of rows a day; measure with `npm run bench` before adding one).
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import type { ChannelOutcomeRow, LagRow, LatePlannedSends, OutcomeRow } from '@/domain/dashboards/dashboard';
import { channels, outcomeClasses, type Channel, type OutcomeClass } from '@/domain/vocabulary';

/** A Date as a timestamptz parameter (postgres.js cannot bind a Date inside a raw drizzle `sql` template). */
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** The dashboard's tile counts (integers). Which rows and which period each counts is given per field. */
export interface DashboardCounts {
  /** Reminders `scheduled`/`dispatched` with due_at in [now, now + 1 h). */
  dueNextHour: number;
  /** Reminders `scheduled`/`dispatched` with due_at in [now, now + 24 h). */
  dueNext24h: number;
  /** Deliveries `accepted`/`delivered` with accepted_at in [local midnight today, now]. */
  sentToday: number;
  /**
   * Of `sentToday`, those that went out in another organisation's name — an external guest's, as their
   * partnership decides (`deliveries.sending_tenant_id`, recorded by the send path): the mailbox lists them under
   * that organisation, not this one (issue #12).
   */
  sentTodayToGuests: number;
  /** Deliveries `failed` (rejected for good) whose status last changed in [now − 24 h, now]. */
  failedDeliveries24h: number;
  /** Reminders `failed` (template data invalid, nothing sent) whose status last changed in [now − 24 h, now]. */
  failedReminders24h: number;
  /** Deliveries `dead` right now, whatever their age: dead letters wait for a person. */
  dead: number;
  /** Deliveries `unknown` right now, whatever their age: ambiguous outcomes wait for a person. */
  unknown: number;
  /** Reminders `expired` whose expiry instant is in [now − 24 h, now] (never dispatched in time). */
  expiredReminders24h: number;
  /** Deliveries `expired` (a retry would have landed after expiry) whose status last changed in [now − 24 h, now]. */
  expiredDeliveries24h: number;
}

/**
 * A delivery `d` that went out in another organisation's name than its own tenant's: the sending tenant the send
 * path recorded on it (`sending_tenant_id`, migration 0011 — backfilled for older rows), the same rule the mailbox's
 * scope follows (dev/queries/mailbox.ts).
 */
const sentInOtherName = sql`(d.sending_tenant_id is not null and d.sending_tenant_id <> d.tenant_id)`;

/**
 * All tile counts of `tenantId` in one round trip. `w` comes from dashboardWindows (UTC instants).
 */
export async function dashboardCounts(
  db: DbOrTx,
  tenantId: string,
  w: { now: Date; in1h: Date; in24h: Date; since24h: Date; todayStart: Date },
): Promise<DashboardCounts> {
  const [row] = await db.execute<Record<keyof DashboardCounts, number>>(sql`
    select
      (select count(*)::int from reminders where tenant_id = ${tenantId} and status in ('scheduled', 'dispatched')
         and due_at >= ${at(w.now)} and due_at < ${at(w.in1h)}) as "dueNextHour",
      (select count(*)::int from reminders where tenant_id = ${tenantId} and status in ('scheduled', 'dispatched')
         and due_at >= ${at(w.now)} and due_at < ${at(w.in24h)}) as "dueNext24h",
      (select count(*)::int from deliveries where tenant_id = ${tenantId} and status in ('accepted', 'delivered')
         and accepted_at >= ${at(w.todayStart)} and accepted_at <= ${at(w.now)}) as "sentToday",
      (select count(*)::int from deliveries d
         where d.tenant_id = ${tenantId} and d.status in ('accepted', 'delivered')
           and d.accepted_at >= ${at(w.todayStart)} and d.accepted_at <= ${at(w.now)}
           and ${sentInOtherName}) as "sentTodayToGuests",
      (select count(*)::int from deliveries where tenant_id = ${tenantId} and status = 'failed'
         and updated_at >= ${at(w.since24h)}) as "failedDeliveries24h",
      (select count(*)::int from reminders where tenant_id = ${tenantId} and status = 'failed'
         and updated_at >= ${at(w.since24h)}) as "failedReminders24h",
      (select count(*)::int from deliveries where tenant_id = ${tenantId} and status = 'dead') as "dead",
      (select count(*)::int from deliveries where tenant_id = ${tenantId} and status = 'unknown') as "unknown",
      (select count(*)::int from reminders where tenant_id = ${tenantId} and status = 'expired'
         and expires_at >= ${at(w.since24h)} and expires_at <= ${at(w.now)}) as "expiredReminders24h",
      (select count(*)::int from deliveries where tenant_id = ${tenantId} and status = 'expired'
         and updated_at >= ${at(w.since24h)}) as "expiredDeliveries24h"`);
  return row as unknown as DashboardCounts;
}

/** The hour window of a chart: `windowStart` = the first bucket's start, `windowEnd` = now (UTC instants). */
interface ChartWindow {
  windowStart: Date;
  windowEnd: Date;
}

/** `floor((started_at − windowStart) / 1 h)`: the bucket index of domain/dashboards/dashboard.ts hourBuckets. */
const bucketOf = (w: ChartWindow) => sql`floor(extract(epoch from (a.started_at - ${at(w.windowStart)})) / 3600)::int`;

/**
 * SQL form of domain/dashboards/dashboard.ts isLatePlanned over `reminders r`: a rule reminder whose row was created after
 * its due instant (a booking or re-plan after that instant had passed). Keep the two in step.
 */
const latePlanned = sql`(r.kind = 'rule' and r.created_at > r.due_at)`;

/**
 * Dispatch lag per hour: for each hour (by the first attempt's started_at) in [windowStart, windowEnd), the
 * median and 95th percentile (percentile_cont, continuous) of `first attempt started_at − reminder due_at`
 * in seconds, over the tenant's first attempts (attempt_no = 1) of deliveries that belong to a reminder
 * PLANNED IN TIME — late-planned reminders (domain/dashboards/dashboard.ts isLatePlanned) are left out: the time before
 * they existed is not the scheduler's lag (issue #12); {@link latePlannedSends} counts them.
 * Only hours with at least one such attempt are returned, oldest first; fillLag adds the empty ones.
 */
export async function dispatchLagByHour(db: DbOrTx, tenantId: string, w: ChartWindow): Promise<LagRow[]> {
  const rows = await db.execute<{ bucket: number; p50: number; p95: number; n: number }>(sql`
    select ${bucketOf(w)} as bucket,
           percentile_cont(0.5) within group (order by extract(epoch from (a.started_at - r.due_at)))::float8 as p50,
           percentile_cont(0.95) within group (order by extract(epoch from (a.started_at - r.due_at)))::float8 as p95,
           count(*)::int as n
    from delivery_attempts a
    join deliveries d on d.id = a.delivery_id and d.tenant_id = ${tenantId}
    join reminders r on r.id = d.reminder_id and r.tenant_id = ${tenantId}
    where a.tenant_id = ${tenantId}
      and a.attempt_no = 1
      and a.started_at >= ${at(w.windowStart)} and a.started_at < ${at(w.windowEnd)}
      and not ${latePlanned}
    group by 1
    order by 1`);
  return rows.map((r) => ({ bucket: Number(r.bucket), p50Seconds: Number(r.p50), p95Seconds: Number(r.p95), count: Number(r.n) }));
}

/**
 * The late-planned sends the lag chart leaves out: the tenant's first attempts (attempt_no = 1) started in
 * [windowStart, windowEnd) of deliveries whose reminder was planned after its due instant (see
 * {@link dispatchLagByHour}), with the median and 95th percentile of `started_at − reminder created_at` in
 * seconds — how long after it was planned each went out (the measure server/alerts/evaluation.ts uses for them, too).
 */
export async function latePlannedSends(db: DbOrTx, tenantId: string, w: ChartWindow): Promise<LatePlannedSends> {
  const [row] = await db.execute<{ n: number; p50: number | null; p95: number | null }>(sql`
    select count(*)::int as n,
           percentile_cont(0.5) within group (order by extract(epoch from (a.started_at - r.created_at)))::float8 as p50,
           percentile_cont(0.95) within group (order by extract(epoch from (a.started_at - r.created_at)))::float8 as p95
    from delivery_attempts a
    join deliveries d on d.id = a.delivery_id and d.tenant_id = ${tenantId}
    join reminders r on r.id = d.reminder_id and r.tenant_id = ${tenantId}
    where a.tenant_id = ${tenantId}
      and a.attempt_no = 1
      and a.started_at >= ${at(w.windowStart)} and a.started_at < ${at(w.windowEnd)}
      and ${latePlanned}`);
  const n = Number(row?.n ?? 0);
  return { count: n, p50Seconds: n && row?.p50 != null ? Number(row.p50) : null, p95Seconds: n && row?.p95 != null ? Number(row.p95) : null };
}

/**
 * Provider outcomes per hour: the tenant's delivery attempts that finished with a classified outcome, counted
 * per hour (by started_at) in [windowStart, windowEnd) and outcome class. Attempts still in flight (no outcome
 * yet) are left out. Only non-zero (hour, outcome) pairs are returned; fillOutcomes adds the zeros.
 */
export async function outcomesByHour(db: DbOrTx, tenantId: string, w: ChartWindow): Promise<OutcomeRow[]> {
  const rows = await db.execute<{ bucket: number; outcome: string; n: number }>(sql`
    select ${bucketOf(w)} as bucket, a.outcome::text as outcome, count(*)::int as n
    from delivery_attempts a
    join deliveries d on d.id = a.delivery_id and d.tenant_id = ${tenantId}
    where a.tenant_id = ${tenantId}
      and a.outcome is not null
      and a.started_at >= ${at(w.windowStart)} and a.started_at < ${at(w.windowEnd)}
    group by 1, 2
    order by 1, 2`);
  return rows
    .filter((r) => (outcomeClasses as readonly string[]).includes(r.outcome))
    .map((r) => ({ bucket: Number(r.bucket), outcome: r.outcome as OutcomeClass, count: Number(r.n) }));
}

/**
 * Provider outcomes per channel: the tenant's finished delivery attempts (with a classified outcome) started
 * in [windowStart, windowEnd), counted per channel of their delivery (email, SMS, webhook) and outcome class.
 * The same attempts as {@link outcomesByHour}, so the per-channel totals add up to the chart's. Only non-zero
 * (channel, outcome) pairs are returned; fillChannelOutcomes adds the zeros.
 */
export async function outcomesByChannel(db: DbOrTx, tenantId: string, w: ChartWindow): Promise<ChannelOutcomeRow[]> {
  const rows = await db.execute<{ channel: string; outcome: string; n: number }>(sql`
    select d.channel::text as channel, a.outcome::text as outcome, count(*)::int as n
    from delivery_attempts a
    join deliveries d on d.id = a.delivery_id and d.tenant_id = ${tenantId}
    where a.tenant_id = ${tenantId}
      and a.outcome is not null
      and a.started_at >= ${at(w.windowStart)} and a.started_at < ${at(w.windowEnd)}
    group by 1, 2
    order by 1, 2`);
  return rows
    .filter((r) => (channels as readonly string[]).includes(r.channel) && (outcomeClasses as readonly string[]).includes(r.outcome))
    .map((r) => ({ channel: r.channel as Channel, outcome: r.outcome as OutcomeClass, count: Number(r.n) }));
}

/** Email sent across organisations that the mailbox lists under the other one (see {@link guestMailCounts}). */
interface GuestMailCounts {
  /** Emails this tenant sent to its external guests, accepted by the provider: the mailbox lists them under the guest's organisation. */
  sentToGuests: number;
  /** Emails other organisations sent to this tenant's people booked as their guests, in this tenant's name: its mailbox lists them. */
  sentInOurName: number;
}

/**
 * Why a tenant's mailbox and its dashboard's "sent" disagree (issue #12): mail to an external guest may go out in the
 * guest's organisation's name (its partnership decides; the send path records it as `sending_tenant_id`), so the
 * mailbox (what went out in an organisation's name) lists it under that organisation, while the dashboard counts it
 * for the organisation that planned it. Counts every email delivery a provider took (`accepted_at` set: accepted,
 * delivered, bounced, complained) since ever — the mailbox keeps everything too. Each figure reads only deliveries
 * that this tenant sent or that were sent in its name; the second reads `deliveries_sent_for_idx`.
 */
export async function guestMailCounts(db: DbOrTx, tenantId: string): Promise<GuestMailCounts> {
  const [row] = await db.execute<{ out: number; in: number }>(sql`
    select
      (select count(*)::int from deliveries d
         where d.tenant_id = ${tenantId} and d.channel = 'email' and d.accepted_at is not null and ${sentInOtherName}) as "out",
      (select count(*)::int from deliveries d
         where d.sending_tenant_id = ${tenantId} and d.tenant_id <> ${tenantId}
           and d.channel = 'email' and d.accepted_at is not null) as "in"`);
  return { sentToGuests: Number(row?.out ?? 0), sentInOurName: Number(row?.in ?? 0) };
}
