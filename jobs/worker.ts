/**
 * The worker process: graphile-worker with Punctual's task registry and crontab. Any number of these may
 * run against one database (graphile-worker coordinates with SKIP LOCKED; message-key claims keep sends
 * duplicate-free).
 *
 * Timeliness without busy polling: jobs added for now are announced by NOTIFY (`jobs:insert`) and start at once;
 * jobs whose run_at lies ahead (a wake-up at each due instant, retries) are started by ONE in-process timer armed
 * at the next run_at (jobs/wake-timer.ts: it reads the queue when a NOTIFY arrives, when a job of ours fails, and at
 * least every WORKER_POLL_INTERVAL_MS — default 2 s —, and nudges idle task slots whenever it finds jobs runnable),
 * so an idle worker meets due → provider call p50 ≤ 100 ms / p99 ≤ 300 ms without polling for it. graphile-worker's
 * own poll is only the last safety net, and it runs PER TASK SLOT (0.18 without a local queue: every idle slot runs
 * one `get_jobs` per `pollInterval`): with the former 100 ms an idle worker at concurrency 10 made 100 fetches a
 * second (not the 10 this comment used to claim). Its `pollInterval` is now the timer's interval × concurrency
 * ({@link slotPollIntervalMs}, 2 s × 10 = 20 s, at most 60 s), so the slots together fetch about once per
 * interval, like the timer: an idle worker makes ≈ 1 query a second. The crontab sweep (every minute) catches
 * whatever a wake-up missed, e.g. after downtime, and recovers expired leases; `sweepIntervalMs` adds a faster
 * in-process sweep.
 *
 * Queue throughput (issue #11): batched job completion and failure (`completeJobBatchDelay`/`failJobBatchDelay` {@link JOB_BATCH_DELAY_MS}: the
 * completions of one short window go in one statement). graphile-worker's local queue (one `get_jobs` locks up
 * to `localQueueSize` jobs) is OFF by default (WORKER_LOCAL_QUEUE_SIZE=1): in 0.18.0 a graceful stop with jobs
 * waiting in it fails ("Cannot background something when the queue is already released", localQueue.js
 * setModeReleased → returnJobs), so those jobs stay locked as if the worker had been killed, and a deploy would
 * delay them by PUNCTUAL_STALE_DISPATCH_MS; and the quick drain benchmark showed no clear gain from it (2 workers ×
 * 10: 84 vs 76 msg/s null sink, 56 vs 60 catcher — within noise). Jobs held in the local queue of a worker that dies
 * stay locked (graphile-worker frees them after 4 h), as a running job of a dead worker always did: the
 * dispatcher's recovery re-adds their work (stale dispatches after PUNCTUAL_STALE_DISPATCH_MS, expired leases),
 * and the message-key claim keeps it duplicate-free. A completion still in its batch window when the worker dies
 * leaves a job that runs again; every task is redelivery-safe.
 *
 * Connections per worker, bounded whatever the concurrency: the postgres.js pool for our queries holds
 * min(concurrency, 10) + 2 (a send holds one only for its two short transactions, not during the provider call;
 * more than ten at once only queue for a connection), and graphile-worker's `pg` pool {@link QUEUE_POOL_SIZE}
 * (its LISTEN connection, job fetches, batched completions, cron). Four workers at concurrency 50:
 * 4 × (12 + 12) = 96 connections (before issue #11: 4 × 2 × 52 = 416).
 */
import { createSendWindow } from '@/server/sending/send-window';
import { EventEmitter } from 'node:events';
import { run, type Runner, type Task, type TaskList, type WorkerEvents, type WorkerPool } from 'graphile-worker';
import pg from 'pg';
import { createHttpEmailChannel } from '@/channels/http-email';
import { createSmsChannel } from '@/channels/sms';
import { createSmtpChannel } from '@/channels/smtp';
import { createWebhookChannel } from '@/channels/webhook';
import type { EmailChannel } from '@/channels/types';
import { createDb } from '@/db/client';
import { pgPoolConfig } from '@/db/url';
import { quietLogger } from '@/db/migrate';
import type { EmailProvider } from '@/domain/vocabulary';
import { previewData, renderReminderEmail } from '@/emails';
import { databaseClock, type Clock } from '@/server/platform/clock';
import { readWorkerConfig, type WorkerConfig } from '@/server/platform/config';
import { defaultDispatchPolicy, dispatchDue, type DispatchPolicy } from '@/server/sending/dispatch';
import { TASK, type TaskId } from '@/jobs/registry';
import type { WorkerContext } from './context';
import { deliverTask } from '@/jobs/tasks/deliver';
import { dispatchDueTask } from '@/jobs/tasks/dispatch-due';
import { sendReminderTask } from '@/jobs/tasks/send-reminder';
import { sendRemindersTask } from '@/jobs/tasks/send-reminders';
import { notifyTask } from '@/jobs/tasks/notify';
import { createSlackPoster } from '@/channels/slack';
import { workerAlertSweep } from '@/server/alerts/evaluation';
import { makeAlertRuntime } from './alert-runtime';
import { alertsCheckTask } from '@/jobs/tasks/alerts-check';
import { startWakeTimer, type WakeTimer } from './wake-timer';
import { sendAlertTask } from '@/jobs/tasks/send-alert';
import { sendPasswordResetTask } from '@/jobs/tasks/send-password-reset';
import { sendStaffInvitationTask } from '@/jobs/tasks/send-staff-invitation';
import { sendTestMessageTask } from '@/jobs/tasks/send-test-message';
import { sendSenderVerificationTask } from '@/jobs/tasks/send-sender-verification';
import { sendAnnouncementTask } from '@/jobs/tasks/send-announcement';
import { childLogger, errField } from '@/server/platform/log';
import { createWorkerMetrics, publishWorkerMetrics } from '@/server/dashboards/metrics';

interface WorkerOptions {
  databaseUrl: string;
  /** Settings (default: read from the environment, server/platform/config.ts); fields given here win. */
  config?: Partial<WorkerConfig>;
  /** A ready channel for SMTP (tests); otherwise built from `config.smtpUrl`. */
  channel?: EmailChannel;
  /** Default: the database's clock (server/platform/clock.ts `databaseClock`, invariant 10); tests pass their own. */
  clock?: Clock;
  /**
   * The longest the wake timer sleeps without re-reading the queue (ms; default: config `pollIntervalMs`,
   * WORKER_POLL_INTERVAL_MS, 2000); graphile-worker's per-slot poll is derived from it ({@link slotPollIntervalMs}).
   * Jobs due in the future start at their run_at by the wake timer whatever this is (module doc).
   */
  pollIntervalMs?: number;
  /** Whether graphile-worker installs its own SIGINT/SIGTERM handlers (default false: callers own shutdown). */
  handleSignals?: boolean;
}

export interface RunningWorker {
  /** The graphile-worker runner now (a runner that ends by itself is replaced: see startWorker). */
  readonly runner: Runner;
  /** Stops taking jobs, waits for in-flight jobs (sends) to finish, closes connections. */
  stop(): Promise<void>;
}

/**
 * graphile-worker's own `pg` pool per worker: LISTEN (held), job fetches (one per free task slot without a local
 * queue), batched completions and failures, cron. At least the default concurrency (10) plus LISTEN and one spare,
 * or graphile-worker warns and task slots wait for a connection. (With a local queue, 4 starved it: idle lag 7 s.)
 */
const QUEUE_POOL_SIZE = 12;
/** Window (ms) over which job completions (and failures) are gathered into one statement. */
const JOB_BATCH_DELAY_MS = 10;
/** Backoff (ms) before replacing a runner that ended by itself: first wait, and the longest. */
const RUNNER_RESTART_BASE_MS = 1_000;
const RUNNER_RESTART_MAX_MS = 30_000;

/**
 * graphile-worker's poll interval per task slot (ms) for a worker whose wake timer re-reads the queue every
 * `intervalMs` with `concurrency` slots: intervalMs × concurrency, within [intervalMs, 60 000], so the idle slots
 * together fetch about once per `intervalMs` (module doc). A slot whose fetch failed also waits this long — unless
 * the wake timer finds work and nudges it first.
 */
export function slotPollIntervalMs(intervalMs: number, concurrency: number): number {
  return Math.max(intervalMs, Math.min(60_000, intervalMs * concurrency));
}

/** The postgres.js pool size of a worker with `concurrency` tasks (see the module doc). */
function queryPoolSize(concurrency: number): number {
  return Math.min(concurrency, 10) + 2;
}

/**
 * The handler of every task in the registry (jobs/registry.ts), by task id: exactly the registry's ids (a
 * missing or unknown one does not compile; test/unit/job-registry.test.ts checks it at run time too).
 */
export const taskHandlers = {
  [TASK.dispatchDue]: dispatchDueTask,
  [TASK.sendReminder]: sendReminderTask,
  [TASK.sendReminders]: sendRemindersTask,
  [TASK.deliver]: deliverTask,
  [TASK.notify]: notifyTask,
  [TASK.sendAlert]: sendAlertTask,
  [TASK.alertsCheck]: alertsCheckTask,
  [TASK.sendPasswordReset]: sendPasswordResetTask,
  [TASK.sendStaffInvitation]: sendStaffInvitationTask,
  [TASK.sendTestMessage]: sendTestMessageTask,
  [TASK.sendSenderVerification]: sendSenderVerificationTask,
  [TASK.sendAnnouncement]: sendAnnouncementTask,
} satisfies Record<TaskId, (ctx: WorkerContext) => Task>;

/** graphile-worker's task list: task id → handler bound to this worker's context. */
export function taskList(ctx: WorkerContext): TaskList {
  return Object.fromEntries(Object.entries(taskHandlers).map(([id, handler]) => [id, handler(ctx)]));
}

/**
 * Starts a worker. Runs one dispatcher pass at once, so overdue work after downtime does not wait for the minute.
 * @throws Error naming the setting when the configuration is invalid.
 */
export async function startWorker(opts: WorkerOptions): Promise<RunningWorker> {
  const config: WorkerConfig = { ...readWorkerConfig(), ...opts.config } as WorkerConfig;
  let log = childLogger({ role: 'worker' });
  // Named prepared statements (db/client.ts), unless PUNCTUAL_DB_PREPARE=false: behind a transaction-mode pooler
  // (PgBouncer, a managed "pooler" endpoint) named statements do not survive between transactions.
  const handle = createDb(opts.databaseUrl, { max: queryPoolSize(config.concurrency), prepareAll: process.env.PUNCTUAL_DB_PREPARE !== 'false' });
  const smtpUrl = config.smtpUrl ?? 'smtp://127.0.0.1:25';
  // One pooled SMTP connection per concurrent send, up to 10, unless SMTP_URL says `?pool=N` (channels/smtp.ts).
  const smtpPool = new URL(smtpUrl).searchParams.has('pool') ? {} : { maxConnections: Math.min(config.concurrency, 10) };
  const channel = opts.channel ?? createSmtpChannel({ url: smtpUrl, ...smtpPool });
  const channels: Partial<Record<EmailProvider, EmailChannel>> = { smtp: channel };
  if (config.httpApi) channels.http_api = createHttpEmailChannel(config.httpApi);
  const sms = config.sms ? createSmsChannel(config.sms) : undefined;
  const webhook = createWebhookChannel({ allowHttp: config.webhookAllowHttp, allowedOrigins: config.webhookAllowedOrigins ?? [] });
  // The database decides due-ness, leases and expiry (invariant 10): graphile-worker runs a wake-up when
  // PostgreSQL's now() reaches its run_at, and the dispatcher must then agree that the reminder is due.
  const ownClock = opts.clock ? undefined : databaseClock(handle.db, { onError: (e) => log.error({ err: e }, 'database clock sample failed') });
  const clock: Clock = opts.clock ?? ownClock!;
  await ownClock?.ready;
  const policy: DispatchPolicy = { ...defaultDispatchPolicy, claimLeaseMs: config.claimLeaseMs, staleDispatchMs: config.staleDispatchMs, sendBatchMax: config.sendBatchMax, sendBatchSpread: config.concurrency };
  const ctx: WorkerContext = {
    db: handle.db,
    channel,
    clock,
    policy,
    sendDeps: {
      db: handle.db,
      channel,
      channels,
      clock,
      sms,
      webhook,
      smsFrom: config.smsFrom,
      smsStatusCallbackUrl: config.smsStatusCallbackUrl,
      links: config.links,
      bounceKey: config.bounceKey,
      senderIdentity: config.senderIdentity,
      rateLimits: config.rateLimits,
      retryPolicies: config.retryPolicies,
      sendLeaseMs: config.sendLeaseMs,
      claimLeaseMs: config.claimLeaseMs,
      // As many deliveries in `sending` awaiting their provider as the worker has task slots: what a kill can leave
      // `unknown` is what the single path left, however large the send batches.
      sendWindow: createSendWindow(config.concurrency),
    },
    // Alerts (issue #10 §6): this process's heartbeat identity (hostname:pid:random) and alert senders — the same
    // email channels as reminders, and a Slack poster under the webhook rules (https and public hosts only, unless
    // PUNCTUAL_WEBHOOK_ALLOW_HTTP).
    alerts: makeAlertRuntime({ email: channels, slack: createSlackPoster({ allowHttp: config.webhookAllowHttp, allowedOrigins: config.webhookAllowedOrigins ?? [] }), senderIdentity: config.senderIdentity }, clock.now(), config.links?.publicUrl ?? process.env.PUNCTUAL_PUBLIC_URL),
  };
  // Metrics (issue #11 §3, server/dashboards/metrics.ts): this worker's registry, fed by the send path and the dispatcher,
  // published to `worker_metrics` for /api/metrics; logs carry the worker id.
  log = log.child({ workerId: ctx.alerts!.workerId });
  const metrics = createWorkerMetrics({ workerId: ctx.alerts!.workerId, logger: log });
  ctx.sendDeps.observe = metrics.observeSend;
  policy.onClaimBatch = metrics.observeClaimBatch;
  // Warm the renderer (module loading, JIT): the first render costs ~10× a later one, and the first due
  // reminder after start should not pay for it.
  await renderReminderEmail('attendee-reminder', previewData['attendee-reminder']).catch(() => {});
  await dispatchDue(handle.db, clock.now(), policy);
  // The start-up pass counts as a sweep: record the heartbeat (and evaluate alerts) now, not a minute from now.
  await workerAlertSweep(handle.db, ctx.alerts!, clock.now()).catch((e: Error) => log.error({ err: e }, 'alert sweep failed'));
  // Our own pool, so a PostgreSQL restart is an error we log and survive rather than an unhandled 'error'
  // event that kills the process; graphile-worker reconnects.
  const pgPool = new pg.Pool(pgPoolConfig(opts.databaseUrl, { max: QUEUE_POOL_SIZE }));
  pgPool.on('error', (e) => log.error({ err: e }, 'database connection lost'));
  pgPool.on('connect', (client) => client.on('error', (e) => log.error({ err: e }, 'database client error')));
  // Off unless WORKER_LOCAL_QUEUE_SIZE > 1 (see the module doc); graphile-worker wants it ≥ the concurrency.
  const localQueueSize = config.localQueueSize ?? 1;
  const pollInterval = opts.pollIntervalMs ?? config.pollIntervalMs ?? 2000;
  // The wake timer (module doc) hears what graphile-worker hears: its pool (to nudge), its NOTIFYs, its failures.
  const events = new EventEmitter() as WorkerEvents;
  let pool: WorkerPool | undefined;
  let wake: WakeTimer | undefined;
  events.on('pool:create', ({ workerPool }) => (pool = workerPool));
  events.on('pool:listen:notification', ({ message }) => {
    if (message.channel === 'jobs:insert') wake?.refresh();
  });
  events.on('pool:listen:success', () => wake?.refresh());
  // A failed job's new run_at (its retry) is written in the next batch of failures; read after that.
  events.on('job:complete', ({ error }) => {
    if (error) wake?.refresh(JOB_BATCH_DELAY_MS + 20);
  });
  const runnerOptions: Parameters<typeof run>[0] = {
    pgPool,
    events,
    concurrency: config.concurrency,
    pollInterval: slotPollIntervalMs(pollInterval, config.concurrency),
    noHandleSignals: !opts.handleSignals,
    taskList: taskList(ctx),
    crontab: `* * * * * ${TASK.dispatchDue} ?max=1`,
    logger: quietLogger(),
    preset: {
      worker: {
        ...(localQueueSize > 1 ? { localQueue: { size: localQueueSize } } : {}),
        completeJobBatchDelay: JOB_BATCH_DELAY_MS,
        failJobBatchDelay: JOB_BATCH_DELAY_MS,
      },
    },
  };
  let stopped = false;
  let runner = await run(runnerOptions);
  // graphile-worker 0.18 ends its runner by itself when its worker pool fails — a batched job completion that
  // PostgreSQL answered "deadlock detected" is enough (dist/main.js: "Could not completeJobs … aborting") — and the
  // process would live on with no task slot taking jobs (the chaos run lost work this way). So a runner that ends
  // while this worker is not stopping is replaced: a new one after a backoff (1 s, doubling to 30 s, reset once one
  // has run a minute). The old pool's jobs left locked are recovered as after a crash (stale dispatches, leases).
  let restarts = 0;
  const supervise = (r: Runner): void => {
    const startedAt = Date.now();
    void r.promise.then(
      () => replace(r, null, startedAt),
      (e: unknown) => replace(r, e, startedAt),
    );
  };
  const replace = async (r: Runner, cause: unknown, startedAt: number): Promise<void> => {
    let error = cause;
    if (Date.now() - startedAt > 60_000) restarts = 0;
    while (!stopped && r === runner) {
      const delay = Math.min(RUNNER_RESTART_MAX_MS, RUNNER_RESTART_BASE_MS * 2 ** Math.min(restarts, 5));
      restarts++;
      log.error({ ...(error ? { err: errField(error as Error) } : {}), restartInMs: delay, restarts }, 'the job runner stopped by itself: starting a new one');
      await new Promise((done) => setTimeout(done, delay).unref());
      if (stopped) return;
      try {
        runner = await run(runnerOptions);
        supervise(runner);
        wake?.refresh();
        log.info({ restarts }, 'job runner started again');
        return;
      } catch (e) {
        error = e;
      }
    }
  };
  supervise(runner);
  wake = startWakeTimer({
    db: handle.db,
    maxNudge: config.concurrency,
    maxSleepMs: pollInterval,
    log,
    nudge: (n) => {
      // A pool that is shutting down must not be nudged (graphile-worker asserts its slots are active).
      if (!pool || pool._shuttingDown || !pool._active) return;
      try {
        pool.nudge(n);
      } catch (e) {
        log.warn({ err: errField(e as Error) }, 'wake timer: nudge failed');
      }
    },
  });
  let sweeping = false;
  const sweep = config.sweepIntervalMs
    ? setInterval(() => {
        if (sweeping) return;
        sweeping = true;
        dispatchDue(handle.db, clock.now(), policy)
          .catch((e: Error) => log.error({ err: errField(e) }, 'sweep failed'))
          .finally(() => (sweeping = false));
      }, config.sweepIntervalMs)
    : undefined;
  const publisher = publishWorkerMetrics(handle.db, metrics, { logger: log });
  await publisher.publishNow().catch((e) => log.warn({ err: errField(e) }, 'metrics snapshot not written'));
  return {
    get runner() {
      return runner;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      wake?.stop();
      if (sweep) clearInterval(sweep);
      // A runner that already stopped by itself (seen with PostgreSQL refusing connections: "too many clients")
      // rejects stop(); its promise still settles once its jobs are done.
      await runner.stop().catch(async (e: Error) => {
        if (!/already stopped/i.test(e.message)) throw e;
        await runner.promise.catch(() => {});
      });
      await publisher.stop();
      ownClock?.stop();
      // A channel handed in by the caller (opts.channel) is the caller's to close: the SMTP channel refuses sends
      // once closed, and a test harness or an embedding process may keep using it.
      await Promise.all([...Object.values(channels), sms, webhook].filter((c) => c !== opts.channel).map((c) => c?.close()));
      await pgPool.end();
      await handle.close();
    },
  };
}
