/**
 * Vitest global setup for the integration project: finds a PostgreSQL server (DATABASE_URL, else an embedded
 * one in a throwaway data folder `.data/pg-test-<run id>` on a free port), creates one migrated template
 * database for this run, and at the end drops every database this run created, stops the embedded server and
 * removes its data folder — a run leaves nothing behind, and two runs at once (even in one checkout) share no
 * folder, port or database. Data folders of embedded servers left by runs that were killed (their postmaster
 * no longer alive) are removed at the next start, as is `.data/pg-test` of earlier versions, which kept one
 * 150 MB folder for good.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import postgres from 'postgres';
import { credentialsFileFor, startEmbeddedPostgres, type EmbeddedPg } from '@/db/embedded';
import { migrateDatabase } from '@/db/migrate';
import { databaseUrl } from './urls';

declare module 'vitest' {
  export interface ProvidedContext {
    pgServerUrl: string;
    templateDb: string;
    runId: string;
  }
}

const dataRoot = path.resolve(import.meta.dirname, '..', '..', '.data');

/** Whether the embedded server of data folder `dir` may still be running (a live pid in its postmaster.pid). */
function serverMayRun(dir: string): boolean {
  try {
    const pid = Number(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // No pid file: not running. EPERM: alive, owned by another user (the `postgres` user when run as root).
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes test data folders (`.data/pg-test`, `.data/pg-test-*`) whose server is not running. */
function removeStaleTestFolders(): void {
  let names: string[];
  try {
    names = fs.readdirSync(dataRoot);
  } catch {
    return;
  }
  for (const name of names) {
    if (name !== 'pg-test' && !name.startsWith('pg-test-')) continue;
    // A folder's credentials file (db/embedded.ts credentialsFileFor: `<folder>-credentials.json`) goes with it.
    const dir = path.join(dataRoot, name.replace(/-credentials\.json$/, ''));
    if (!serverMayRun(dir)) {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(credentialsFileFor(dir), { force: true });
    }
  }
}

export default async function setup(project: TestProject) {
  const runId = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  let embedded: EmbeddedPg | undefined;
  let embeddedDir: string | undefined;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    removeStaleTestFolders();
    embeddedDir = path.join(dataRoot, `pg-test-${runId}`);
    embedded = await startEmbeddedPostgres({ dataDir: embeddedDir });
    serverUrl = embedded.url;
  }
  const templateDb = `punctual_tpl_${runId}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${templateDb}"`);
  await migrateDatabase(databaseUrl(serverUrl, templateDb));
  project.provide('pgServerUrl', serverUrl);
  project.provide('templateDb', templateDb);
  project.provide('runId', runId);
  process.env.PUNCTUAL_TEST_PG_SERVER = serverUrl;

  return async () => {
    try {
      const dbs = await admin<{ datname: string }[]>`
        select datname from pg_database where datname like ${`punctual_%${runId}%`}`;
      for (const { datname } of dbs) {
        await admin.unsafe(`drop database if exists "${datname}" with (force)`);
      }
      await admin.end();
    } finally {
      await embedded?.stop();
      if (embeddedDir) {
        fs.rmSync(embeddedDir, { recursive: true, force: true });
        fs.rmSync(credentialsFileFor(embeddedDir), { force: true });
      }
    }
  };
}
