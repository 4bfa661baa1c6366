/**
 * The benchmark's PostgreSQL: an embedded server of its own (db/embedded.ts, data in `.data/pg-bench`) or,
 * with DATABASE_URL set, that server. Either way it works in throwaway databases only: one template database
 * migrated once (`punctual_bench_<run>_tpl`), and a fresh copy of it per section (`CREATE DATABASE … TEMPLATE`,
 * a file copy: no migration per section), each dropped when the section ends.
 *
 * PostgreSQL CPU time (ms, user + system), see {@link PgCpuMeter}:
 *  - embedded server: the whole postmaster process tree (backends, WAL writer, checkpointer, autovacuum…):
 *    postmaster utime+stime+cutime+cstime plus every live child's utime+stime, before and after;
 *  - DATABASE_URL's server (shared with others): only the backends connected to the section's database, found
 *    in `pg_stat_activity` and read from /proc/<pid>/stat every second during the run (a backend that ends
 *    between two samples loses at most its last second; server-wide processes such as the WAL writer are not
 *    counted). Needs the server on this machine (same /proc); elsewhere the figure is null.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import postgres from 'postgres';
import { startEmbeddedPostgres, type EmbeddedPg } from '@/db/embedded';
import { migrateDatabase } from '@/db/migrate';
import { root } from '@/scripts/lib';
import { cpuMs, treeCpuMs } from './proc';
import fs from 'node:fs';

export interface BenchServer {
  kind: 'embedded' | 'external';
  /** URL of the server's maintenance database. */
  adminUrl: string;
  /** Postmaster pid (embedded only). */
  postmasterPid: number | null;
  /** Creates a fresh, migrated database for one section; returns its URL and a drop function. */
  freshDatabase(label: string): Promise<{ url: string; name: string; drop(): Promise<void> }>;
  close(): Promise<void>;
}

function withDb(server: string, name: string): string {
  const u = new URL(server);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Starts or connects to the server and migrates the template database. */
export async function openServer(log: (m: string) => void): Promise<BenchServer> {
  let pg: EmbeddedPg | undefined;
  let adminUrl = process.env.DATABASE_URL;
  let postmasterPid: number | null = null;
  const dataDir = path.join(root, '.data', 'pg-bench');
  if (!adminUrl) {
    pg = await startEmbeddedPostgres({ dataDir, log });
    adminUrl = pg.url;
    postmasterPid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  }
  const run = randomBytes(3).toString('hex');
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const tpl = `punctual_bench_${run}_tpl`;
  await admin.unsafe(`create database "${tpl}"`);
  const t0 = Date.now();
  await migrateDatabase(withDb(adminUrl, tpl));
  log(`template database migrated in ${Date.now() - t0} ms`);
  let n = 0;
  const made = new Set<string>();
  return {
    kind: pg ? 'embedded' : 'external',
    adminUrl,
    postmasterPid,
    async freshDatabase(label) {
      const name = `punctual_bench_${run}_${++n}_${label.replace(/\W/g, '')}`.slice(0, 63);
      await admin.unsafe(`create database "${name}" template "${tpl}"`);
      made.add(name);
      return {
        url: withDb(adminUrl!, name),
        name,
        async drop() {
          await admin.unsafe(`drop database if exists "${name}" with (force)`);
          made.delete(name);
        },
      };
    },
    async close() {
      for (const name of [...made, tpl]) await admin.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
      await admin.end({ timeout: 5 });
      await pg?.stop();
    },
  };
}

/**
 * Measures PostgreSQL CPU ms between `start()` and `stop()` (method in the module comment). `stop()` returns
 * null when the server's processes cannot be read.
 */
export class PgCpuMeter {
  private base = 0;
  private seen = new Map<number, { first: number; last: number }>();
  private timer?: NodeJS.Timeout;
  private sql?: postgres.Sql;
  /** `backendsOnly`: count only the backends connected to `dbName`, even on the embedded server (the idle section). */
  constructor(
    private server: BenchServer,
    private dbName: string,
    private opts: { backendsOnly?: boolean } = {},
  ) {}
  private get wholeTree() {
    return !!this.server.postmasterPid && !this.opts.backendsOnly;
  }

  private async sample(): Promise<void> {
    if (!this.sql) return;
    const rows = await this.sql<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${this.dbName}`.catch(() => []);
    for (const { pid } of rows) {
      const c = cpuMs(pid);
      if (c === null) continue;
      const s = this.seen.get(pid);
      if (s) s.last = c;
      else this.seen.set(pid, { first: this.started ? 0 : c, last: c });
    }
  }
  private started = false;

  async start(): Promise<void> {
    if (this.wholeTree) {
      this.base = treeCpuMs(this.server.postmasterPid!) ?? NaN;
      return;
    }
    this.sql = postgres(this.server.adminUrl, { max: 1, onnotice: () => {} });
    await this.sample();
    this.started = true;
    this.timer = setInterval(() => void this.sample(), 1000);
  }

  async stop(): Promise<number | null> {
    if (this.wholeTree) {
      const now = treeCpuMs(this.server.postmasterPid!);
      return now === null || Number.isNaN(this.base) ? null : now - this.base;
    }
    clearInterval(this.timer);
    await this.sample();
    await this.sql?.end({ timeout: 2 });
    if (this.seen.size === 0) return null;
    let total = 0;
    for (const s of this.seen.values()) total += s.last - s.first;
    return total;
  }
}
