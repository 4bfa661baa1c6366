/** Task `send_alert` { id }: one attempt at one alert message (server/alerts/sender.ts sendAlertMessage). */
import type { Task } from 'graphile-worker';
import { taskPayloadSchemas } from '@/jobs/registry';
import { sendAlertMessage } from '@/server/alerts/sender';
import { alertRuntimeOf } from '@/jobs/alert-runtime';
import type { WorkerContext } from '@/jobs/context';

export const sendAlertTask = (ctx: WorkerContext): Task => async (payload) => {
  const { id } = taskPayloadSchemas.send_alert.parse(payload);
  // The worker is the sender of last resort: a message it has no channel for is recorded as failed, with why.
  await sendAlertMessage(ctx.db, id, alertRuntimeOf(ctx).senders, ctx.clock.now(), { missingChannel: 'fail' });
};
