/**
 * Vitest global setup for the integration project: finds a PostgreSQL server (DATABASE_URL, else an
 * embedded one in .data/pg-test), creates one migrated template database for this run, and drops every
 * database this run created when it ends — a run leaves nothing behind.
 */
import type { TestProject } from 'vitest/node';
import postgres from 'postgres';
import { startEmbeddedPostgres, type EmbeddedPg } from '../../db/embedded';
import { migrateDatabase } from '../../db/migrate';
import { databaseUrl } from './urls';

declare module 'vitest' {
  export interface ProvidedContext {
    pgServerUrl: string;
    templateDb: string;
    runId: string;
  }
}

export default async function setup(project: TestProject) {
  let embedded: EmbeddedPg | undefined;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    embedded = await startEmbeddedPostgres({ dataDir: '.data/pg-test' });
    serverUrl = embedded.url;
  }
  const runId = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  const templateDb = `punctual_tpl_${runId}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${templateDb}"`);
  await migrateDatabase(databaseUrl(serverUrl, templateDb));
  project.provide('pgServerUrl', serverUrl);
  project.provide('templateDb', templateDb);
  project.provide('runId', runId);
  process.env.PUNCTUAL_TEST_PG_SERVER = serverUrl;

  return async () => {
    const dbs = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like ${`punctual_%${runId}%`}`;
    for (const { datname } of dbs) {
      await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    }
    await admin.end();
    await embedded?.stop();
  };
}
