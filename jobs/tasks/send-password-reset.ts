/** Task `send_password_reset` { userId, url }: mails one password reset link (server/accounts/password-links.ts). */
import type { Task } from 'graphile-worker';
import { taskPayloadSchemas } from '@/jobs/registry';
import { sendPasswordResetMail } from '@/server/accounts/password-links';
import { alertRuntimeOf } from '@/jobs/alert-runtime';
import type { WorkerContext } from '@/jobs/context';

export const sendPasswordResetTask = (ctx: WorkerContext): Task => async (payload) => {
  const p = taskPayloadSchemas.send_password_reset.parse(payload);
  // The same email channels as alert emails (the tenant's own provider); a transient outcome throws, and
  // graphile-worker tries again with backoff.
  await sendPasswordResetMail(ctx.db, p, alertRuntimeOf(ctx).senders.email, ctx.clock.now(), ctx.sendDeps.senderIdentity);
};
