/** What every task needs: the process's database handle, channel and clock (built once per worker). */
import type { EmailChannel } from '@/channels/types';
import type { Db } from '@/db/client';
import type { Clock } from '@/server/platform/clock';
import type { DispatchPolicy } from '@/server/sending/dispatch';
import type { SendDeps } from '@/server/sending/send-reminder';
import type { AlertSenders } from '@/server/alerts/sender';

/**
 * What the alert tasks need (issue #10 §6): this worker's heartbeat identity (`hostname:pid:random`, set in
 * startWorker), the senders of alert messages and the base URL of alert links.
 */
export interface AlertRuntime {
  workerId: string;
  hostname: string;
  pid: number;
  /** When this worker started (UTC). */
  startedAt: Date;
  senders: AlertSenders;
  /** Base URL of the links in alert texts (PUNCTUAL_PUBLIC_URL). */
  publicUrl?: string;
}

export interface WorkerContext {
  db: Db;
  channel: EmailChannel;
  clock: Clock;
  /** Dispatcher and recovery timing (default: server/sending/dispatch.ts defaults). */
  policy?: DispatchPolicy;
  sendDeps: SendDeps;
  /** Alerts (default, e.g. in tests: jobs/tasks/alerts.ts alertRuntimeOf builds one from `sendDeps`). */
  alerts?: AlertRuntime;
}
