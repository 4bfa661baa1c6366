/**
 * Task `send_test_message` { id, content? }: sends one "send a test message" request of the settings page, or the text
 * editor's "send a test to me" with its rendered draft as `content` (server/organisations/org-settings.ts sendTestMessage).
 */
import type { Task } from 'graphile-worker';
import { taskPayloadSchemas } from '@/jobs/registry';
import { sendTestMessage } from '@/server/organisations/org-settings';
import type { WorkerContext } from '@/jobs/context';

export const sendTestMessageTask = (ctx: WorkerContext): Task => async (payload) => {
  const { id, content } = taskPayloadSchemas.send_test_message.parse(payload);
  await sendTestMessage(ctx.db, id, { smtp: ctx.channel, ...ctx.sendDeps.channels }, () => ctx.clock.now(), { senderIdentity: ctx.sendDeps.senderIdentity, content });
};
