/**
 * Next.js instrumentation: `register()` runs once when a server instance starts (`next start`, `next dev`). In the
 * Node.js runtime only, it starts the worker-heartbeat watchdog (server/watchdog.ts, issue #10 §6): the web process
 * alerts when the worker stops sweeping, because the worker's own queue cannot. Not during `next build`
 * (NEXT_PHASE phase-production-build), not without DATABASE_URL, not with PUNCTUAL_WATCHDOG_MS=0.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  const { startWatchdog } = await import('./server/watchdog');
  startWatchdog();
}
