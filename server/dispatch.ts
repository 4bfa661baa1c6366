/**
 * The dispatcher: runs on every wake-up (a job at each due instant) and every minute (crontab sweep).
 * It expires what is past its window, claims what is due in bounded batches and hands each reminder to a
 * `send_reminder` job, then recovers work whose worker died (stale dispatches, expired delivery leases).
 */
import type { Db } from '../db/client';
import {
  claimDueReminders,
  expireOverdueReminders,
  recoverExpiredLeases,
  redispatchStale,
} from '../db/queries/dispatch';

export const SEND_TASK = 'send_reminder';
export const DELIVER_TASK = 'deliver';

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
}

export const defaultDispatchPolicy: DispatchPolicy = {
  batchSize: 200,
  maxBatches: 50,
  staleDispatchMs: 90_000,
  claimLeaseMs: 60_000,
};

export interface DispatchResult {
  expired: number;
  dispatched: number;
  redispatched: number;
  resumed: number;
  unknown: number;
}

/** One dispatcher run as of `now`. Each batch is its own transaction. */
export async function dispatchDue(db: Db, now: Date, policy: DispatchPolicy = defaultDispatchPolicy): Promise<DispatchResult> {
  const result: DispatchResult = { expired: 0, dispatched: 0, redispatched: 0, resumed: 0, unknown: 0 };
  for (let i = 0; i < policy.maxBatches; i++) {
    const n = await db.transaction((tx) => expireOverdueReminders(tx, now, policy.batchSize));
    result.expired += n;
    if (n < policy.batchSize) break;
  }
  for (let i = 0; i < policy.maxBatches; i++) {
    const n = await db.transaction((tx) => claimDueReminders(tx, now, policy.batchSize, SEND_TASK));
    result.dispatched += n;
    if (n < policy.batchSize) break;
  }
  await db.transaction(async (tx) => {
    result.redispatched = await redispatchStale(tx, now, policy.staleDispatchMs, SEND_TASK);
    const r = await recoverExpiredLeases(tx, now, policy.claimLeaseMs, DELIVER_TASK);
    result.resumed = r.resumed;
    result.unknown = r.unknown;
  });
  return result;
}
