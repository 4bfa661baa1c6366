/** Task `send_reminders` { reminderIds }: the batch send path for one send batch (server/sending/send-batch.ts). */
import type { Task } from 'graphile-worker';
import { taskPayloadSchemas } from '@/jobs/registry';
import { sendReminderBatch } from '@/server/sending/send-batch';
import type { WorkerContext } from '@/jobs/context';

export const sendRemindersTask = (ctx: WorkerContext): Task => async (payload) => {
  const { reminderIds } = taskPayloadSchemas.send_reminders.parse(payload);
  await sendReminderBatch(ctx.sendDeps, reminderIds);
};
