/**
 * In-process pipeline for tests: a fresh database, the real mail catcher (SMTP on 127.0.0.1), the real
 * SMTP channel, the real graphile-worker queue (drained with `runOnce`), and a FakeClock so scenarios set in
 * 2027 run in milliseconds. Wake-ups and sweeps are driven by `tick(now)`, which is exactly what the cron
 * sweep and the due-instant jobs do in production.
 */
import { runOnce } from 'graphile-worker';
import { asc } from 'drizzle-orm';
import { createSmtpChannel } from '@/channels/smtp';
import type { EmailChannel } from '@/channels/types';
import { quietLogger } from '@/db/migrate';
import { caughtMessages, type CaughtMessage } from '@/db/schema';
import { taskList } from '@/jobs/worker';
import type { WorkerContext } from '@/jobs/context';
import { dispatchDue } from '@/server/sending/dispatch';
import type { SendDeps } from '@/server/sending/send-reminder';
import { startMailCatcher, type MailCatcher, type MailCatcherOptions } from '@/dev/mail-catcher';
import { FakeClock } from './clock';
import { createTestDatabase, type TestDatabase } from './db';

export interface Harness {
  tdb: TestDatabase;
  catcher: MailCatcher;
  clock: FakeClock;
  ctx: WorkerContext;
  /** Runs every job that is runnable now (database time), repeatedly, until the queue is idle. */
  drain(): Promise<void>;
  /** Sets the clock, runs one dispatcher pass, drains the queue. */
  tick(now: string | Date): Promise<void>;
  caught(): Promise<CaughtMessage[]>;
  close(): Promise<void>;
}

export async function createHarness(
  opts: { channel?: EmailChannel; catcher?: Omit<MailCatcherOptions, 'db'>; deps?: Partial<SendDeps> } = {},
): Promise<Harness> {
  const tdb = await createTestDatabase();
  const catcher = await startMailCatcher({ db: tdb.db, ...opts.catcher });
  const clock = new FakeClock(new Date('2027-01-01T00:00:00Z'));
  const channel = opts.channel ?? createSmtpChannel({ url: catcher.url });
  const ctx: WorkerContext = { db: tdb.db, channel, clock, sendDeps: { db: tdb.db, channel, clock, ...opts.deps } };
  const drain = async () => {
    await runOnce({ connectionString: tdb.url, taskList: taskList(ctx), logger: quietLogger() });
  };
  return {
    tdb,
    catcher,
    clock,
    ctx,
    drain,
    async tick(now) {
      clock.set(now);
      // Simulated time for the queue too: jobs whose run_at (wake-ups, retries) has passed on the fake clock
      // become runnable now.
      await tdb.sql`update graphile_worker._private_jobs set run_at = now()
        where run_at <= ${clock.now().toISOString()}::timestamptz and run_at > now() and locked_at is null`;
      await dispatchDue(tdb.db, clock.now());
      await drain();
    },
    caught: () => tdb.db.select().from(caughtMessages).orderBy(asc(caughtMessages.receivedAt)),
    async close() {
      // The SMTP channel pools its connections: end them first, or the SMTP server's close waits for them.
      await channel.close();
      await catcher.close();
      await tdb.close();
    },
  };
}
