/** `npm run migrate`: applies migrations to DATABASE_URL (idempotent). */
import { migrateDatabase } from '../db/migrate';
import { requireEnv } from './lib';

await migrateDatabase(requireEnv('DATABASE_URL', 'set it to the database to migrate'));
console.log('migrated');
