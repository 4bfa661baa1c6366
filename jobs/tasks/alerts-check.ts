/**
 * Task `alerts_check` {} or { tenantId }: evaluates alerts now, outside the minute sweep — enqueued (job key
 * `alerts_check`) when a provider refuses our credentials (server/sending/send-attempt.ts), so that alert goes out
 * within a minute. The messages it plans are sent by their own `send_alert` jobs.
 */
import type { Task } from 'graphile-worker';
import { taskPayloadSchemas } from '@/jobs/registry';
import { evaluateAlerts } from '@/server/alerts/evaluation';
import { alertRuntimeOf } from '@/jobs/alert-runtime';
import type { WorkerContext } from '@/jobs/context';

export const alertsCheckTask = (ctx: WorkerContext): Task => async (payload) => {
  const { tenantId } = taskPayloadSchemas.alerts_check.parse(payload ?? {});
  await evaluateAlerts(ctx.db, ctx.clock.now(), { tenantId, publicUrl: alertRuntimeOf(ctx).publicUrl });
};
