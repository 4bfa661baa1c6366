/** Task `notify` { domainEventId }: plans the notifications of one domain event (server/notifications/notify.ts). Redelivery-safe. */
import type { Task } from 'graphile-worker';
import { taskPayloadSchemas } from '@/jobs/registry';
import { processDomainEvent } from '@/server/notifications/notify';
import type { WorkerContext } from '@/jobs/context';

export const notifyTask = (ctx: WorkerContext): Task => async (payload) => {
  const { domainEventId } = taskPayloadSchemas.notify.parse(payload);
  await processDomainEvent(ctx.db, domainEventId, ctx.clock.now());
};
