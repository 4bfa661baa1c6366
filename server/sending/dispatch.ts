/**
 * The dispatcher: runs on every wake-up (a job at each due instant) and every minute (crontab sweep).
 * It expires what is past its window, claims what is due in bounded batches and hands the reminders to send jobs —
 * batches of one tenant and channel (`send_reminders`, server/sending/send-batch.ts) or one `send_reminder` job each —, then recovers work whose worker died (stale dispatches, expired delivery leases).
 */
import type { Db, Tx } from '@/db/client';
import {
  claimDueReminderRows,
  claimDueReminders,
  enqueueSendBatches,
  type ClaimCursor,
  expireOverdueReminders,
  recoverExpiredLeases,
  rearmWakeUp,
  redispatchStale,
} from '@/db/queries/sending/dispatch';
import { unprocessedDomainEvents } from '@/db/queries/scheduling/domain-events';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { lockDelivery } from '@/db/queries/sending/delivery';
import { adoptUnmatchedReports } from '@/server/reports/reports';
import { TASK } from '@/jobs/registry';
import { formSendBatches } from '@/domain/sending/send-batches';

/** A domain event still unprocessed this long after it was recorded lost its notify job: the sweep re-adds it (ms). */
const LOST_NOTIFY_MS = 60_000;

/** A run that finds nothing due re-arms for reminders due (by the database) within this many ms of `now`. */
const REARM_HORIZON_MS = 60_000;

/** The smallest send batch a claim is cut into for the sake of spreading it over task slots. */
const MIN_SPREAD_BATCH = 4;

/** Timing policy of dispatch and recovery (ms). */
export interface DispatchPolicy {
  /** Reminders claimed per transaction. */
  batchSize: number;
  /** Upper bound of batches per run (the cron sweep picks up the rest a minute later). */
  maxBatches: number;
  /** A `dispatched` reminder without progress for this long is re-dispatched. */
  staleDispatchMs: number;
  /** Lease of a `claimed` delivery before recovery resumes it. */
  claimLeaseMs: number;
  /**
   * Largest send batch (domain/sending/send-batches.ts): the reminders of one claim go out as `send_reminders` jobs of
   * one tenant and channel, up to this many each (server/sending/send-batch.ts); a batch of one is a `send_reminder`
   * job. Unset or 1: one `send_reminder` job per reminder.
   */
  sendBatchMax?: number;
  /**
   * Send batches the reminders of one tenant and channel in one claim may be spread over (each keeping at least
   * {@link MIN_SPREAD_BATCH} members; domain/sending/send-batches.ts): about the task slots that should share them
   * (the worker sets its concurrency). Default 10.
   */
  sendBatchSpread?: number;
  /** Told the duration (s, monotonic clock) and size of each claim batch (metrics, server/dashboards/metrics.ts). */
  onClaimBatch?: (seconds: number, claimed: number) => void;
}

export const defaultDispatchPolicy: DispatchPolicy = {
  batchSize: 200,
  maxBatches: 50,
  staleDispatchMs: 90_000,
  claimLeaseMs: 60_000,
  sendBatchMax: 50,
};

/**
 * One claim of the dispatcher, in the caller's transaction: up to `limit` due reminders (due order, after `cursor`,
 * SKIP LOCKED) move to `dispatched` and their send jobs are added — with `policy.sendBatchMax` > 1 as send batches of
 * one tenant and channel (domain/sending/send-batches.ts, one `send_reminders` job each), else one `send_reminder` job
 * per reminder. The claim and its jobs commit together. Exported for the scale benchmark (bench/scale.ts), which
 * times exactly what a dispatcher run does per claim.
 * @returns how many were claimed and where the claim ended (the cursor for the next one; null when none).
 */
export async function claimDue(
  tx: Tx,
  now: Date,
  policy: Pick<DispatchPolicy, 'sendBatchMax' | 'sendBatchSpread'>,
  limit: number,
  cursor: ClaimCursor | null,
): Promise<{ claimed: number; last: ClaimCursor | null }> {
  if (!policy.sendBatchMax || policy.sendBatchMax <= 1) return claimDueReminders(tx, now, limit, cursor);
  // Batches of one tenant and channel (the batch send path); the claim and its jobs commit together.
  const rows = await claimDueReminderRows(tx, now, limit, cursor);
  await enqueueSendBatches(tx, formSendBatches(rows, { max: policy.sendBatchMax, spread: policy.sendBatchSpread ?? 10, minSize: MIN_SPREAD_BATCH }));
  const last = rows.at(-1);
  return { claimed: rows.length, last: last ? { dueAt: last.dueAt, id: last.id } : null };
}

interface DispatchResult {
  expired: number;
  dispatched: number;
  redispatched: number;
  resumed: number;
  unknown: number;
  /** When nothing was due by `now` but the database says something is: the re-armed wake-up's run_at. */
  rearmedAt: Date | null;
  /** Domain events whose notify job was re-added (it was lost, or keeps failing). */
  renotified: number;
}

/**
 * One dispatcher run as of `now` (a UTC instant on the database's clock, server/platform/clock.ts). Each batch is its
 * own transaction. When it dispatched nothing, it re-arms a wake-up for a reminder the database already
 * considers due (db/queries/sending/dispatch.ts `rearmWakeUp`).
 * `opts.claimOnly` (a wake-up at a due instant): expire and claim only; the recovery scans (stale dispatches, expired
 * leases, lost notify jobs) are left to the sweeps (every minute, at worker start, and PUNCTUAL_SWEEP_INTERVAL_MS),
 * so a burst of wake-ups does not repeat them for every due instant.
 */
export async function dispatchDue(db: Db, now: Date, policy: DispatchPolicy = defaultDispatchPolicy, opts: { claimOnly?: boolean } = {}): Promise<DispatchResult> {
  const result: DispatchResult = { expired: 0, dispatched: 0, redispatched: 0, resumed: 0, unknown: 0, rearmedAt: null, renotified: 0 };
  for (let i = 0; i < policy.maxBatches; i++) {
    const n = await db.transaction((tx) => expireOverdueReminders(tx, now, policy.batchSize));
    result.expired += n;
    if (n < policy.batchSize) break;
  }
  // Each batch continues after the previous one's last (due_at, id): see claimDueReminders.
  let cursor: ClaimCursor | null = null;
  for (let i = 0; i < policy.maxBatches; i++) {
    const t0 = performance.now();
    const batch = await db.transaction((tx) => claimDue(tx, now, policy, policy.batchSize, cursor));
    const n = batch.claimed;
    cursor = batch.last ?? cursor;
    policy.onClaimBatch?.((performance.now() - t0) / 1000, n);
    result.dispatched += n;
    if (n < policy.batchSize) break;
  }
  if (!opts.claimOnly) await db.transaction(async (tx) => {
    result.redispatched = await redispatchStale(tx, now, policy.staleDispatchMs);
    const r = await recoverExpiredLeases(tx, now, policy.claimLeaseMs);
    result.resumed = r.resumed;
    result.unknown = r.unknown;
    // A delivery report that arrived while the lost attempt was `sending` waited for its outcome (server/reports/reports.ts):
    // the outcome is now `unknown`, and a report about the message proves it went out — settle those reports.
    for (const id of r.unknownIds) {
      const d = await lockDelivery(tx, id);
      if (d) await adoptUnmatchedReports(tx, d, now);
    }
    // The outbox's safety net: a domain event nobody processed (its job was lost) gets its job again; the job
    // key makes this a no-op while the job still waits.
    const lost = await unprocessedDomainEvents(tx, new Date(now.getTime() - LOST_NOTIFY_MS), 200);
    for (const e of lost) await enqueueJob(tx, TASK.notify, { domainEventId: e.id }, { jobKey: `notify:${e.id}`, jobKeyMode: 'preserve_run_at', maxAttempts: 25 });
    result.renotified = lost.length;
  });
  // `now` should be the database's clock already (server/platform/clock.ts); if it is not, a wake-up that arrived
  // "too early" by `now` must not leave its reminder to the minute sweep.
  if (result.dispatched === 0) result.rearmedAt = await rearmWakeUp(db, now, REARM_HORIZON_MS);
  return result;
}
