/**
 * The alert runtime of a worker process (issue #10 §6): its heartbeat identity and the senders of alert messages.
 * startWorker makes one; a context without one (tests' harness) gets one built from its send dependencies.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { createSlackPoster } from '@/channels/slack';
import { alertPublicUrl } from '@/server/alerts/evaluation';
import type { AlertSenders } from '@/server/alerts/sender';
import { webhookUrlPolicy } from '@/server/notifications/notification-settings';
import type { AlertRuntime, WorkerContext } from './context';

/** A worker id: `hostname:pid:random` (random: a restarted process that got the same pid is another worker). */
function newWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** A runtime for a process: a new worker id, started at `startedAt`, with these senders. */
export function makeAlertRuntime(senders: AlertSenders, startedAt: Date, publicUrl?: string): AlertRuntime {
  return { workerId: newWorkerId(), hostname: os.hostname(), pid: process.pid, startedAt, senders, publicUrl };
}

const fallback = new WeakMap<WorkerContext, AlertRuntime>();

/**
 * The context's alert runtime; when it has none, one made once per context from its send dependencies (email
 * channels by provider, the SMTP channel as `smtp`) and a Slack poster with the process's webhook URL policy
 * (server/notifications/notification-settings.ts webhookUrlPolicy: http:// only with PUNCTUAL_WEBHOOK_ALLOW_HTTP=true, a non-public
 * host only when PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS names its origin).
 */
export function alertRuntimeOf(ctx: WorkerContext): AlertRuntime {
  if (ctx.alerts) return ctx.alerts;
  let r = fallback.get(ctx);
  if (!r) {
    const senders: AlertSenders = {
      email: { smtp: ctx.sendDeps.channel, ...ctx.sendDeps.channels },
      slack: createSlackPoster(webhookUrlPolicy()),
      random: ctx.sendDeps.random,
      senderIdentity: ctx.sendDeps.senderIdentity,
    };
    r = makeAlertRuntime(senders, ctx.clock.now(), ctx.sendDeps.links?.publicUrl ?? alertPublicUrl());
    fallback.set(ctx, r);
  }
  return r;
}
