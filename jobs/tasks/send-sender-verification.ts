/** Task `send_sender_verification` { id, url }: mails one sender verification link (server/organisations/sender-identity.ts). */
import type { Task } from 'graphile-worker';
import { taskPayloadSchemas } from '@/jobs/registry';
import { sendSenderVerificationMail } from '@/server/organisations/sender-identity';
import { alertRuntimeOf } from '@/jobs/alert-runtime';
import type { WorkerContext } from '@/jobs/context';

export const sendSenderVerificationTask = (ctx: WorkerContext): Task => async (payload) => {
  const p = taskPayloadSchemas.send_sender_verification.parse(payload);
  // The tenant's own email provider (the channels password-reset mail uses); a transient outcome throws, and
  // graphile-worker tries again with backoff.
  await sendSenderVerificationMail(ctx.db, p, alertRuntimeOf(ctx).senders.email, ctx.clock.now(), ctx.sendDeps.senderIdentity);
};
