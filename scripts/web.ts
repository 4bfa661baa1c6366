/** `npm run web`: the web app alone against DATABASE_URL (builds first when needed). */
import path from 'node:path';
import { parseTrustedProxies } from '@/domain/accounts/client-address';
import { publicBaseUrl } from '@/domain/platform/public-url';
import { shutdownDrainFromEnv } from '@/server/platform/web-shutdown';
import { authSecret, ensureNextBuild, requireEnv, root, startNext, stopChild } from './lib';

try {
  parseTrustedProxies(process.env.PUNCTUAL_TRUSTED_PROXIES);
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}

const databaseUrl = requireEnv('DATABASE_URL', 'point it at the PostgreSQL that `npm start` or your deployment uses');
const port = Number(process.env.PORT ?? 3000);
// The address to listen on: 127.0.0.1 (a proxy on the same host) unless PUNCTUAL_WEB_HOST says otherwise
// (e.g. 0.0.0.0 for a proxy or load balancer on another host, or in a container).
const host = process.env.PUNCTUAL_WEB_HOST?.trim() || '127.0.0.1';
let drainMs: number;
try {
  // A bad PUNCTUAL_PUBLIC_URL stops here, naming the rule (domain/platform/public-url.ts).
  publicBaseUrl(process.env);
  drainMs = shutdownDrainFromEnv();
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}
await ensureNextBuild(console.log);
const web = await startNext(port, { DATABASE_URL: databaseUrl, BETTER_AUTH_SECRET: authSecret(path.resolve(root, process.env.PUNCTUAL_DATA_DIR ?? '.data')) }, console.log, host);
console.log(`Punctual web app at http://${host}:${port}/events`);
// SIGTERM/SIGINT: the web server answers "not ready" for PUNCTUAL_SHUTDOWN_DRAIN_MS, then exits (server/platform/web-shutdown.ts);
// it is killed only if it is still there 10 s after that.
let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    console.log(`${sig}: draining for ${drainMs} ms (readiness answers 503), then stopping`);
    void stopChild(web, drainMs + 10_000).then(() => process.exit(0));
  });
}
web.once('exit', (code) => process.exit(code ?? 1));
