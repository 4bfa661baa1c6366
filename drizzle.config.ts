import { defineConfig } from 'drizzle-kit';

/** drizzle-kit generates SQL migrations from the schema (db/schema/index.ts re-exports every file) into db/migrations (committed, never edited). */
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema/index.ts',
  out: './db/migrations',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
});
