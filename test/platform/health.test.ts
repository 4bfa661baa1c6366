/**
 * Issue #13 part 7, liveness vs readiness: `/api/health/live` answers without a database; `/api/health/ready` (and
 * its alias `/api/health`) is 503 naming the fix when the database lacks a migration of this build, 200 on a schema
 * that is current or NEWER (an old web process during a deploy), 503 while shutting down. The worker refuses to
 * start on a schema that is behind (exit 3, naming the fix) and answers `/live` and `/ready` on
 * PUNCTUAL_WORKER_HEALTH_PORT.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildJournal } from '@/db/journal';
import { startMailCatcher, type MailCatcher } from '@/dev/mail-catcher';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { spawnWorker, waitFor, type WorkerProcess } from '@/test/support/processes';
import { databaseUrl } from '@/test/support/urls';

const root = path.resolve(import.meta.dirname, '../..');
const g = globalThis as { __punctualDb?: { close(): Promise<void> }; __punctualShuttingDown?: boolean };
const saved = process.env.DATABASE_URL;
const newest = [...buildJournal].sort((a, b) => b.when - a.when)[0];

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await g.__punctualDb?.close();
  delete g.__punctualDb;
  if (saved === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = saved;
  await t?.close();
});

/** Points the web routes' process-wide pool at `url`. */
async function useDatabase(url: string) {
  await g.__punctualDb?.close();
  delete g.__punctualDb;
  process.env.DATABASE_URL = url;
}

/** Removes the newest migration's record (as if this build's last migration had not run); returns a restore function. */
async function forgetNewestMigration() {
  const [row] = await t.sql<{ id: number; hash: string; created_at: string }[]>`
    delete from drizzle.__drizzle_migrations where created_at = ${newest.when} returning id, hash, created_at`;
  expect(row).toBeDefined();
  return () => t.sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${row.id}, ${row.hash}, ${row.created_at})`;
}

describe('web: /api/health/live', () => {
  it('is 200 with no database at all, at once', async () => {
    await useDatabase('postgres://nobody@127.0.0.1:1/nothing');
    const { GET } = await import('@/app/api/health/live/route');
    const t0 = Date.now();
    const r = GET();
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ ok: true });
    expect(Date.now() - t0).toBeLessThan(1_000); // no database round trip (generous: the machine may be busy)
    // …while readiness, against the same missing database, is 503.
    const ready = await (await import('@/app/api/health/ready/route')).GET();
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ ok: false, error: 'database unavailable' });
  });
});

describe('web: /api/health/ready and /api/health', () => {
  afterEach(() => {
    delete g.__punctualShuttingDown;
  });

  it('200 current; 503 naming `npm run migrate` with a migration missing; 200 "ahead" on a newer schema; 503 shutting down', async () => {
    await useDatabase(t.url);
    const ready = (await import('@/app/api/health/ready/route')).GET;
    const alias = (await import('@/app/api/health/route')).GET;
    for (const GET of [ready, alias]) {
      const r = await GET();
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ ok: true, schema: 'current' });
    }

    const restore = await forgetNewestMigration();
    try {
      for (const GET of [ready, alias]) {
        const r = await GET();
        expect(r.status).toBe(503);
        expect(await r.json()).toEqual({ ok: false, error: `database schema is behind this version: run npm run migrate (pending: ${newest.tag})` });
      }
    } finally {
      await restore();
    }

    // A newer version migrated the database (this one is the old web process during a deploy): still ready.
    await t.sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-version', ${newest.when + 60_000})`;
    try {
      const r = await ready();
      expect(r.status).toBe(200);
      expect(await r.json()).toMatchObject({ ok: true, schema: 'ahead' });
    } finally {
      await t.sql`delete from drizzle.__drizzle_migrations where hash = 'from-a-newer-version'`;
    }

    // After SIGTERM (server/platform/web-shutdown.ts marks it): not ready, so a proxy drains this process; live stays 200.
    g.__punctualShuttingDown = true;
    const r = await ready();
    expect(r.status).toBe(503);
    expect(await r.json()).toEqual({ ok: false, error: 'shutting down' });
    expect((await import('@/app/api/health/live/route')).GET().status).toBe(200);
  });
});

describe('a database `npm run migrate` never ran on', () => {
  it('ready is 503 listing every migration, oldest first; the worker refuses with exit 3', async () => {
    const server = inject('pgServerUrl');
    const name = `punctual_t_${inject('runId')}_empty_${Date.now().toString(36)}`;
    const admin = postgres(server, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    await admin.end();
    const url = databaseUrl(server, name);
    await useDatabase(url);
    const r = await (await import('@/app/api/health/ready/route')).GET();
    expect(r.status).toBe(503);
    const first = [...buildJournal].sort((a, b) => a.when - b.when)[0];
    expect((await r.json()).error).toMatch(new RegExp(`^database schema is behind this version: run npm run migrate \\(pending: ${first.tag}, `));
    const w = await runWorker(url);
    expect(w.code).toBe(3);
    expect(w.out).toContain(`database schema is behind this version: run npm run migrate (pending: ${first.tag}, `);
  });
});

/** Runs scripts/worker.ts against `url` until it exits (for the refusals). */
async function runWorker(url: string): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'worker.ts')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, SMTP_URL: 'smtp://127.0.0.1:1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (b) => (out += b));
  child.stderr.on('data', (b) => (out += b));
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  return { code, out };
}

describe('worker', () => {
  const workers: WorkerProcess[] = [];
  const catchers: MailCatcher[] = [];
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    await Promise.all(catchers.splice(0).map((c) => c.close()));
  });

  it('refuses to start while a migration is pending: exit 3 and a line naming `npm run migrate`', async () => {
    const restore = await forgetNewestMigration();
    try {
      const { code, out } = await runWorker(t.url);
      expect(code).toBe(3);
      expect(out).toContain(`database schema is behind this version: run npm run migrate (pending: ${newest.tag})`);
      expect(out).not.toContain('"msg":"running"');
    } finally {
      await restore();
    }
  });

  it('answers /live and /ready on PUNCTUAL_WORKER_HEALTH_PORT; /ready is 503 from SIGTERM until it exits', async () => {
    const catcher = await startMailCatcher({ db: t.db });
    catchers.push(catcher);
    const port = await freePort();
    const w = spawnWorker({ DATABASE_URL: t.url, SMTP_URL: catcher.url, PUNCTUAL_WORKER_HEALTH_PORT: `127.0.0.1:${port}` });
    workers.push(w);
    await w.ready;
    const get = (p: string) => fetch(`http://127.0.0.1:${port}${p}`);
    const live = await get('/live');
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ ok: true });
    const ready = await get('/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, schema: 'current' });
    expect((await get('/other')).status).toBe(404);
    // Stopping: readiness turns 503 (the health server answers until the process exits).
    const exited = new Promise<number | null>((r) => w.child.once('exit', (c) => r(c)));
    w.child.kill('SIGTERM');
    let sawStopping = false;
    await waitFor(
      async () => {
        const r = await get('/ready').catch(() => undefined);
        if (r?.status === 503 && (await r.json()).error === 'shutting down') sawStopping = true;
        return sawStopping || w.child.exitCode !== null;
      },
      10_000,
      () => w.output(),
    );
    expect(await exited).toBe(0);
    expect(w.output()).toContain('stopped: in-flight work finished');
    // The stop can be quicker than one poll on an idle worker; when it was seen, it said why.
    if (!sawStopping) console.log('worker stopped before /ready was polled during the stop');
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
