/**
 * SQL of the dispatcher and of lease recovery. Claims use `FOR UPDATE SKIP LOCKED` so any number of worker
 * processes can run them at once without waiting on or double-claiming each other's rows.
 */
import { TASK, type TaskId } from '@/jobs/registry';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';

/** A Date as a timestamptz parameter (postgres.js cannot bind a Date inside a raw drizzle `sql` template). */
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

// Every "lock a batch, then update it" statement below updates `where id = any(array(select id from <batch>))`
// rather than `from <batch> where id = <batch>.id`: the join form let the planner hash-join the batch against a
// sequential scan of the whole table — 300 ms per 200-row claim in a 20,000 burst once updates had bloated
// `reminders` (EXPLAIN ANALYZE, issue #11), and worse at a million rows; the array form is a primary-key lookup
// per row whatever the statistics say.

/**
 * `graphile_worker.add_jobs` (graphile-worker ≥ 0.16) over the rows of `source` — a CTE name with an `id`
 * column — as ONE call: one job per row of task `task`, payload `{ [payloadKey]: id }`, job key
 * `<keyPrefix>:<id>` (replace mode: a waiting job with that key gets this payload and run_at), 25 attempts,
 * run_at `runAt` (SQL over the row, default now()), jobs in `orderBy` order (job ids follow it: graphile-worker breaks
 * run_at ties by id). One insert and one NOTIFY for the whole batch instead of one
 * `add_job` per row; no call at all when `source` is empty. Yields one row `n` (the number of jobs added).
 */
const addJobsFrom = (source: string, task: TaskId, payloadKey: string, keyPrefix: string, runAt = sql`now()`, orderBy?: ReturnType<typeof sql>) => sql`
    select cardinality(s.specs) as n, (select count(*) from graphile_worker.add_jobs(s.specs)) as added
    from (
      select array_agg(row(${task}::text, json_build_object(${payloadKey}::text, src.id), null::text, ${runAt}, 25,
        ${keyPrefix}::text || ':' || src.id::text, null::int, null::text[])::graphile_worker.job_spec
        ${orderBy ? sql`order by ${orderBy}` : sql``}) as specs
      from ${sql.raw(source)} src
    ) s
    where s.specs is not null`;

/** The number of rows an {@link addJobsFrom} statement added jobs for (0 when it added none). */
const addedCount = (rows: unknown[]) => (rows.length ? Number((rows[0] as { n: number | string }).n) : 0);

/**
 * Marks up to `limit` scheduled reminders whose expiry instant has passed as `expired` (reason names both
 * instants as wall-clock times in the event's zone — never a raw ISO instant, issue #12). Returns the count.
 */
export async function expireOverdueReminders(db: DbOrTx, now: Date, limit: number): Promise<number> {
  const rows = await db.execute(sql`
    with overdue as (
      select id from reminders
      where status = 'scheduled' and due_at <= ${at(now)} and expires_at <= ${at(now)}
      order by due_at
      limit ${limit}
      for update skip locked
    )
    update reminders r
    set status = 'expired',
        status_reason = 'not dispatched before its expiry instant '
          -- A zone PostgreSQL does not know must never fail the whole pass (it would stop every tenant's
          -- dispatch): such a reason names the instants in UTC. CASE evaluates only the chosen branch.
          || case when exists (select 1 from pg_timezone_names z where z.name = e.time_zone)
               then to_char(r.expires_at at time zone e.time_zone, 'Dy DD Mon, HH24:MI') || ' ' || e.time_zone
                 || ' (the dispatcher next ran ' || to_char(${at(now)} at time zone e.time_zone, 'Dy DD Mon, HH24:MI:SS')
               else to_char(r.expires_at at time zone 'UTC', 'Dy DD Mon, HH24:MI') || ' UTC'
                 || ' (the dispatcher next ran ' || to_char(${at(now)} at time zone 'UTC', 'Dy DD Mon, HH24:MI:SS') end
          || ' — the worker was down or behind)',
        updated_at = now()
    from events e where r.id = any(array(select id from overdue)) and e.id = r.event_id
    returning r.id`);
  return rows.length;
}

/** Where a dispatcher run's previous claim batch ended: the last (due_at, id) it claimed (due_at as PostgreSQL text, µs). */
export interface ClaimCursor {
  dueAt: string;
  id: string;
}

/**
 * Claims up to `limit` due reminders (status `scheduled`, due_at ≤ now < expires_at) in due order: marks
 * them `dispatched` and adds one `send_reminder` job each — all of them with ONE `graphile_worker.add_jobs`
 * call — in the caller's transaction. Each job's run_at is its reminder's due instant (capped at the database's
 * now()): graphile-worker takes jobs by priority then run_at, so the queue works them oldest due first.
 *
 * `after` (keyset): only reminders after the previous batch's last (due_at, id). Rows an earlier batch of the
 * same run claimed stay in reminders_due_idx as dead entries until VACUUM, so without the cursor batch k of a
 * burst walks k × `limit` of them first (20,000 due at once: ≈ 300 ms of PostgreSQL CPU per 200-row batch
 * towards the end, pg_stat_statements, issue #11). A row skipped because another claimer held it is that
 * claimer's; one whose claimer rolled back waits for the next run (a wake-up or the minute sweep).
 * @returns how many were claimed and the cursor for the next batch (null when none).
 */
export async function claimDueReminders(
  db: DbOrTx,
  now: Date,
  limit: number,
  after: ClaimCursor | null = null,
): Promise<{ claimed: number; last: ClaimCursor | null }> {
  const rows = await db.execute(sql`
    with due as (
      select id, due_at from reminders
      where status = 'scheduled' and due_at <= ${at(now)} and expires_at > ${at(now)}
        ${after ? sql`and (due_at, id) > (${after.dueAt}::timestamptz, ${after.id}::uuid)` : sql``}
      order by due_at, id
      limit ${limit}
      for update skip locked
    ), claimed as (
      update reminders r
      set status = 'dispatched', dispatched_at = ${at(now)}, updated_at = now()
      where r.id = any(array(select id from due))
      returning r.id, r.due_at
    ), added as (${addJobsFrom('claimed', TASK.sendReminder, 'reminderId', 'send', sql`least(src.due_at, now())`, sql`src.due_at, src.id`)})
    select added.n, l.due_at::text as last_due, l.id as last_id
    from added, (select due_at, id from claimed order by due_at desc, id desc limit 1) l`);
  const row = rows[0] as { n: number | string; last_due: string; last_id: string } | undefined;
  return row ? { claimed: Number(row.n), last: { dueAt: row.last_due, id: row.last_id } } : { claimed: 0, last: null };
}

/** One reminder a batch claim took (due_at as PostgreSQL text, µs). */
export interface ClaimedReminder {
  id: string;
  tenantId: string;
  channel: string;
  dueAt: string;
}

/**
 * The batch send path's claim: like {@link claimDueReminders} (same selection, order, keyset cursor, SKIP LOCKED and
 * move to `dispatched`), but it adds no jobs: the caller groups the claimed reminders into send batches
 * (domain/sending/send-batches.ts) and adds them with {@link enqueueSendBatches} in the same transaction.
 * @returns the claimed reminders in due order (due_at, id).
 */
export async function claimDueReminderRows(db: DbOrTx, now: Date, limit: number, after: ClaimCursor | null = null): Promise<ClaimedReminder[]> {
  const rows = await db.execute<{ id: string; tenant_id: string; channel: string; due_at: string }>(sql`
    with due as (
      select id, due_at from reminders
      where status = 'scheduled' and due_at <= ${at(now)} and expires_at > ${at(now)}
        ${after ? sql`and (due_at, id) > (${after.dueAt}::timestamptz, ${after.id}::uuid)` : sql``}
      order by due_at, id
      limit ${limit}
      for update skip locked
    ), claimed as (
      update reminders r
      set status = 'dispatched', dispatched_at = ${at(now)}, updated_at = now()
      where r.id = any(array(select id from due))
      returning r.id, r.tenant_id, r.channel, r.due_at
    )
    select id, tenant_id, channel::text as channel, due_at::text as due_at from claimed order by claimed.due_at, claimed.id`);
  return rows.map((r) => ({ id: r.id, tenantId: r.tenant_id, channel: r.channel, dueAt: r.due_at }));
}

/**
 * Adds the jobs of send batches (each a list of claimed reminders, earliest due first) with ONE
 * `graphile_worker.add_jobs` call, in the given order (job ids follow it): a batch of one is today's `send_reminder`
 * job (job key `send:<id>`, as {@link claimDueReminders} adds), a larger one a `send_reminders` job with the ids
 * (no job key: each reminder's own state and message key keep a second run harmless). run_at is the batch's earliest
 * due instant capped at the database's now(), 25 attempts. Returns how many jobs were added.
 */
export async function enqueueSendBatches(db: DbOrTx, batches: readonly (readonly ClaimedReminder[])[]): Promise<number> {
  if (batches.length === 0) return 0;
  const specs = batches.map((b, ord) =>
    b.length === 1
      ? { ord, task: TASK.sendReminder, payload: { reminderId: b[0].id }, due_at: b[0].dueAt, job_key: `send:${b[0].id}` }
      : { ord, task: TASK.sendReminders, payload: { reminderIds: b.map((m) => m.id) }, due_at: b[0].dueAt, job_key: null },
  );
  const rows = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from graphile_worker.add_jobs(array(
      select row(x.task, x.payload, null::text, least(x.due_at, now()), 25, x.job_key, null::int, null::text[])::graphile_worker.job_spec
      from jsonb_to_recordset(${JSON.stringify(specs)}::jsonb) as x(ord int, task text, payload json, due_at timestamptz, job_key text)
      order by x.ord))`);
  return rows[0]?.n ?? 0;
}

/**
 * Reminders left `dispatched` for longer than `staleMs` without a delivery (the worker holding their job
 * died; not those a waiting, never-run `send_reminders` batch job holds): re-adds their send jobs, one
 * `send_reminder` each (one `add_jobs` call), run_at = due instant (capped at now) like a claim, so a
 * re-added job keeps its place among waiting sends instead of going to the back of a backlog. The message-key
 * claim keeps this duplicate-free.
 * Returns the count.
 */
export async function redispatchStale(db: DbOrTx, now: Date, staleMs: number): Promise<number> {
  const rows = await db.execute(sql`
    with batched as (
      -- Reminders whose send batch still waits its first run (a long backlog): that job sends them; a batch that
      -- failed, or whose worker died holding it, does not count, so its reminders come back one by one.
      select (json_array_elements_text(j.payload -> 'reminderIds'))::uuid as id
      from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier = ${TASK.sendReminders} and j.locked_at is null and j.attempts = 0
    ), stale as (
      select r.id from reminders r
      where r.status = 'dispatched' and r.dispatched_at < ${at(new Date(now.getTime() - staleMs))}
        and r.id not in (select id from batched)
      order by r.due_at
      limit 500
      for update skip locked
    ), touched as (
      update reminders r set dispatched_at = ${at(now)}, updated_at = now() where r.id = any(array(select id from stale)) returning r.id, r.due_at
    )${addJobsFrom('touched', TASK.sendReminder, 'reminderId', 'send', sql`least(src.due_at, now())`, sql`src.due_at, src.id`)}`);
  return addedCount(rows);
}

/**
 * Deliveries whose holder's lease ran out. `claimed` (nothing was sent yet), or `retrying` a lease-length
 * past its next attempt instant → a new `deliver` job; `sending` (the provider call may have happened) → `unknown` with a reason over SMTP, or a
 * same-key reconciling retry on an idempotent provider. Returns the counts (`unknown` includes neither) and the ids
 * moved to `unknown` (their waiting delivery reports are settled by the caller, server/sending/dispatch.ts).
 */
export async function recoverExpiredLeases(
  db: DbOrTx,
  now: Date,
  claimLeaseMs: number,
): Promise<{ resumed: number; unknown: number; unknownIds: string[] }> {
  // `claimed` past its lease, or `retrying` well past its next attempt instant: the worker holding the
  // job died (graphile-worker would keep that job locked for hours). A fresh job is safe: the guarded
  // claimed|retrying → sending transition lets one caller through.
  const resumed = await db.execute(sql`
    with lost as (
      select id from deliveries
      where (status = 'claimed' and lease_expires_at <= ${at(now)})
         or (status = 'retrying' and next_attempt_at <= ${at(new Date(now.getTime() - claimLeaseMs))})
      limit 500 for update skip locked
    ), renewed as (
      update deliveries d set lease_expires_at = ${at(new Date(now.getTime() + claimLeaseMs))},
        next_attempt_at = case when d.status = 'retrying' then ${at(now)} else d.next_attempt_at end, updated_at = now()
      where d.id = any(array(select id from lost)) returning d.id
    )${addJobsFrom('renewed', TASK.deliver, 'deliveryId', 'deliver')}`);
  // Over SMTP and the SMS API (neither has an idempotency key) nobody can tell whether the call went out:
  // unknown, a person decides (invariant 6).
  const unknown = await db.execute(sql`
    with lost as (
      select id from deliveries
      where status = 'sending' and provider in ('smtp', 'sms_api') and lease_expires_at <= ${at(now)}
      limit 500 for update skip locked
    )
    update deliveries d
    set status = 'unknown',
        status_reason = 'the worker stopped during the provider call (lease expired at '
          || to_char(d.lease_expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
          || '); the message may or may not have been sent — a person decides',
        lease_expires_at = null, updated_at = now()
    where d.id = any(array(select id from lost))
    returning d.id`);
  // A provider that deduplicates on the idempotency key can be asked: retry under the same key, which looks
  // the key up first (server/sending/send-attempt.ts) and reconciles instead of duplicating. A webhook receiver
  // deduplicates on `webhook-id` (the message key): resending it is the Standard Webhooks retry.
  const reconciling = await db.execute(sql`
    with lost as (
      select id from deliveries
      where status = 'sending' and provider in ('http_api', 'webhook') and lease_expires_at <= ${at(now)}
      limit 500 for update skip locked
    ), moved as (
      update deliveries d
      set status = 'retrying', next_attempt_at = ${at(now)}, lease_expires_at = null, updated_at = now(),
          status_reason = 'the worker stopped during the provider call; reconciling by idempotency key'
      where d.id = any(array(select id from lost))
      returning d.id
    ), queued as (
      -- One add_jobs call for the batch (none when it is empty); the ids are returned below.
      select (select count(*) from graphile_worker.add_jobs(s.specs)) as added
      from (
        select array_agg(row(${TASK.deliver}::text, json_build_object('deliveryId', m.id), null::text, now(), 25,
          'deliver:' || m.id::text, null::int, null::text[])::graphile_worker.job_spec) as specs
        from moved m
      ) s
      where s.specs is not null
    )
    select moved.id, (select added from queued) as added from moved`);
  // The attempt that was in flight ends ambiguous.
  const lostIds = [...unknown, ...reconciling].map((r) => (r as { id: string }).id);
  if (lostIds.length > 0) {
    await db.execute(sql`
      update delivery_attempts a set ended_at = ${at(now)}, outcome = 'ambiguous', error_code = 'LEASE_EXPIRED',
        error_message = 'worker lost during the provider call'
      where a.ended_at is null and a.delivery_id in (${sql.join(
        lostIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`);
  }
  return { resumed: addedCount(resumed), unknown: unknown.length, unknownIds: unknown.map((r) => (r as { id: string }).id) };
}

/**
 * Belt and braces for invariant 10. When a dispatcher run as of `now` found nothing due, but the database's
 * own clock says a scheduled reminder is due (`due_at ≤ now()`, yet `due_at > now`: the caller's clock is
 * behind the database's), adds one `dispatch_due` job (job key `dispatch:rearm`, replacing any earlier one)
 * for the database instant at which the caller's clock will read that due instant — instead of leaving it to
 * the next minute sweep. Only reminders due within `horizonMs` of `now` count, and the job is never sooner
 * than 100 ms from the database's now, so clocks that keep disagreeing cost at most ten small jobs a second
 * for as long as they disagree, never a busy loop. Returns the job's run_at, or null when none was added.
 */
export async function rearmWakeUp(db: DbOrTx, now: Date, horizonMs: number): Promise<Date | null> {
  const rows = await db.execute<{ run_at: string }>(sql`
    with next as (
      select min(due_at) as due_at from reminders
      where status = 'scheduled' and due_at > ${at(now)} and due_at <= ${at(new Date(now.getTime() + horizonMs))}
        and due_at <= now()
    ), armed as (
      select graphile_worker.add_job(${TASK.dispatchDue}, json_build_object('reason', 'rearm'),
        run_at := now() + greatest(next.due_at - ${at(now)}, interval '100 milliseconds'),
        job_key := 'dispatch:rearm', job_key_mode := 'replace') as job
      from next where next.due_at is not null
    )
    select (armed.job).run_at::text as run_at from armed`);
  return rows.length ? new Date((rows[0] as { run_at: string }).run_at) : null;
}
