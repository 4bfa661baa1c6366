/**
 * Task `dispatch_due`: wake-up at a due instant (claims only) and the every-minute sweep (claims and recovers: stale
 * dispatches, expired leases, lost notify jobs). Payload (jobs/registry.ts) ignored except `_cron`.
 * The minute sweep also deletes idempotency keys past their lifetime (IDEMPOTENCY_KEY_TTL_HOURS), records this
 * worker's heartbeat and evaluates every tenant's alerts (issue #10 §6, server/alerts/evaluation.ts workerAlertSweep).
 */
import type { Task } from 'graphile-worker';
import { deleteExpiredIdempotencyKeys } from '@/db/queries/platform/idempotency';
import { IDEMPOTENCY_KEY_TTL_HOURS } from '@/domain/platform/idempotency';
import { workerAlertSweep } from '@/server/alerts/evaluation';
import { dispatchDue } from '@/server/sending/dispatch';
import { alertRuntimeOf } from '@/jobs/alert-runtime';
import { taskPayloadSchemas } from '@/jobs/registry';
import type { WorkerContext } from '@/jobs/context';

export const dispatchDueTask = (ctx: WorkerContext): Task => async (payload, helpers) => {
  const { _cron } = taskPayloadSchemas.dispatch_due.parse(payload ?? {});
  // A wake-up only claims; the minute sweep (and the worker's start) also recovers lost work.
  const r = await dispatchDue(ctx.db, ctx.clock.now(), ctx.policy, { claimOnly: _cron === undefined });
  if (r.dispatched || r.expired || r.unknown || r.resumed || r.redispatched) {
    helpers.logger.info(`dispatch: ${JSON.stringify(r)}`);
  }
  if (_cron !== undefined) {
    await deleteExpiredIdempotencyKeys(ctx.db, IDEMPOTENCY_KEY_TTL_HOURS);
    const a = await workerAlertSweep(ctx.db, alertRuntimeOf(ctx), ctx.clock.now());
    if (a.planned.length) helpers.logger.info(`alerts: planned ${a.planned.length} message(s)`);
  }
};
