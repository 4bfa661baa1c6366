/** What every task needs: the process's database handle, channel and clock (built once per worker). */
import type { EmailChannel } from '../channels/types';
import type { Db } from '../db/client';
import type { Clock } from '../server/clock';
import type { DispatchPolicy } from '../server/dispatch';
import type { SendDeps } from '../server/send-reminder';

export interface WorkerContext {
  db: Db;
  channel: EmailChannel;
  clock: Clock;
  /** Dispatcher and recovery timing (default: server/dispatch.ts defaults). */
  policy?: DispatchPolicy;
  sendDeps: SendDeps;
}
