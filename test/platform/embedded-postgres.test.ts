/**
 * The embedded PostgreSQL of `npm start` is not an open door (issue #12): random passwords per data folder in a
 * 0600 file, a Unix socket in the data folder instead of TCP, the app as a role that is not a superuser — and a data
 * folder made by an older version (superuser postgres/postgres, the app's tables in `postgres`) upgraded in place.
 * Starts its own servers (as `npm start` does: `unixSocket` and `app`), in a temporary folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '@/db/client';
import { APP_DATABASE, APP_ROLE, credentialsFileFor, runningAppUrl, startEmbeddedPostgres, type EmbeddedPg } from '@/db/embedded';
import { migrateDatabase } from '@/db/migrate';
import { connectionUrl, connectPostgres } from '@/db/url';
import { seedDemo } from '@/dev/seed';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'punctual-embedded-'));
const running: EmbeddedPg[] = [];
afterAll(async () => {
  for (const pg of running) await pg.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function start(dataDir: string, opts: { unixSocket?: boolean; app?: boolean } = { unixSocket: true, app: true }): Promise<EmbeddedPg> {
  const pg = await startEmbeddedPostgres({ dataDir, ...opts });
  running.push(pg);
  return pg;
}
async function stop(pg: EmbeddedPg) {
  await pg.stop();
  running.splice(running.indexOf(pg), 1);
}

/** The error (its SQLSTATE) of connecting as `user`/`password` to the server of `pg`, or 'connected'. */
async function tryLogin(pg: EmbeddedPg, user: string, password: string, database = 'postgres'): Promise<string> {
  const client = connectPostgres(connectionUrl({ user, password, database, port: pg.port, socketDir: pg.socketDir }), { max: 1, onnotice: () => {} });
  try {
    await client`select 1`;
    return 'connected';
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  } finally {
    await client.end({ timeout: 1 });
  }
}

/** Objects in the app database (outside the system schemas) that some role other than the app's owns. */
async function foreignOwned(url: string): Promise<string[]> {
  const client = connectPostgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await client<{ what: string }[]>`
      select 'relation ' || c.oid::regclass::text as what from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname !~ '^(pg_|information_schema)' and c.relowner <> ${APP_ROLE}::regrole
      union all select 'function ' || p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname !~ '^(pg_|information_schema)' and p.proowner <> ${APP_ROLE}::regrole
      union all select 'type ' || t.oid::regtype::text from pg_type t join pg_namespace n on n.oid = t.typnamespace
        where n.nspname !~ '^(pg_|information_schema)' and t.typowner <> ${APP_ROLE}::regrole
      union all select 'schema ' || nspname from pg_namespace
        where nspname !~ '^(pg_|information_schema)' and nspowner not in (${APP_ROLE}::regrole, 'pg_database_owner'::regrole)`;
    return rows.map((r) => r.what);
  } finally {
    await client.end({ timeout: 1 });
  }
}

describe('embedded PostgreSQL (npm start)', () => {
  it('a new data folder: 0600 credentials, Unix socket only, postgres/postgres refused, the app migrates and seeds as a non-superuser', async () => {
    const dataDir = path.join(tmp, 'fresh', 'pg');
    const pg = await start(dataDir);
    const file = credentialsFileFor(dataDir);
    expect(file).toBe(path.join(tmp, 'fresh', 'pg-credentials.json'));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const creds = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(creds.superuser.password).toMatch(/^[\w-]{43}$/);
    expect(creds.app).toMatchObject({ user: APP_ROLE, password: expect.stringMatching(/^[\w-]{43}$/) });

    expect(pg.socketDir).toBe(dataDir);
    expect(pg.appUrl).toContain(`?host=${encodeURIComponent(dataDir)}`);
    expect(await tryLogin(pg, 'postgres', 'postgres')).toBe('28P01');
    expect(await tryLogin(pg, APP_ROLE, 'postgres', APP_DATABASE)).toBe('28P01');
    // A CLI command finds the same URL from the running server's pid file and the credentials.
    expect(runningAppUrl(dataDir)).toBe(pg.appUrl);

    await migrateDatabase(pg.appUrl!);
    const h = createDb(pg.appUrl!, { max: 2 });
    try {
      const [me] = await h.db.execute<{ user: string; rolsuper: boolean; rolcreaterole: boolean; rolcreatedb: boolean; listen: string; db: string }>(
        sql`select current_user as user, rolsuper, rolcreaterole, rolcreatedb, current_setting('listen_addresses') as listen, current_database() as db
            from pg_roles where rolname = current_user`,
      );
      expect(me).toEqual({ user: APP_ROLE, rolsuper: false, rolcreaterole: false, rolcreatedb: false, listen: '', db: APP_DATABASE });
      // Reading a server file is a superuser's (or pg_read_server_files') privilege.
      await expect(h.sql`select pg_read_file('PG_VERSION')`).rejects.toMatchObject({ code: '42501' });
      const seeded = await seedDemo(h.db, new Date());
      // The demo's events were written as the app role (the count itself is test/dev/seed.test.ts's business).
      const [{ events: stored }] = await h.db.execute<{ events: number }>(sql`select count(*)::int as events from events`);
      expect(seeded.createdEvents).toBeGreaterThan(0);
      expect(stored).toBe(seeded.createdEvents);
      const [{ n }] = await h.db.execute<{ n: number }>(sql`select count(*)::int as n from graphile_worker.jobs`);
      expect(n).toBeGreaterThan(0);
    } finally {
      await h.close();
    }
    expect(await foreignOwned(pg.appUrl!)).toEqual([]);

    // A restart keeps the passwords (and so every URL handed out).
    const before = fs.readFileSync(file, 'utf8');
    await stop(pg);
    const again = await start(dataDir);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect(again.appUrl).toBe(pg.appUrl);
    expect(await tryLogin(again, APP_ROLE, creds.app.password, APP_DATABASE)).toBe('connected');
    await stop(again);
  });

  it('a data folder made by an older version (postgres/postgres, data in "postgres") is upgraded in place on its first start', async () => {
    const dataDir = path.join(tmp, 'old', 'pg');
    // What older versions left: the superuser's password `postgres`, no credentials file, the app's tables (made by
    // the superuser) in the `postgres` database, reached over 127.0.0.1.
    const made = await start(dataDir, {});
    expect(await tryLogin(made, 'postgres', JSON.parse(fs.readFileSync(credentialsFileFor(dataDir), 'utf8')).superuser.password)).toBe('connected');
    const admin = connectPostgres(made.url, { max: 1, onnotice: () => {} });
    await admin`alter role postgres with password 'postgres'`;
    await admin.end();
    fs.rmSync(credentialsFileFor(dataDir));
    const legacyUrl = `postgres://postgres:postgres@127.0.0.1:${made.port}/postgres`;
    await migrateDatabase(legacyUrl);
    const old = createDb(legacyUrl, { max: 1 });
    await seedDemo(old.db, new Date());
    const [{ events: eventsBefore }] = await old.db.execute<{ events: number }>(sql`select count(*)::int as events from events`);
    await old.close();
    await stop(made);

    const pg = await start(dataDir);
    expect(fs.statSync(credentialsFileFor(dataDir)).mode & 0o777).toBe(0o600);
    expect(await tryLogin(pg, 'postgres', 'postgres')).toBe('28P01');
    // The data is where the app now looks, owned by the app's role, and the app keeps working there.
    expect(await foreignOwned(pg.appUrl!)).toEqual([]);
    await migrateDatabase(pg.appUrl!);
    const h = createDb(pg.appUrl!, { max: 1 });
    try {
      const [{ events, rolsuper }] = await h.db.execute<{ events: number; rolsuper: boolean }>(
        sql`select (select count(*)::int from events) as events, rolsuper from pg_roles where rolname = current_user`,
      );
      expect({ events, rolsuper }).toEqual({ events: eventsBefore, rolsuper: false });
      expect((await seedDemo(h.db, new Date())).createdTenant).toBe(false);
      // Owner's rights: a later migration may alter the old tables and graphile-worker's functions run.
      await h.db.execute(sql`alter table events add column upgrade_probe int`);
      await h.db.execute(sql`alter table events drop column upgrade_probe`);
      await h.db.execute(sql`select graphile_worker.add_job('upgrade-probe', '{}'::json)`);
    } finally {
      await h.close();
    }
    // Tools still find an (empty) `postgres` database.
    expect(await tryLogin(pg, 'postgres', JSON.parse(fs.readFileSync(credentialsFileFor(dataDir), 'utf8')).superuser.password, 'postgres')).toBe('connected');
    await stop(pg);
  });
});
