/**
 * The web process's watchdog (issue #10 §6): "an alert about the pipeline must not depend on the thing that
 * failed" — the worker heartbeat condition is evaluated AND sent by the web process too, every
 * PUNCTUAL_WATCHDOG_MS (default 30 000; `0` switches it off), through server/alerts/sender.ts runHeartbeatWatchdog: only
 * the `worker_heartbeat` condition, messages sent directly with this process's senders (SMTP_URL, the HTTP email
 * API variables, the Slack poster). The worker sends the same messages when it runs; the claim makes each go out
 * once. Started by instrumentation.ts `register()` in the Node.js runtime of `next start` / `next dev`.
 */
import { getDb } from '@/db/client';
import { alertPublicUrl } from './evaluation';
import { runHeartbeatWatchdog, webAlertSenders } from './sender';
import { appClock } from '@/server/platform/clock';

/** The interval from PUNCTUAL_WATCHDOG_MS: default 30 000; 0 (or negative) = off. @throws Error naming the variable when it is not a number. */
function watchdogIntervalMs(env: Record<string, string | undefined> = process.env): number {
  const raw = env.PUNCTUAL_WATCHDOG_MS;
  if (raw === undefined || raw.trim() === '') return 30_000;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`PUNCTUAL_WATCHDOG_MS: not a number of milliseconds (${raw})`);
  return n <= 0 ? 0 : Math.max(1000, Math.floor(n));
}

const globalForWatchdog = globalThis as unknown as { __punctualWatchdog?: NodeJS.Timeout };

/**
 * Starts the watchdog once per process (a second call does nothing). Does nothing without DATABASE_URL or when
 * switched off. A failed tick is logged and the next one tries again (the watchdog must outlive a database blip).
 * @returns whether it is running.
 */
export function startWatchdog(env: Record<string, string | undefined> = process.env): boolean {
  if (globalForWatchdog.__punctualWatchdog) return true;
  const every = watchdogIntervalMs(env);
  if (every === 0 || !env.DATABASE_URL) return false;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const clock = appClock();
      await clock.ready;
      const r = await runHeartbeatWatchdog(getDb(), webAlertSenders(), clock.now(), alertPublicUrl(env));
      const sent = r.results.filter((x) => x.status === 'sent').length;
      if (r.planned || sent) console.log(`[watchdog] worker heartbeat: planned ${r.planned}, sent ${sent}`);
    } catch (e) {
      console.error(`[watchdog] heartbeat check failed (next try in ${every} ms): ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      running = false;
    }
  };
  globalForWatchdog.__punctualWatchdog = setInterval(() => void tick(), every);
  globalForWatchdog.__punctualWatchdog.unref();
  return true;
}
