/** Task `deliver` { deliveryId }: a retry or a resumed claim (server/send-reminder.ts `deliver`). */
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { deliver } from '../../server/send-reminder';
import type { WorkerContext } from '../context';

export const deliverPayloadSchema = z.object({ deliveryId: z.uuid() });

export const deliverTask = (ctx: WorkerContext): Task => async (payload) => {
  const { deliveryId } = deliverPayloadSchema.parse(payload);
  await deliver(ctx.sendDeps, deliveryId);
};
