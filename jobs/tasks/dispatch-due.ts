/**
 * Task `dispatch_due`: wake-up at a due instant and the every-minute sweep. Payload ignored except `_cron`.
 * The minute sweep also deletes idempotency keys past their lifetime (IDEMPOTENCY_KEY_TTL_HOURS).
 */
import type { Task } from 'graphile-worker';
import { deleteExpiredIdempotencyKeys } from '../../db/queries/idempotency';
import { IDEMPOTENCY_KEY_TTL_HOURS } from '../../domain/idempotency';
import { dispatchDue } from '../../server/dispatch';
import type { WorkerContext } from '../context';

export const dispatchDueTask = (ctx: WorkerContext): Task => async (payload, helpers) => {
  const r = await dispatchDue(ctx.db, ctx.clock.now(), ctx.policy);
  if (r.dispatched || r.expired || r.unknown || r.resumed || r.redispatched) {
    helpers.logger.info(`dispatch: ${JSON.stringify(r)}`);
  }
  if (payload && typeof payload === 'object' && '_cron' in payload) await deleteExpiredIdempotencyKeys(ctx.db, IDEMPOTENCY_KEY_TTL_HOURS);
};
