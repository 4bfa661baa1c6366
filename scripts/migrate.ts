/** `npm run migrate`: applies migrations to DATABASE_URL (idempotent). Exit 1 with a line saying why when it cannot. */
import { migrateDatabase } from '@/db/migrate';
import { describeConnectionError, redactedUrl } from '@/db/url';
import { requireDatabaseUrl } from './lib';

const url = requireDatabaseUrl();
try {
  await migrateDatabase(url);
} catch (e) {
  // A failed statement arrives wrapped by drizzle ("Failed query: …"); the database's own words are its cause.
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause : e;
  console.error(`migrate failed (${redactedUrl(url)}): ${describeConnectionError(cause, url)}`);
  process.exit(1);
}
console.log('migrated');
