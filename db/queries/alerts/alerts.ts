/**
 * SQL of alerts (issue #10 §6; server/alerts/): a tenant's alert settings (versioned, invariant 11), the state
 * of each condition (`alert_states`, read FOR UPDATE by the evaluator), the outbox of alert messages
 * (`alert_messages`, unique `message_key`, claimed with a guarded UPDATE), worker heartbeats, and the cheap
 * observations the evaluator reads for each condition. Every tenant-owned query filters on `tenant_id`
 * (invariant 9); `worker_heartbeats` is not tenant data.
 *
 * Instants: parameters are UTC instants from the caller's clock (the database's in production, invariant 10;
 * a test's FakeClock in tests) — never `now()` here, so a simulated clock decides alone.
 */
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AlertStateSnapshot } from '@/domain/alerts/alerts';
import type { DecisiveAttempt } from '@/domain/alerts/provider-auth';
import { alertConditions, providers, type AlertCondition, type OutcomeClass, type Provider } from '@/domain/vocabulary';
import type { DbOrTx } from '@/db/client';
import { alertMessages, alertSettings, alertStates, staffUsers, workerHeartbeats, type AlertMessage, type AlertSettings, type AlertState } from '@/db/schema';

/** A Date as a timestamptz parameter (postgres.js cannot bind a Date inside a raw drizzle `sql` template). */
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const date = (v: unknown): Date | null => (v == null ? null : v instanceof Date ? v : new Date(String(v)));

// ---------------------------------------------------------------------------------------------- settings

/** The tenant's alert settings row, or undefined when none was ever saved. No lock. */
export async function readAlertSettingsRow(db: DbOrTx, tenantId: string): Promise<AlertSettings | undefined> {
  const [row] = await db.select().from(alertSettings).where(eq(alertSettings.tenantId, tenantId));
  return row;
}

/** The tenant's alert settings row FOR UPDATE (a save's version check and write happen under it), or undefined. */
export async function lockAlertSettingsRow(db: DbOrTx, tenantId: string): Promise<AlertSettings | undefined> {
  const [row] = await db.select().from(alertSettings).where(eq(alertSettings.tenantId, tenantId)).for('update');
  return row;
}

/** The columns a save writes. */
export type AlertSettingsWrite = Pick<AlertSettings, 'emailRecipients' | 'slackWebhookUrl' | 'lagP95Ms' | 'oldestDueSeconds'>;

/**
 * Inserts the tenant's first settings row (version 1, `updated_by` = actor). ON CONFLICT DO NOTHING: undefined
 * when another first save committed meanwhile (the caller answers with that row as a stale save).
 */
export async function insertAlertSettingsRow(db: DbOrTx, tenantId: string, values: AlertSettingsWrite, actor: string, at: Date): Promise<AlertSettings | undefined> {
  const [row] = await db
    .insert(alertSettings)
    .values({ tenantId, ...values, version: 1, updatedBy: actor, updatedAt: at })
    .onConflictDoNothing({ target: alertSettings.tenantId })
    .returning();
  return row;
}

/** Writes `values` to the tenant's (locked) row; the row-version trigger bumps `version` and sets `updated_by`. */
export async function updateAlertSettingsRow(db: DbOrTx, tenantId: string, values: Partial<AlertSettingsWrite>, at: Date): Promise<AlertSettings> {
  const [row] = await db
    .update(alertSettings)
    .set({ ...values, updatedAt: at })
    .where(eq(alertSettings.tenantId, tenantId))
    .returning();
  return row;
}

/** Ids of the tenants that have alert settings (the evaluator's tenants), oldest settings first. */
export async function tenantsWithAlertSettings(db: DbOrTx): Promise<string[]> {
  const rows = await db.select({ tenantId: alertSettings.tenantId }).from(alertSettings).orderBy(asc(alertSettings.updatedAt));
  return rows.map((r) => r.tenantId);
}

/** The tenant's staff with these ids (others — another tenant's, deleted — are left out), by name. */
export async function staffByIds(db: DbOrTx, tenantId: string, ids: readonly string[]): Promise<{ id: string; name: string; email: string }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: staffUsers.id, name: staffUsers.name, email: staffUsers.email })
    .from(staffUsers)
    .where(and(eq(staffUsers.tenantId, tenantId), inArray(staffUsers.id, [...ids])))
    .orderBy(asc(staffUsers.name));
}

// ---------------------------------------------------------------------------------------------- states

const snapshotOf = (r: AlertState): AlertStateSnapshot => ({
  active: r.active,
  episode: r.episode,
  startedAt: r.startedAt,
  clearedAt: r.clearedAt,
  itemCount: r.itemCount,
  firstItemAt: r.firstItemAt,
  lastItemAt: r.lastItemAt,
  detail: r.detail,
  startNotified: r.startNotified,
  lastStartAlertAt: r.lastStartAlertAt,
});

/**
 * Makes sure the tenant has a state row for each of `conditions` (inactive, episode 0), then locks them FOR UPDATE
 * in condition order (one order for every evaluator: two cannot deadlock on them) and returns them. A second
 * evaluator of the same tenant waits here until the first commits, then sees its writes.
 */
export async function lockAlertStates(db: DbOrTx, tenantId: string, conditions: readonly AlertCondition[]): Promise<Map<AlertCondition, AlertStateSnapshot>> {
  if (conditions.length === 0) return new Map();
  await db
    .insert(alertStates)
    .values(conditions.map((condition) => ({ tenantId, condition })))
    .onConflictDoNothing({ target: [alertStates.tenantId, alertStates.condition] });
  const rows = await db
    .select()
    .from(alertStates)
    .where(and(eq(alertStates.tenantId, tenantId), inArray(alertStates.condition, [...conditions])))
    .orderBy(asc(alertStates.condition))
    .for('update');
  return new Map(rows.map((r) => [r.condition, snapshotOf(r)]));
}

/** Stores one condition's state (its row must be locked by {@link lockAlertStates}). `at`: updated_at. */
export async function writeAlertState(db: DbOrTx, tenantId: string, condition: AlertCondition, s: AlertStateSnapshot, at: Date): Promise<void> {
  await db
    .update(alertStates)
    .set({ ...s, updatedAt: at })
    .where(and(eq(alertStates.tenantId, tenantId), eq(alertStates.condition, condition)));
}

/** Every condition's stored state of the tenant (the page), in vocabulary order; a never-evaluated one is absent. */
export async function listAlertStates(db: DbOrTx, tenantId: string): Promise<(AlertStateSnapshot & { condition: AlertCondition; updatedAt: Date })[]> {
  const rows = await db.select().from(alertStates).where(eq(alertStates.tenantId, tenantId));
  return rows
    .map((r) => ({ ...snapshotOf(r), condition: r.condition, updatedAt: r.updatedAt }))
    .sort((a, b) => alertConditions.indexOf(a.condition) - alertConditions.indexOf(b.condition));
}

// ---------------------------------------------------------------------------------------------- observations

/**
 * Deliveries of the tenant in `status` (`dead` / `unknown`) now: how many, and when the oldest and newest of them
 * got there — their last attempt's end (written with the sender's clock), else their last change.
 */
export async function deliveriesInStatus(db: DbOrTx, tenantId: string, status: 'dead' | 'unknown'): Promise<{ count: number; firstAt: Date | null; lastAt: Date | null }> {
  const [row] = await db.execute<{ n: number; first_at: string | null; last_at: string | null }>(sql`
    select count(*)::int as n, min(t) as first_at, max(t) as last_at from (
      select coalesce((select max(a.ended_at) from delivery_attempts a where a.delivery_id = d.id), d.updated_at) as t
      from deliveries d
      where d.tenant_id = ${tenantId} and d.status = ${status}
    ) x`);
  return { count: Number(row?.n ?? 0), firstAt: date(row?.first_at), lastAt: date(row?.last_at) };
}

/**
 * Dispatch lag over [since, until]: the 95th percentile (percentile_cont) of `started_at − greatest(due_at,
 * created_at)` in ms — a reminder planned after its due instant (a late booking inside the late-send window, the
 * demo seed's catch-up sends) cannot have been dispatched before it existed, so only the time WE took counts — over the
 * tenant's first attempts (attempt_no = 1) of deliveries of a reminder started in the window, and how many there
 * were. `p95Ms` null when none. Reads delivery_attempts by `delivery_attempts_tenant_started_idx`.
 */
export async function dispatchLagP95(db: DbOrTx, tenantId: string, since: Date, until: Date): Promise<{ p95Ms: number | null; samples: number }> {
  const [row] = await db.execute<{ p95: number | null; n: number }>(sql`
    select percentile_cont(0.95) within group (order by extract(epoch from (a.started_at - greatest(r.due_at, r.created_at))) * 1000)::float8 as p95,
           count(*)::int as n
    from delivery_attempts a
    join deliveries d on d.id = a.delivery_id and d.tenant_id = ${tenantId}
    join reminders r on r.id = d.reminder_id and r.tenant_id = ${tenantId}
    where a.tenant_id = ${tenantId} and a.attempt_no = 1
      and a.started_at >= ${at(since)} and a.started_at <= ${at(until)}`);
  const n = Number(row?.n ?? 0);
  return { p95Ms: n > 0 && row?.p95 != null ? Math.round(Number(row.p95)) : null, samples: n };
}

/** The oldest due instant among the tenant's reminders still `scheduled`/`dispatched`, due by `now` and not expired, and how many such there are. */
export async function oldestDueReminder(db: DbOrTx, tenantId: string, now: Date): Promise<{ oldestDueAt: Date | null; waiting: number }> {
  const [row] = await db.execute<{ oldest: string | null; n: number }>(sql`
    select min(due_at) as oldest, count(*)::int as n
    from reminders
    where tenant_id = ${tenantId} and status in ('scheduled', 'dispatched')
      and due_at <= ${at(now)} and expires_at > ${at(now)}`);
  return { oldestDueAt: date(row?.oldest), waiting: Number(row?.n ?? 0) };
}

/**
 * Per provider, the tenant's newest attempts since `since` that say something about credentials (outcome
 * `accepted` or `rejected`), newest first, at most `perProvider` each — what domain/alerts/provider-auth.ts providerAuthFailure
 * reads. One small index-ordered scan per provider (LATERAL … LIMIT).
 */
export async function decisiveAttempts(db: DbOrTx, tenantId: string, since: Date, perProvider = 20): Promise<DecisiveAttempt[]> {
  const rows = await db.execute<{ provider: string; outcome: string | null; error_code: string | null; error_message: string | null; provider_response: string | null; at: string }>(sql`
    select p.provider, x.outcome::text as outcome, x.error_code, x.error_message, x.provider_response, x.at
    from unnest(${sql.raw(`array[${providers.map((p) => `'${p}'`).join(',')}]`)}::text[]) as p(provider)
    cross join lateral (
      select a.outcome, a.error_code, a.error_message, a.provider_response, coalesce(a.ended_at, a.started_at) as at
      from delivery_attempts a
      join deliveries d on d.id = a.delivery_id and d.tenant_id = ${tenantId}
      where a.tenant_id = ${tenantId} and d.provider::text = p.provider
        and a.outcome in ('accepted', 'rejected') and a.started_at >= ${at(since)}
      order by a.started_at desc, a.attempt_no desc
      limit ${perProvider}
    ) x
    order by p.provider, x.at desc`);
  return rows.map((r) => ({
    provider: r.provider as Provider,
    outcome: r.outcome as OutcomeClass | null,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    providerResponse: r.provider_response,
    at: date(r.at)!,
  }));
}

// ---------------------------------------------------------------------------------------------- heartbeats

/** Records that worker `workerId` ran its minute sweep at `at` (inserting its row on the first sweep). */
export async function upsertHeartbeat(db: DbOrTx, w: { workerId: string; hostname: string; pid: number; startedAt: Date; at: Date }): Promise<void> {
  await db
    .insert(workerHeartbeats)
    .values({ workerId: w.workerId, hostname: w.hostname, pid: w.pid, startedAt: w.startedAt, lastSweepAt: w.at })
    .onConflictDoUpdate({ target: workerHeartbeats.workerId, set: { lastSweepAt: w.at } });
}

/** The newest sweep of any worker, or null when no worker ever recorded one. */
export async function latestHeartbeat(db: DbOrTx): Promise<Date | null> {
  const [row] = await db.execute<{ at: string | null }>(sql`select max(last_sweep_at) as at from worker_heartbeats`);
  return date(row?.at);
}

/** Removes the rows of workers silent since before `before` (stopped processes; the newest row always stays). */
export async function pruneHeartbeats(db: DbOrTx, before: Date): Promise<void> {
  await db.execute(sql`delete from worker_heartbeats where last_sweep_at < ${at(before)}
    and last_sweep_at < (select max(last_sweep_at) from worker_heartbeats)`);
}

/** Every worker's heartbeat row, newest sweep first (the alerts page). */
export async function listHeartbeats(db: DbOrTx, limit = 10) {
  return db.select().from(workerHeartbeats).orderBy(desc(workerHeartbeats.lastSweepAt)).limit(limit);
}

// ---------------------------------------------------------------------------------------------- messages

type NewAlertMessage = Pick<AlertMessage, 'tenantId' | 'condition' | 'episode' | 'transition' | 'route' | 'address' | 'messageKey' | 'subject' | 'body' | 'link'> & {
  createdAt: Date;
};

/** Plans one message (status `pending`). ON CONFLICT (message_key) DO NOTHING: returns its id, or null when that key was planned before. */
export async function insertAlertMessage(db: DbOrTx, m: NewAlertMessage): Promise<string | null> {
  const [row] = await db.insert(alertMessages).values(m).onConflictDoNothing({ target: alertMessages.messageKey }).returning({ id: alertMessages.id });
  return row?.id ?? null;
}

/** The start messages of one episode of a condition (who was told it started: the clear goes to them). */
export async function startMessagesOf(db: DbOrTx, tenantId: string, condition: AlertCondition, episode: number): Promise<AlertMessage[]> {
  return db
    .select()
    .from(alertMessages)
    .where(and(eq(alertMessages.tenantId, tenantId), eq(alertMessages.condition, condition), eq(alertMessages.episode, episode), eq(alertMessages.transition, 'started')))
    .orderBy(asc(alertMessages.messageKey));
}

/** One message by id (any tenant: the sender's task names it by id). */
export async function getAlertMessage(db: DbOrTx, id: string): Promise<AlertMessage | undefined> {
  const [row] = await db.select().from(alertMessages).where(eq(alertMessages.id, id));
  return row;
}

/**
 * Claims a message for one send attempt: `pending`, `retrying` whose next attempt is due, or `sending` whose
 * lease ran out (a sender that died) → `sending` with a lease until `leaseUntil`, attempts + 1. A guarded UPDATE:
 * of two processes only one gets the row. @returns the claimed row, or null.
 */
export async function claimAlertMessage(db: DbOrTx, id: string, now: Date, leaseUntil: Date): Promise<AlertMessage | null> {
  const [row] = await db
    .update(alertMessages)
    .set({ status: 'sending', attempts: sql`${alertMessages.attempts} + 1`, leaseExpiresAt: leaseUntil, nextAttemptAt: null })
    .where(
      and(
        eq(alertMessages.id, id),
        sql`(${alertMessages.status} = 'pending'
          or (${alertMessages.status} = 'retrying' and (${alertMessages.nextAttemptAt} is null or ${alertMessages.nextAttemptAt} <= ${at(now)}))
          or (${alertMessages.status} = 'sending' and ${alertMessages.leaseExpiresAt} <= ${at(now)}))`,
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * Records how the claimed attempt ended, only while the row is still this attempt's (`sending` with `attempts`
 * as claimed). @returns whether it was recorded.
 */
export async function finishAlertMessage(
  db: DbOrTx,
  id: string,
  attempts: number,
  r: { status: 'sent'; sentAt: Date } | { status: 'retrying'; nextAttemptAt: Date; lastError: string } | { status: 'failed'; lastError: string },
): Promise<boolean> {
  const rows = await db
    .update(alertMessages)
    .set({
      status: r.status,
      leaseExpiresAt: null,
      nextAttemptAt: r.status === 'retrying' ? r.nextAttemptAt : null,
      sentAt: r.status === 'sent' ? r.sentAt : null,
      ...(r.status === 'sent' ? { lastError: null } : { lastError: r.lastError.slice(0, 1000) }),
    })
    .where(and(eq(alertMessages.id, id), eq(alertMessages.status, 'sending'), eq(alertMessages.attempts, attempts)))
    .returning({ id: alertMessages.id });
  return rows.length > 0;
}

/** Ids of messages that a sender may take now (pending, a due retry, an expired lease), optionally of one condition, oldest first. */
export async function dueAlertMessageIds(db: DbOrTx, now: Date, opts: { condition?: AlertCondition; limit?: number } = {}): Promise<string[]> {
  const rows = await db
    .select({ id: alertMessages.id })
    .from(alertMessages)
    .where(
      and(
        opts.condition ? eq(alertMessages.condition, opts.condition) : undefined,
        sql`(${alertMessages.status} = 'pending'
          or (${alertMessages.status} = 'retrying' and ${alertMessages.nextAttemptAt} <= ${at(now)})
          or (${alertMessages.status} = 'sending' and ${alertMessages.leaseExpiresAt} <= ${at(now)}))`,
      ),
    )
    .orderBy(asc(alertMessages.createdAt))
    .limit(opts.limit ?? 50);
  return rows.map((r) => r.id);
}

/** The tenant's newest alert messages (the page). */
export async function listAlertMessages(db: DbOrTx, tenantId: string, limit = 30): Promise<AlertMessage[]> {
  return db.select().from(alertMessages).where(eq(alertMessages.tenantId, tenantId)).orderBy(desc(alertMessages.createdAt), asc(alertMessages.messageKey)).limit(limit);
}

/** The start messages of the tenant's active episodes (banner: who was told). */
export async function startMessagesOfActive(db: DbOrTx, tenantId: string): Promise<AlertMessage[]> {
  return db
    .select({ m: alertMessages })
    .from(alertMessages)
    .innerJoin(
      alertStates,
      and(
        eq(alertStates.tenantId, alertMessages.tenantId),
        eq(alertStates.condition, alertMessages.condition),
        eq(alertStates.episode, alertMessages.episode),
        eq(alertStates.active, true),
      ),
    )
    .where(and(eq(alertMessages.tenantId, tenantId), eq(alertMessages.transition, 'started')))
    .then((rows) => rows.map((r) => r.m));
}

/** The alert Slack URL of the tenant with this slug, or null (the demo's built-in receiver checks posts against it). */
export async function slackUrlOfTenant(db: DbOrTx, slug: string): Promise<string | null> {
  const [row] = await db.execute<{ url: string | null }>(sql`
    select s.slack_webhook_url as url from alert_settings s join tenants t on t.id = s.tenant_id where t.slug = ${slug}`);
  return row?.url ?? null;
}
