/**
 * The worker's optional health port (issue #13 part 7): PUNCTUAL_WORKER_HEALTH_PORT = `PORT` (listens on
 * 127.0.0.1) or `HOST:PORT` (e.g. `0.0.0.0:9464` for a Kubernetes probe, which comes from outside the pod's
 * loopback). Plain HTTP, no other routes:
 *
 *   GET /live   200 `{ ok: true }` whenever the process answers (its event loop runs) — no database.
 *   GET /ready  200 when the worker runs, is not stopping, PostgreSQL answers within 2 s and the schema is at this
 *               version's migration or newer (server/platform/readiness.ts); else 503 `{ ok: false, error }`. It stays 503
 *               from SIGTERM until the process exits (in-flight sends finishing).
 */
import http from 'node:http';
import type { Db } from '@/db/client';
import { healthResponse, liveness, readiness } from './readiness';

/**
 * Parses PUNCTUAL_WORKER_HEALTH_PORT: `PORT` or `HOST:PORT` (`[v6]:PORT` for an IPv6 address); undefined when unset.
 * @throws Error naming the variable when the value is not that.
 */
export function workerHealthAddress(env: Readonly<Record<string, string | undefined>> = process.env): { host: string; port: number } | undefined {
  const raw = env.PUNCTUAL_WORKER_HEALTH_PORT?.trim();
  if (!raw) return undefined;
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(raw);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port < 1 || port > 65535) throw new Error(`PUNCTUAL_WORKER_HEALTH_PORT: "${raw}" must be a port (9464) or HOST:PORT (0.0.0.0:9464)`);
  return { host: m[1]?.replace(/^\[|\]$/g, '') ?? '127.0.0.1', port };
}

/** Starts the health server; resolves once it listens. `stopping()` says whether the worker is shutting down. */
export async function startWorkerHealthServer(
  addr: { host: string; port: number },
  deps: { db: () => Db; stopping: () => boolean },
): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const answer =
      req.method !== 'GET' && req.method !== 'HEAD'
        ? Promise.resolve(new Response(null, { status: 405 }))
        : path === '/live'
          ? Promise.resolve(healthResponse(liveness()))
          : path === '/ready'
            ? readiness(deps.db, { stopping: deps.stopping() }).then(healthResponse)
            : Promise.resolve(new Response('not found', { status: 404 }));
    void answer.then(async (r) => {
      res.writeHead(r.status, Object.fromEntries(r.headers));
      res.end(req.method === 'HEAD' ? undefined : Buffer.from(await r.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(addr.port, addr.host, () => resolve());
  });
  return server;
}
