/** Task `deliver` { deliveryId }: a retry or a resumed claim (server/sending/send-reminder.ts `deliver`). */
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { deliver } from '@/server/sending/send-reminder';
import type { WorkerContext } from '@/jobs/context';

/** `slotAt`: a send slot already reserved under the provider's rate limit (ISO instant). */
export const deliverPayloadSchema = z.object({ deliveryId: z.uuid(), slotAt: z.iso.datetime().optional() });

export const deliverTask = (ctx: WorkerContext): Task => async (payload) => {
  const { deliveryId, slotAt } = deliverPayloadSchema.parse(payload);
  await deliver(ctx.sendDeps, deliveryId, slotAt ? new Date(slotAt) : undefined);
};
