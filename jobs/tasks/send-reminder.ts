/** Task `send_reminder` { reminderId }: the send path for one reminder (server/sending/send-reminder.ts). */
import type { Task } from 'graphile-worker';
import { taskPayloadSchemas } from '@/jobs/registry';
import { sendReminder } from '@/server/sending/send-reminder';
import type { WorkerContext } from '@/jobs/context';

export const sendReminderTask = (ctx: WorkerContext): Task => async (payload) => {
  const { reminderId } = taskPayloadSchemas.send_reminder.parse(payload);
  await sendReminder(ctx.sendDeps, reminderId);
};
