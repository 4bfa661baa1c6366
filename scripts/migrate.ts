/** `npm run migrate`: applies migrations to DATABASE_URL (idempotent). */
import { migrateDatabase } from '../db/migrate';
import { requireDatabaseUrl } from './lib';

await migrateDatabase(requireDatabaseUrl());
console.log('migrated');
