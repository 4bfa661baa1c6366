/**
 * better-auth's real HTTP endpoints for a test file (as test/accounts/sign-in-limits.test.ts serves them): a Node HTTP
 * server on 127.0.0.1 feeding app/api/auth/[...all]/route.ts, with the process-wide database pool and better-auth
 * instance pointed at the test database. Clients connect from a chosen loopback address (127.0.0.x), which the
 * server sees as the socket peer (server/platform/client-address.ts), so sign-in limits apply per client as in production.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface AuthAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  json: Record<string, unknown>;
  /** The `name=value` pairs of its Set-Cookie headers, joined for a Cookie header. */
  cookie: string;
}

export interface AuthServer {
  port: number;
  /** POSTs JSON to /api/auth<path> from the loopback address `from`. */
  post(from: string, path: string, body: unknown, extra?: Record<string, string>): Promise<AuthAnswer>;
  /** GETs /api/auth<path>. */
  get(from: string, path: string, extra?: Record<string, string>): Promise<AuthAnswer>;
  close(): Promise<void>;
}

const saved: Record<string, string | undefined> = {};

/**
 * Points the process-wide pool and better-auth at `databaseUrl` (forgetting earlier instances) and starts the
 * server. `close` restores the environment.
 */
export async function startAuthServer(databaseUrl: string): Promise<AuthServer> {
  for (const k of ['DATABASE_URL', 'BETTER_AUTH_SECRET', 'PUNCTUAL_TRUSTED_PROXIES', 'PUNCTUAL_PUBLIC_URL']) saved[k] = process.env[k];
  process.env.DATABASE_URL = databaseUrl;
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-password-links-0123456789';
  delete process.env.PUNCTUAL_TRUSTED_PROXIES;
  delete process.env.PUNCTUAL_PUBLIC_URL;
  const g = globalThis as { __punctualDb?: { close(): Promise<void> }; __punctualAuth?: unknown; __punctualClock?: { stop(): void } };
  delete g.__punctualDb;
  delete g.__punctualAuth;
  delete g.__punctualClock;
  const { installPeerStamp } = await import('@/server/platform/client-address');
  installPeerStamp();
  const route = await import('@/app/api/auth/[...all]/route');
  let port = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
        const request = new Request(`http://127.0.0.1:${port}${req.url}`, { method: req.method, headers, body: req.method === 'GET' ? undefined : Buffer.concat(chunks) });
        const response = await (req.method === 'GET' ? route.GET(request) : route.POST(request));
        const out: Record<string, string | string[]> = {};
        response.headers.forEach((v, k) => (out[k] = k === 'set-cookie' ? response.headers.getSetCookie() : v));
        res.writeHead(response.status, out);
        res.end(Buffer.from(await response.arrayBuffer()));
      })().catch((e: unknown) => {
        res.writeHead(500);
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;

  function call(from: string, method: 'GET' | 'POST', path: string, body: unknown, extra: Record<string, string> = {}): Promise<AuthAnswer> {
    const data = body === undefined ? '' : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          localAddress: from,
          method,
          path: `/api/auth${path}`,
          agent: false,
          headers: { ...(method === 'POST' ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}), origin: `http://127.0.0.1:${port}`, ...extra },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: Record<string, unknown> = {};
            try {
              json = (JSON.parse(text) as Record<string, unknown>) ?? {};
            } catch {
              json = { text };
            }
            const cookie = (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
            resolve({ status: res.statusCode ?? 0, headers: res.headers, json, cookie });
          });
        },
      );
      req.on('error', reject);
      req.end(method === 'POST' ? data : undefined);
    });
  }

  return {
    port,
    post: (from, path, body, extra) => call(from, 'POST', path, body, extra),
    get: (from, path, extra) => call(from, 'GET', path, undefined, extra),
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      g.__punctualClock?.stop();
      await g.__punctualDb?.close();
      delete g.__punctualDb;
      delete g.__punctualAuth;
      delete g.__punctualClock;
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    },
  };
}
