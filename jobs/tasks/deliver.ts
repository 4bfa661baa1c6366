/** Task `deliver` { deliveryId }: a retry or a resumed claim (server/sending/send-reminder.ts `deliver`). */
import type { Task } from 'graphile-worker';
import { taskPayloadSchemas } from '@/jobs/registry';
import { deliver } from '@/server/sending/send-reminder';
import type { WorkerContext } from '@/jobs/context';

export const deliverTask = (ctx: WorkerContext): Task => async (payload) => {
  const { deliveryId, slotAt } = taskPayloadSchemas.deliver.parse(payload);
  await deliver(ctx.sendDeps, deliveryId, slotAt ? new Date(slotAt) : undefined);
};
