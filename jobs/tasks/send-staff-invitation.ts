/** Task `send_staff_invitation` { invitationId, url }: mails one staff invitation (server/accounts/staff-invitations.ts). */
import type { Task } from 'graphile-worker';
import { taskPayloadSchemas } from '@/jobs/registry';
import { sendStaffInvitationMail } from '@/server/accounts/staff-invitations';
import { alertRuntimeOf } from '@/jobs/alert-runtime';
import type { WorkerContext } from '@/jobs/context';

export const sendStaffInvitationTask = (ctx: WorkerContext): Task => async (payload) => {
  const p = taskPayloadSchemas.send_staff_invitation.parse(payload);
  // The inviting tenant's own email provider (as password reset mail); a transient outcome throws and is retried.
  await sendStaffInvitationMail(ctx.db, p, alertRuntimeOf(ctx).senders.email, ctx.clock.now(), ctx.sendDeps.senderIdentity);
};
