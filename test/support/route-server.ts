/**
 * Our real route handlers over real HTTP for a test file (as test/accounts/accounts.test.ts serves them): a Node HTTP server on
 * 127.0.0.1 feeding the app/api route modules a test names, with the process-wide database pool and better-auth
 * instance pointed at the test database, and a cookie jar per client. `PUNCTUAL_PUBLIC_URL` is the server's origin,
 * so better-auth trusts it and staff routes accept state changes from it. `close` restores the environment.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Handler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<'GET' | 'POST' | 'PUT' | 'DELETE', Handler>>;
interface RouteEntry {
  pattern: RegExp;
  load: () => Promise<unknown>;
}

export interface Answer {
  status: number;
  /** The body exactly as sent. */
  text: string;
  json: Record<string, unknown>;
  cookies: string[];
}

export interface RouteServer {
  origin: string;
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, opts?: { body?: unknown; cookie?: string; from?: string }): Promise<Answer>;
  close(): Promise<void>;
}

const ENV = ['DATABASE_URL', 'BETTER_AUTH_SECRET', 'PUNCTUAL_PUBLIC_URL', 'PUNCTUAL_TRUSTED_PROXIES'] as const;

export async function startRouteServer(databaseUrl: string, routes: RouteEntry[]): Promise<RouteServer> {
  const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
  process.env.DATABASE_URL = databaseUrl;
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-route-server-0123456789';
  delete process.env.PUNCTUAL_TRUSTED_PROXIES;
  const g = globalThis as { __punctualDb?: { close(): Promise<void> }; __punctualAuth?: unknown };
  delete g.__punctualDb;
  delete g.__punctualAuth;
  const { installPeerStamp } = await import('@/server/platform/client-address');
  installPeerStamp();
  let port = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
        const url = new URL(`http://127.0.0.1:${port}${req.url}`);
        const route = routes.find((r) => r.pattern.test(url.pathname));
        const handler = route ? ((await route.load()) as RouteModule)[req.method as 'GET'] : undefined;
        if (!route || !handler) {
          res.writeHead(404);
          res.end();
          return;
        }
        const params = url.pathname.match(route.pattern)?.groups ?? {};
        const request = new Request(url, { method: req.method, headers, body: req.method === 'GET' ? undefined : Buffer.concat(chunks) });
        const response = await handler(request, { params: Promise.resolve({ ...params }) });
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
  const origin = `http://127.0.0.1:${port}`;
  process.env.PUNCTUAL_PUBLIC_URL = origin;

  function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, opts: { body?: unknown; cookie?: string; from?: string } = {}): Promise<Answer> {
    const data = opts.body === undefined ? '' : JSON.stringify(opts.body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          localAddress: opts.from ?? '127.0.0.1',
          method,
          path,
          agent: false,
          headers: {
            ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}),
            ...(method !== 'GET' ? { origin } : {}),
            ...(opts.cookie ? { cookie: opts.cookie } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: Record<string, unknown> = {};
            try {
              json = JSON.parse(text) as Record<string, unknown>;
            } catch {
              json = { text };
            }
            resolve({ status: res.statusCode ?? 0, text, json, cookies: res.headers['set-cookie'] ?? [] });
          });
        },
      );
      req.on('error', reject);
      req.end(data);
    });
  }

  return {
    origin,
    call,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      await g.__punctualDb?.close();
      delete g.__punctualDb;
      delete g.__punctualAuth;
      for (const k of ENV) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    },
  };
}

/** Signs in through better-auth's /sign-in/email and returns the Cookie header of the session. */
export async function signIn(s: RouteServer, email: string, password: string): Promise<string> {
  const r = await s.call('POST', '/api/auth/sign-in/email', { body: { email, password } });
  if (r.status !== 200) throw new Error(`sign-in of ${email}: ${r.status} ${r.text}`);
  return r.cookies.map((c) => c.split(';')[0]).join('; ');
}
