/**
 * The worker process: graphile-worker with Punctual's task registry and crontab. Any number of these may
 * run against one database (graphile-worker coordinates with SKIP LOCKED; message-key claims keep sends
 * duplicate-free).
 *
 * Timeliness: a wake-up job sits at each due instant; with `pollInterval` 500 ms an idle worker picks it up
 * within ~0.5 s, and the send jobs it adds are announced by NOTIFY and start at once. The crontab sweep
 * (every minute) catches whatever a wake-up missed, e.g. after downtime.
 */
import { run, type Runner, type TaskList } from 'graphile-worker';
import { createSmtpChannel } from '../channels/smtp';
import type { EmailChannel } from '../channels/types';
import { createDb } from '../db/client';
import { previewData, renderReminderEmail } from '../emails';
import { quietLogger } from '../db/migrate';
import { processClock, type Clock } from '../server/clock';
import { DELIVER_TASK, dispatchDue, SEND_TASK } from '../server/dispatch';
import { DISPATCH_TASK } from '../server/scheduling';
import type { WorkerContext } from './context';
import { deliverTask } from './tasks/deliver';
import { dispatchDueTask } from './tasks/dispatch-due';
import { sendReminderTask } from './tasks/send-reminder';

export interface WorkerOptions {
  databaseUrl: string;
  /** SMTP URL (see channels/smtp.ts); or pass `channel`. */
  smtpUrl?: string;
  channel?: EmailChannel;
  clock?: Clock;
  /** Jobs run at once by this process (default 10). */
  concurrency?: number;
  /** ms between polls for future jobs (default 500). */
  pollIntervalMs?: number;
  /** Leases (ms); shortened by tests. */
  sendLeaseMs?: number;
  claimLeaseMs?: number;
  /** Whether graphile-worker installs its own SIGINT/SIGTERM handlers (default false: callers own shutdown). */
  handleSignals?: boolean;
}

export interface RunningWorker {
  runner: Runner;
  /** Stops taking jobs, waits for in-flight jobs (sends) to finish, closes connections. */
  stop(): Promise<void>;
}

/** The task registry: task id → handler. */
export function taskList(ctx: WorkerContext): TaskList {
  return {
    [DISPATCH_TASK]: dispatchDueTask(ctx),
    [SEND_TASK]: sendReminderTask(ctx),
    [DELIVER_TASK]: deliverTask(ctx),
  };
}

/** Starts a worker. Runs one dispatcher pass at once, so overdue work after downtime does not wait for the minute. */
export async function startWorker(opts: WorkerOptions): Promise<RunningWorker> {
  const handle = createDb(opts.databaseUrl, { max: (opts.concurrency ?? 10) + 2 });
  const channel = opts.channel ?? createSmtpChannel({ url: opts.smtpUrl ?? 'smtp://127.0.0.1:25' });
  const clock = opts.clock ?? processClock();
  const ctx: WorkerContext = {
    db: handle.db,
    channel,
    clock,
    sendDeps: { db: handle.db, channel, clock, sendLeaseMs: opts.sendLeaseMs, claimLeaseMs: opts.claimLeaseMs },
  };
  // Warm the renderer (module loading, JIT): the first render costs ~10× a later one, and the first due
  // reminder after start should not pay for it.
  await renderReminderEmail('attendee-reminder', previewData['attendee-reminder']).catch(() => {});
  await dispatchDue(handle.db, clock.now());
  const runner = await run({
    connectionString: opts.databaseUrl,
    concurrency: opts.concurrency ?? 10,
    pollInterval: opts.pollIntervalMs ?? 500,
    noHandleSignals: !opts.handleSignals,
    taskList: taskList(ctx),
    crontab: `* * * * * ${DISPATCH_TASK} ?max=1`,
    logger: quietLogger(),
    maxPoolSize: (opts.concurrency ?? 10) + 2,
  });
  let stopped = false;
  return {
    runner,
    async stop() {
      if (stopped) return;
      stopped = true;
      await runner.stop();
      await channel.close();
      await handle.close();
    },
  };
}
