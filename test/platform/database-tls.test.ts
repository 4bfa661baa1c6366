/**
 * Issue #13 part 7, TLS to PostgreSQL: DATABASE_URL's sslmode is honoured the same way by every connection the app
 * makes — postgres.js (db/client.ts createDb: web, worker, drizzle's migrator) and `pg` (graphile-worker's queue and
 * runMigrations) — with libpq's meanings (db/url.ts tlsFromUrl). Against the machine's plain-text PostgreSQL,
 * sslmode=require FAILS with a clear error (never a silent plain-text connection); against a TLS endpoint
 * (test/support/tls-pg-proxy.ts, a self-signed certificate made with openssl) require connects over TLS,
 * verify-full checks chain and host name, verify-ca the chain only.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { describeConnectionError, pgPoolConfig, tlsFromUrl } from '@/db/url';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { startTlsPgProxy, type TlsPgProxy } from '@/test/support/tls-pg-proxy';

const root = path.resolve(import.meta.dirname, '../..');
let t: TestDatabase;
let dir: string;
let good: TlsPgProxy; // certificate for localhost
let other: TlsPgProxy; // certificate for db.example.test
let certFile: string;
let otherCertFile: string;

function selfSigned(name: string): { cert: string; key: string; file: string } {
  const key = path.join(dir, `${name}.key`);
  const file = path.join(dir, `${name}.crt`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', file, '-days', '1', '-subj', `/CN=${name}`, '-addext', `subjectAltName=DNS:${name}`], { stdio: 'ignore' });
  return { cert: fs.readFileSync(file, 'utf8'), key: fs.readFileSync(key, 'utf8'), file };
}

beforeAll(async () => {
  t = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'punctual-tls-'));
  const u = new URL(t.url);
  const target = { host: u.hostname, port: Number(u.port || 5432) };
  const a = selfSigned('localhost');
  const b = selfSigned('db.example.test');
  certFile = a.file;
  otherCertFile = b.file;
  good = await startTlsPgProxy(target, a);
  other = await startTlsPgProxy(target, b);
});
afterAll(async () => {
  await good?.close();
  await other?.close();
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const withParams = (url: string, params: Record<string, string>) => {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
};

/** Both drivers' answer to `select 1` over `url`: 'ok' or the error message. */
async function tryBoth(url: string): Promise<{ postgresJs: string; pg: string }> {
  const h = createDb(url, { max: 1 });
  const postgresJs = await h.db
    .execute(sql`select 1`)
    .then(() => 'ok')
    .catch((e: Error) => describeConnectionError(e.cause instanceof Error ? e.cause : e, url));
  await h.close().catch(() => {});
  const pool = new pg.Pool(pgPoolConfig(url, { max: 1, connectionTimeoutMillis: 10_000 }));
  pool.on('error', () => {});
  const viaPg = await pool
    .query('select 1')
    .then(() => 'ok')
    .catch((e: Error) => describeConnectionError(e, url));
  await pool.end();
  return { postgresJs, pg: viaPg };
}

describe('tlsFromUrl', () => {
  it('takes libpq’s parameters out of the URL and refuses modes that may fall back to plain text', () => {
    const r = tlsFromUrl('postgres://u@db.example:5432/app?sslmode=require&application_name=x', {});
    expect(r.url).toBe('postgres://u@db.example:5432/app?application_name=x');
    expect(r.ssl).toEqual({ rejectUnauthorized: false });
    expect(tlsFromUrl('postgres://u@h/app', {}).ssl).toBe(false);
    expect(tlsFromUrl('postgres://u@h/app', { PGSSLMODE: 'verify-full' }).ssl).toEqual({ rejectUnauthorized: true });
    expect(tlsFromUrl('postgres://u@h/app?sslmode=disable', { PGSSLMODE: 'require' }).ssl).toBe(false);
    expect(() => tlsFromUrl('postgres://u@h/app?sslmode=prefer', {})).toThrow('DATABASE_URL: sslmode=prefer (TLS only when the server offers it) is not supported');
    expect(() => tlsFromUrl('postgres://u@h/app?sslmode=on', {})).toThrow('DATABASE_URL: sslmode=on is not one of disable, require, verify-ca, verify-full');
    expect(() => tlsFromUrl('postgres://u@h/app?sslmode=verify-full&sslrootcert=/nonexistent.crt', {})).toThrow('DATABASE_URL: sslrootcert=/nonexistent.crt cannot be read (ENOENT)');
  });
});

describe('against the machine’s PostgreSQL, which does not offer TLS', () => {
  it('sslmode=require and verify-full fail in both drivers, saying so; disable connects', async () => {
    for (const mode of ['require', 'verify-full']) {
      const r = await tryBoth(withParams(t.url, { sslmode: mode }));
      expect(r.postgresJs).toContain(`the database server does not accept TLS connections, and DATABASE_URL asks for sslmode=${mode}`);
      expect(r.pg).toContain(`the database server does not accept TLS connections, and DATABASE_URL asks for sslmode=${mode}`);
    }
    expect(await tryBoth(withParams(t.url, { sslmode: 'disable' }))).toEqual({ postgresJs: 'ok', pg: 'ok' });
    await expect(migrateDatabase(withParams(t.url, { sslmode: 'require' }))).rejects.toThrow();
  });

  it('the worker refuses to start: exit 4 and a line naming the cause', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'worker.ts')], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: withParams(t.url, { sslmode: 'require' }), SMTP_URL: 'smtp://127.0.0.1:1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    expect(await new Promise((r) => child.once('exit', r))).toBe(4);
    expect(out).toContain('the database server does not accept TLS connections, and DATABASE_URL asks for sslmode=require');
  });
});

describe('against a TLS endpoint with a self-signed certificate', () => {
  it('require: both drivers connect over TLS without checking the certificate', async () => {
    const before = good.tlsSessions();
    expect(await tryBoth(good.urlFor(withParams(t.url, { sslmode: 'require' })))).toEqual({ postgresJs: 'ok', pg: 'ok' });
    expect(good.tlsSessions() - before).toBe(2);
  });

  it('verify-full: refused without the CA, accepted with sslrootcert, refused when the certificate names another host', async () => {
    const refused = await tryBoth(good.urlFor(withParams(t.url, { sslmode: 'verify-full' })));
    expect(refused.postgresJs).toMatch(/self[- ]signed certificate/);
    expect(refused.pg).toMatch(/self[- ]signed certificate/);
    expect(await tryBoth(good.urlFor(withParams(t.url, { sslmode: 'verify-full', sslrootcert: certFile })))).toEqual({ postgresJs: 'ok', pg: 'ok' });
    const wrongHost = await tryBoth(other.urlFor(withParams(t.url, { sslmode: 'verify-full', sslrootcert: otherCertFile })));
    expect(wrongHost.postgresJs).toContain("Hostname/IP does not match certificate's altnames");
    expect(wrongHost.pg).toContain("Hostname/IP does not match certificate's altnames");
  });

  it('verify-ca: the chain is checked, the host name is not', async () => {
    expect(await tryBoth(other.urlFor(withParams(t.url, { sslmode: 'verify-ca', sslrootcert: otherCertFile })))).toEqual({ postgresJs: 'ok', pg: 'ok' });
    const noCa = await tryBoth(other.urlFor(withParams(t.url, { sslmode: 'verify-ca' })));
    expect(noCa.postgresJs).toMatch(/self[- ]signed certificate/);
    expect(noCa.pg).toMatch(/self[- ]signed certificate/);
  });

  it('npm run migrate’s code path (drizzle’s migrator and graphile-worker’s) runs over TLS', async () => {
    const before = good.tlsSessions();
    await migrateDatabase(good.urlFor(withParams(t.url, { sslmode: 'verify-full', sslrootcert: certFile })));
    expect(good.tlsSessions() - before).toBeGreaterThanOrEqual(2);
  });
});
