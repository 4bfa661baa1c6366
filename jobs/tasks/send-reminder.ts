/** Task `send_reminder` { reminderId }: the send path for one reminder (server/sending/send-reminder.ts). */
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { sendReminder } from '@/server/sending/send-reminder';
import type { WorkerContext } from '@/jobs/context';

export const sendReminderPayloadSchema = z.object({ reminderId: z.uuid() });

export const sendReminderTask = (ctx: WorkerContext): Task => async (payload) => {
  const { reminderId } = sendReminderPayloadSchema.parse(payload);
  await sendReminder(ctx.sendDeps, reminderId);
};
