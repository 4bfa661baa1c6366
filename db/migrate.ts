/**
 * Applies drizzle's SQL migrations (db/migrations) and graphile-worker's own schema. Idempotent: both
 * record what they applied, and a session advisory lock serialises concurrent callers (two `npm start`s,
 * test setup racing a worker).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { Logger, runMigrations } from 'graphile-worker';
import pg from 'pg';
import { createDb } from './client';
import { pgPoolConfig } from './url';

const here = path.dirname(fileURLToPath(import.meta.url));
const migrationsFolder = path.join(here, 'migrations');
const MIGRATION_LOCK = 727_401;

/** Brings the database at `url` to the current schema. @throws on any SQL error (nothing half-applied: each migration is transactional). */
export async function migrateDatabase(url: string): Promise<void> {
  const handle = createDb(url, { max: 1 });
  try {
    await handle.sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    try {
      await migrate(handle.db, { migrationsFolder });
      // graphile-worker's own schema, over a `pg` pool with the same TLS as ours (db/url.ts).
      const pgPool = new pg.Pool(pgPoolConfig(url, { max: 1 }));
      // A connection lost while idle: the next query reports it (graphile-worker wants both handlers).
      pgPool.on('error', () => {});
      pgPool.on('connect', (client) => client.on('error', () => {}));
      try {
        await runMigrations({ pgPool, logger: quietLogger() });
      } finally {
        await pgPool.end();
      }
    } finally {
      await handle.sql`select pg_advisory_unlock(${MIGRATION_LOCK})`;
    }
  } finally {
    await handle.close();
  }
}

/** graphile-worker logger that keeps only warnings and errors. */
export function quietLogger(): Logger {
  return new Logger(() => (level: string, message: string) => {
    if (level === 'error' || level === 'warning') console.error(`[worker:${level}] ${message}`);
  });
}
