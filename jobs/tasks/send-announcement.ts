/** Task `send_announcement` { announcementId }: claims one announcement at its send instant and plans its messages (server/messages/announcement-send.ts). Redelivery-safe. */
import type { Task } from 'graphile-worker';
import { taskPayloadSchemas } from '@/jobs/registry';
import { sendAnnouncement } from '@/server/messages/announcement-send';
import type { WorkerContext } from '@/jobs/context';

export const sendAnnouncementTask = (ctx: WorkerContext): Task => async (payload) => {
  const { announcementId } = taskPayloadSchemas.send_announcement.parse(payload);
  await sendAnnouncement(ctx.db, announcementId, ctx.clock.now());
};
