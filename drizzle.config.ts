import { defineConfig } from 'drizzle-kit';

/** drizzle-kit generates SQL migrations from db/schema.ts into db/migrations (committed, never edited). */
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema.ts',
  out: './db/migrations',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
});
