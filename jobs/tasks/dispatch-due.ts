/** Task `dispatch_due`: wake-up at a due instant and the every-minute sweep. Payload ignored except `_cron`. */
import type { Task } from 'graphile-worker';
import { dispatchDue } from '../../server/dispatch';
import type { WorkerContext } from '../context';

export const dispatchDueTask = (ctx: WorkerContext): Task => async (_payload, helpers) => {
  const r = await dispatchDue(ctx.db, ctx.clock.now(), ctx.policy);
  if (r.dispatched || r.expired || r.unknown || r.resumed || r.redispatched) {
    helpers.logger.info(`dispatch: ${JSON.stringify(r)}`);
  }
};
