/**
 * Next.js instrumentation: `register()` runs once when a server instance starts (`next start`, `next dev`). In the
 * Node.js runtime only, it checks the web settings (server/platform/web-settings.ts: exit 2 naming a bad one) and starts the worker-heartbeat watchdog (server/alerts/watchdog.ts, issue #10 §6): the web process
 * alerts when the worker stops sweeping, because the worker's own queue cannot. Not during `next build`
 * (NEXT_PHASE phase-production-build), not without DATABASE_URL, not with PUNCTUAL_WATCHDOG_MS=0. Before that it
 * checks PUNCTUAL_TRUSTED_PROXIES and starts stamping each request with its socket peer (server/platform/client-address.ts).
 *
 * `onRequestError` is where every unexpected error of a page, route handler or server action ends before Next turns
 * it into a 500 (AppErrors are answered as 4xx by app/_http/session.ts and never get here): it is logged as one JSON
 * line through server/platform/log.ts (issue #11 §3) with the method, path and route.
 */
import type { Instrumentation } from 'next';
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  // A bad PUNCTUAL_PUBLIC_URL, PUNCTUAL_TRUSTED_PROXIES or body limit stops the web server at start, naming the rule,
  // rather than failing every request later (server/platform/web-settings.ts). The exit itself lives there, in a Node-only
  // module: Turbopack also compiles this file for the Edge runtime, which has no process.exit.
  const { checkWebSettingsOrExit } = await import('@/server/platform/web-settings');
  checkWebSettingsOrExit();
  // Sign-in limits (issue #12): every request is stamped with its socket peer before Next reads it
  // (server/platform/client-address.ts says why and how).
  const { installPeerStamp } = await import('@/server/platform/client-address');
  installPeerStamp();
  // SIGTERM: answer "not ready" for PUNCTUAL_SHUTDOWN_DRAIN_MS, then exit (server/platform/web-shutdown.ts, issue #13 part 7).
  const { installWebShutdown } = await import('@/server/platform/web-shutdown');
  installWebShutdown();
  const { startWatchdog } = await import('@/server/alerts/watchdog');
  startWatchdog();
}

export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { childLogger, errField } = await import('@/server/platform/log');
  childLogger({ role: 'web' }).error(
    // The route pattern (`/u/[token]`), never the raw path: one-click unsubscribe and preference links carry signed
    // tokens in the path, and a log must not hold credentials.
    { err: errField(error), method: request.method, route: context.routePath, routeType: context.routeType },
    'unexpected error in a request',
  );
};
