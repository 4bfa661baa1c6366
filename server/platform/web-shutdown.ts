/**
 * The web server's SIGTERM (issue #13 part 7): stop being ready, keep answering for a drain period, then exit.
 *
 * `npm run web` / `npm start` run `next start` with NEXT_MANUAL_SIG_HANDLE=1 (scripts/lib.ts `startNext`), which
 * turns off Next's own handler (it exits at once, next/dist/server/lib/start-server.js). Instead, on SIGTERM or
 * SIGINT this process marks itself shutting down — `/api/health/ready` and `/api/health` answer 503 `shutting down`
 * from then on, while every other request is still served — and exits after PUNCTUAL_SHUTDOWN_DRAIN_MS, long enough
 * for a proxy's health check to see the 503 and stop sending it new requests, and for requests already in flight to
 * finish. Further SIGTERMs change nothing (systemd signals every process of the unit, and `npm` and scripts/web.ts
 * pass theirs on, so one stop can arrive two or three times); a second SIGINT (Ctrl-C twice) exits at once.
 */
import { markShuttingDown } from './readiness';
import { childLogger } from './log';

/** Default drain period, ms: a proxy that checks every 2 s sees the 503 before the process goes. */
const DEFAULT_SHUTDOWN_DRAIN_MS = 5_000;

/**
 * PUNCTUAL_SHUTDOWN_DRAIN_MS: ms between SIGTERM and exit (0 … 300 000; default {@link DEFAULT_SHUTDOWN_DRAIN_MS}).
 * @throws Error naming the variable when it is not such a whole number.
 */
export function shutdownDrainFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env.PUNCTUAL_SHUTDOWN_DRAIN_MS?.trim();
  if (!raw) return DEFAULT_SHUTDOWN_DRAIN_MS;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n > 300_000) throw new Error(`PUNCTUAL_SHUTDOWN_DRAIN_MS: "${raw}" must be a whole number of milliseconds from 0 to 300000`);
  return n;
}

/** Installs the handlers above when Next's own are off (NEXT_MANUAL_SIG_HANDLE); otherwise only marks shutdown. */
export function installWebShutdown(): void {
  const own = Boolean(process.env.NEXT_MANUAL_SIG_HANDLE);
  const drainMs = shutdownDrainFromEnv();
  let signalled = false;
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.on(sig, () => {
      if (!own) return markShuttingDown(); // Next exits by itself
      if (signalled) {
        if (sig === 'SIGINT') process.exit(0);
        return;
      }
      signalled = true;
      markShuttingDown();
      childLogger({ role: 'web' }).info({ drainMs }, `${sig}: not ready any more; exiting in ${drainMs} ms`);
      setTimeout(() => process.exit(0), drainMs).unref();
    });
  }
}
