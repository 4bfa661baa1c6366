/**
 * Issue #12 "Health answers in time": every web query has a statement timeout (PostgreSQL cancels it) AND a client
 * deadline (a frozen server cannot cancel anything), and /api/health answers within its 2 s budget. "Frozen" is
 * real here: a TCP proxy in front of PostgreSQL that stops passing bytes on (test/support/tcp-proxy.ts) — the
 * connection stays open and nothing ever answers, as with a server stopped by SIGSTOP.
 */
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_GRACE_MS, createDb, DatabaseTimeoutError, statementTimeoutFromEnv } from '@/db/client';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { startTcpProxy, type TcpProxy } from '@/test/support/tcp-proxy';

let t: TestDatabase;
let proxy: TcpProxy;
let frozenUrl: string;

beforeAll(async () => {
  t = await createTestDatabase();
  const u = new URL(t.url);
  proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port || 5432) });
  frozenUrl = proxy.urlFor(t.url);
});
afterAll(async () => {
  proxy.resume();
  await proxy.close();
  await t.close();
});

/** The DatabaseTimeoutError `e` is or wraps (drizzle wraps a failed query's error as its `cause`), else undefined. */
function timeoutOf(e: unknown): DatabaseTimeoutError | undefined {
  for (let x = e, i = 0; x && i < 3; x = (x as { cause?: unknown }).cause, i++) if (x instanceof DatabaseTimeoutError) return x;
  return undefined;
}

/** How long `p` took to settle, ms, and how. */
async function timed<T>(p: Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const t0 = performance.now();
  try {
    const value = await p;
    return { ms: performance.now() - t0, value };
  } catch (error) {
    return { ms: performance.now() - t0, error };
  }
}

describe('PUNCTUAL_DB_STATEMENT_TIMEOUT_MS', () => {
  it('defaults to 15 s for the web, 0 turns it off, anything else names the variable', () => {
    expect(statementTimeoutFromEnv({})).toBe(15_000);
    expect(statementTimeoutFromEnv({ PUNCTUAL_DB_STATEMENT_TIMEOUT_MS: '0' })).toBe(0);
    expect(statementTimeoutFromEnv({ PUNCTUAL_DB_STATEMENT_TIMEOUT_MS: '2500' })).toBe(2500);
    for (const bad of ['-1', '1.5', '15s', '600001']) expect(() => statementTimeoutFromEnv({ PUNCTUAL_DB_STATEMENT_TIMEOUT_MS: bad })).toThrow(/^PUNCTUAL_DB_STATEMENT_TIMEOUT_MS: /);
  });
});

describe('a live but slow or locked server: PostgreSQL cancels the statement', () => {
  it('a long statement and a lock wait both end at the statement timeout (57014), not when they would finish', async () => {
    const h = createDb(t.url, { max: 2, statementTimeoutMs: 300 });
    const locker = postgres(t.url, { max: 1, onnotice: () => {} });
    try {
      const slow = await timed(h.db.execute(sql`select pg_sleep(5)`));
      expect(slow.ms).toBeLessThan(2_000);
      expect(slow.error).toMatchObject({ cause: { code: '57014' } });
      // A lock held by another session: the waiting query is cancelled too.
      // Wait until the lock is really held (a fixed 100 ms was not enough on a busy machine: the query ran first).
      let held!: () => void;
      const locked = new Promise<void>((r) => (held = r));
      const release = locker.begin(async (tx) => {
        await tx`lock table tenants in access exclusive mode`;
        held();
        await new Promise((r) => setTimeout(r, 1_500));
      });
      await locked;
      const blocked = await timed(h.db.execute(sql`select count(*) from tenants`));
      expect(blocked.ms).toBeLessThan(1_400);
      expect(blocked.error).toMatchObject({ cause: { code: '57014' } });
      await release;
      // The pool is fine afterwards.
      expect(await h.db.execute(sql`select 1 as one`)).toEqual([{ one: 1 }]);
    } finally {
      await locker.end();
      await h.close();
    }
  });
});

describe('a frozen server: the client gives up', () => {
  it('a query, a transaction and a transaction that cannot even begin reject with DatabaseTimeoutError in time; all works again after the thaw', async () => {
    const timeout = 300;
    const deadline = timeout + CLIENT_GRACE_MS;
    const h = createDb(frozenUrl, { max: 3, statementTimeoutMs: timeout });
    try {
      expect(await h.db.execute(sql`select 1 as one`)).toEqual([{ one: 1 }]);
      proxy.pause();
      const q = await timed(h.db.execute(sql`select 2`));
      expect(timeoutOf(q.error)).toBeInstanceOf(DatabaseTimeoutError);
      expect(timeoutOf(q.error)!.message).toBe('the database did not answer within 2.3 s (it may be overloaded, locked or unreachable)');
      expect(q.ms).toBeGreaterThanOrEqual(deadline - 50);
      expect(q.ms).toBeLessThan(deadline + 1_000);

      const tx = await timed(h.db.transaction(async (x) => x.execute(sql`select 3`)));
      expect(timeoutOf(tx.error)).toBeInstanceOf(DatabaseTimeoutError);
      expect(tx.ms).toBeLessThan(deadline + 1_000);
      proxy.resume();
      // Frozen between the statements of a running transaction: the transaction gives up too (no wait for ROLLBACK).
      const mid = await timed(
        h.db.transaction(async (x) => {
          await x.execute(sql`select 4`);
          proxy.pause();
          await x.execute(sql`select 5`);
        }),
      );
      expect(timeoutOf(mid.error)).toBeInstanceOf(DatabaseTimeoutError);
      expect(mid.ms).toBeLessThan(deadline + 1_000);
    } finally {
      proxy.resume();
    }
    try {
      // Thawed: the held statements complete, and new ones work.
      await expect.poll(async () => (await h.db.execute(sql`select 6 as six`))[0], { timeout: 10_000 }).toEqual({ six: 6 });
      await h.db.transaction(async (x) => {
        expect(await x.execute(sql`select 7 as seven`)).toEqual([{ seven: 7 }]);
      });
    } finally {
      await h.close();
    }
  });
});

describe('GET /api/health', () => {
  const g = globalThis as { __punctualDb?: { close(): Promise<void> } };
  const saved = { url: process.env.DATABASE_URL, timeout: process.env.PUNCTUAL_DB_STATEMENT_TIMEOUT_MS };
  beforeAll(() => {
    // The route uses the process-wide pool: point it at the frozen-able proxy (default statement timeout, 15 s).
    process.env.DATABASE_URL = frozenUrl;
    delete process.env.PUNCTUAL_DB_STATEMENT_TIMEOUT_MS;
    delete g.__punctualDb;
  });
  afterAll(async () => {
    proxy.resume();
    await g.__punctualDb?.close();
    delete g.__punctualDb;
    if (saved.url === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved.url;
    if (saved.timeout !== undefined) process.env.PUNCTUAL_DB_STATEMENT_TIMEOUT_MS = saved.timeout;
  });

  it('answers 200, then with PostgreSQL frozen 503 with the reason within its 2 s budget (it hung for 20 s+), then 200 again', async () => {
    const { GET } = await import('@/app/api/health/route');
    const ok = await GET();
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true, schema: 'current' });

    proxy.pause();
    try {
      for (let i = 0; i < 2; i++) {
        const r = await timed(GET());
        expect(r.ms).toBeGreaterThanOrEqual(1_950);
        expect(r.ms).toBeLessThan(2_600);
        expect(r.value!.status).toBe(503);
        expect(await r.value!.json()).toEqual({ ok: false, error: 'the database did not answer within 2 s (it may be overloaded, locked or unreachable)' });
      }
    } finally {
      proxy.resume();
    }
    await expect.poll(async () => (await GET()).status, { timeout: 10_000 }).toBe(200);
  });
});
