/**
 * Sign-in limits that neither leak nor lock out (issue #12), against real PostgreSQL:
 * - the buckets as the server keeps them (server/accounts/sign-in-limits.ts) over simulated time: the shared office never
 *   sees a 429, concurrent checks from several connections never get more than the budget;
 * - the whole path over real sockets: a real HTTP server feeding app/api/auth/[...all]/route.ts (better-auth
 *   with our hooks), clients connecting from different loopback addresses (127.0.0.x), so the socket peer is
 *   real and stamped by Node's `http.server.request.start` channel exactly as in `next start`
 *   (server/platform/client-address.ts). A spray over 50 accounts hits 429 after the documented budget whatever
 *   X-Forwarded-For claims; guesses from elsewhere never lock the owner out; /verify-password and
 *   /change-password count against the same buckets; X-Forwarded-For counts only from a trusted proxy.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hashPassword } from 'better-auth/crypto';
import { eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type Db } from '@/db/client';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { rateLimits, staffSessions, staffUsers } from '@/db/schema';
import { SIGN_IN_LIMITS, waitText } from '@/domain/accounts/sign-in-limits';
import { reservePasswordCheck, settlePasswordCheck } from '@/server/accounts/sign-in-limits';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { tenantWithRules } from '@/test/support/fixtures';

const PASSWORD = 'correct-horse-battery';
let tdb: TestDatabase;
let savedEnv: { url?: string; secret?: string; proxies?: string };
const db = (): Db => tdb.db;

beforeAll(async () => {
  tdb = await createTestDatabase();
  savedEnv = { url: process.env.DATABASE_URL, secret: process.env.BETTER_AUTH_SECRET, proxies: process.env.PUNCTUAL_TRUSTED_PROXIES };
  // The route handler uses the process-wide pool and better-auth instance: point them at this file's database.
  process.env.DATABASE_URL = tdb.url;
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-sign-in-limits-0123456789';
  delete process.env.PUNCTUAL_TRUSTED_PROXIES;
  const g = globalThis as { __punctualDb?: unknown; __punctualAuth?: unknown };
  delete g.__punctualDb;
  delete g.__punctualAuth;
});

afterAll(async () => {
  const g = globalThis as { __punctualDb?: { close(): Promise<void> } };
  await g.__punctualDb?.close();
  delete g.__punctualDb;
  for (const [k, v] of [
    ['DATABASE_URL', savedEnv?.url],
    ['BETTER_AUTH_SECRET', savedEnv?.secret],
    ['PUNCTUAL_TRUSTED_PROXIES', savedEnv?.proxies],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await tdb?.close();
});

beforeEach(async () => {
  await db().delete(rateLimits).where(like(rateLimits.key, 'signin:%'));
  delete process.env.PUNCTUAL_TRUSTED_PROXIES;
});

describe('the buckets in PostgreSQL (simulated time)', () => {
  const T0 = Date.UTC(2027, 2, 1, 8);
  const at = (ms: number) => new Date(T0 + ms);

  it('a shared office — 4 people behind one address, one correct sign-in every 15 s for an hour (12 times the client budget), a typo now and then — never gets a 429', async () => {
    const people = ['ana', 'ben', 'cai', 'dee'].map((p) => `${p}@office.test`);
    const refused: string[] = [];
    for (let i = 0; i < 240; i++) {
      const now = at(i * 15_000);
      const check = { account: people[i % 4], clientKey: '203.0.113.10' };
      // Every 25th sign-in starts with a mistyped password (10 typos in the hour).
      for (const outcome of i % 25 === 0 ? (['wrong_password', 'accepted'] as const) : (['accepted'] as const)) {
        const r = await reservePasswordCheck(db(), check, now);
        if (!r.allowed) refused.push(`${i}: ${r.message}`);
        else await settlePasswordCheck(db(), check, outcome, now);
      }
    }
    expect(refused).toEqual([]);
  });

  it('checks racing from 30 connections at once get exactly the client budget (20), never more', async () => {
    const conns = Array.from({ length: 6 }, () => createDb(tdb.url, { max: 5 }));
    try {
      const now = at(0);
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => reservePasswordCheck(conns[i % conns.length].db, { account: `victim${i}@example.test`, clientKey: '198.51.100.99' }, now)),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(SIGN_IN_LIMITS.client.capacity);
      const refused = results.find((r) => !r.allowed);
      expect(refused).toMatchObject({ allowed: false, bucket: 'client', retryAfterMs: 60_000, message: 'Too many wrong passwords from your network. Try again in 1 minute.' });
      // A refused guess leaves no (account, client) row behind.
      const rows = await db().select().from(rateLimits).where(like(rateLimits.key, 'signin:account:198.51.100.99 %'));
      expect(rows).toHaveLength(20);
    } finally {
      await Promise.all(conns.map((c) => c.close()));
    }
  });

  it('the budget comes back steadily, and buckets that are full again are pruned', async () => {
    const check = (i: number) => ({ account: `u${i}@example.test`, clientKey: '198.51.100.50' });
    for (let i = 0; i < 20; i++) {
      expect((await reservePasswordCheck(db(), check(i), at(0))).allowed).toBe(true);
      await settlePasswordCheck(db(), check(i), 'wrong_password', at(0));
    }
    expect(await reservePasswordCheck(db(), check(20), at(30_000))).toMatchObject({ allowed: false, retryAfterMs: 30_000 });
    expect((await reservePasswordCheck(db(), check(20), at(60_000))).allowed).toBe(true);
    await settlePasswordCheck(db(), check(20), 'wrong_password', at(60_000));
    expect((await reservePasswordCheck(db(), check(21), at(60_000))).allowed).toBe(false);
    // Hours later every bucket is full again: the next settle prunes them (rows for full buckets are not needed).
    const later = at(6 * 3600_000);
    await settlePasswordCheck(db(), check(99), 'not_checked', later);
    expect(await db().select().from(rateLimits).where(like(rateLimits.key, 'signin:%'))).toEqual([]);
  });
});

describe('over real sockets, through better-auth', () => {
  let server: http.Server;
  let port = 0;
  let tenantId: string;
  let n = 0;

  beforeAll(async () => {
    const { installPeerStamp } = await import('@/server/platform/client-address');
    installPeerStamp();
    const route = await import('@/app/api/auth/[...all]/route');
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
          const body = Buffer.concat(chunks);
          const request = new Request(`http://127.0.0.1:${port}${req.url}`, { method: req.method, headers, body: req.method === 'GET' ? undefined : body });
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
    const { tenant } = await tenantWithRules(db(), []);
    tenantId = tenant.id;
  });

  afterAll(async () => {
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  });

  /** POSTs JSON to /api/auth<path> from the loopback address `from` (the socket peer the server sees). */
  function post(from: string, path: string, body: unknown, extra: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; json: Record<string, unknown> }> {
    const data = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          localAddress: from,
          method: 'POST',
          path: `/api/auth${path}`,
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), origin: `http://127.0.0.1:${port}`, ...extra },
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
            resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
          });
        },
      );
      req.on('error', reject);
      req.end(data);
    });
  }

  const signIn = (from: string, email: string, password: string, extra: Record<string, string> = {}) => post(from, '/sign-in/email', { email, password }, extra);

  let hash: string | undefined;
  async function account(name: string): Promise<string> {
    hash ??= await hashPassword(PASSWORD);
    const email = `${name}${++n}@limits.test`;
    await insertStaffUser(db(), { tenantId, email, name, role: 'staff', passwordHash: hash });
    return email;
  }

  it('a spray of one password over 50 accounts from one client: 401 for the first 20, then 429 with Retry-After — whatever X-Forwarded-For claims', async () => {
    const emails: string[] = [];
    for (let i = 0; i < 50; i++) emails.push(await account('sprayed'));
    const answers = [];
    for (const [i, email] of emails.entries()) {
      // A fresh spoofed X-Forwarded-For on every guess: with no trusted proxy it is ignored.
      answers.push(await signIn('127.0.0.2', email, 'Summer2027!', { 'x-forwarded-for': `10.66.${i}.1` }));
    }
    expect(answers.map((a) => a.status)).toEqual([...Array(20).fill(401), ...Array(30).fill(429)]);
    // One token comes back a minute after the first guess (a little under a minute after the 21st; how much
    // under depends on how long the 20 password checks took on this machine).
    const refused = answers[20];
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.json).toMatchObject({ code: 'TOO_MANY_ATTEMPTS', message: `Too many wrong passwords from your network. Try again in ${waitText(wait * 1000)}.` });
    // Another address is not affected.
    expect((await signIn('127.0.0.12', emails[0], PASSWORD)).status).toBe(200);
  });

  it("someone else's guesses at an account from another client never lock the owner out", async () => {
    const ada = await account('ada');
    const attacker = [];
    for (let i = 0; i < 12; i++) attacker.push((await signIn('127.0.0.3', ada, `guess-${i}-password`)).status);
    expect(attacker).toEqual([...Array(10).fill(401), 429, 429]);
    const stopped = await signIn('127.0.0.3', ada, PASSWORD);
    const wait = Number(stopped.headers['retry-after']);
    expect(wait).toBeGreaterThan(60);
    expect(wait).toBeLessThanOrEqual(180);
    expect([stopped.status, stopped.json.message]).toEqual([429, `Too many wrong passwords for this account from your network. Try again in ${waitText(wait * 1000)}.`]);
    // Ada, from her own address: a typo is an ordinary 401, her password signs her in.
    expect((await signIn('127.0.0.4', ada, 'ada-typo-password')).status).toBe(401);
    const ok = await signIn('127.0.0.4', ada, PASSWORD);
    expect(ok.status).toBe(200);
    // The session records her address as resolved from the socket (better-auth reads only our header).
    const [u] = await db().select().from(staffUsers).where(eq(staffUsers.email, ada));
    const sessions = await db().select().from(staffSessions).where(eq(staffSessions.userId, u.id));
    expect(sessions.map((s) => s.ipAddress)).toEqual(['127.0.0.4']);
  });

  it('correct passwords cost nothing: 22 sign-ins in a row from one address (more than either budget) all succeed', async () => {
    const sam = await account('sam');
    const statuses = [];
    for (let i = 0; i < 22; i++) statuses.push((await signIn('127.0.0.8', sam, PASSWORD)).status);
    expect(statuses).toEqual(Array(22).fill(200));
    const left = await db().select().from(rateLimits).where(like(rateLimits.key, 'signin:%127.0.0.8%'));
    expect(left).toEqual([]);
  });

  it('/verify-password and /change-password count against the same buckets as sign-in', async () => {
    const vic = await account('vic');
    const session = await signIn('127.0.0.5', vic, PASSWORD);
    expect(session.status).toBe(200);
    const cookie = (session.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await post('127.0.0.5', '/verify-password', { password: `wrong-${i}-password` }, { cookie })).status);
    for (let i = 0; i < 4; i++) statuses.push((await post('127.0.0.5', '/change-password', { currentPassword: `wrong-${i}-password`, newPassword: 'another-password-1' }, { cookie })).status);
    expect(statuses).toEqual(Array(10).fill(400));
    const refused = await post('127.0.0.5', '/verify-password', { password: PASSWORD }, { cookie });
    expect([refused.status, refused.json.code]).toEqual([429, 'TOO_MANY_ATTEMPTS']);
    // The same (account, client) bucket guards signing in.
    expect((await signIn('127.0.0.5', vic, PASSWORD)).status).toBe(429);
    // From elsewhere, the owner still signs in.
    expect((await signIn('127.0.0.6', vic, PASSWORD)).status).toBe(200);
  });

  it('X-Forwarded-For counts only from a proxy named in PUNCTUAL_TRUSTED_PROXIES, read from the right', async () => {
    process.env.PUNCTUAL_TRUSTED_PROXIES = '127.0.0.9';
    const eve = await account('eve');
    // Behind the trusted proxy: the hop it appended (rightmost) is the client; spoofed entries on the left vary freely.
    const viaProxy = [];
    for (let i = 0; i < 11; i++) viaProxy.push((await signIn('127.0.0.9', eve, `guess-${i}-password`, { 'x-forwarded-for': `10.0.${i}.1, 198.51.100.7` })).status);
    expect(viaProxy).toEqual([...Array(10).fill(401), 429]);
    // Another client behind the same proxy has its own budget.
    expect((await signIn('127.0.0.9', eve, PASSWORD, { 'x-forwarded-for': '198.51.100.8' })).status).toBe(200);
    // An untrusted peer sending X-Forwarded-For: 198.51.100.8 is still itself — and a made-up stamp or client header changes nothing.
    const direct = [];
    for (let i = 0; i < 11; i++) {
      direct.push((await signIn('127.0.0.10', eve, `other-${i}-password`, { 'x-forwarded-for': '198.51.100.8', 'x-punctual-peer': '0 198.51.100.8', 'x-punctual-client': '198.51.100.8' })).status);
    }
    expect(direct).toEqual([...Array(10).fill(401), 429]);
    expect((await signIn('127.0.0.9', eve, PASSWORD, { 'x-forwarded-for': '198.51.100.8' })).status).toBe(200);
    const keys = (await db().select().from(rateLimits).where(sql`key like 'signin:account:%'`)).map((r) => r.key);
    expect(keys).toContain(`signin:account:198.51.100.7 ${eve}`);
    expect(keys).toContain(`signin:account:127.0.0.10 ${eve}`);
    expect(keys).not.toContain(`signin:account:198.51.100.8 ${eve}`);
  });
});
