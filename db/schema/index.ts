/**
 * Drizzle schema: the single source of the database shape, one file per capability in this folder, all
 * re-exported here (`@/db/schema`). camelCase keys map to snake_case columns (`casing: 'snake_case'` is NOT
 * used; every column names itself so migrations read plainly). Migrations in db/migrations are generated from
 * this schema with `npm run db:generate` (drizzle.config.ts points at this file) and never edited.
 *
 * Every tenant-owned table carries `tenant_id`; every query in db/queries filters on it (invariant 9).
 * Instants are `timestamptz` (UTC instants); local wall-clock times only exist together with an IANA zone.
 * Schema files use relative imports only: drizzle-kit loads them without the `@/` alias.
 */
export * from './enums';
export * from './organisations';
export * from './scheduling';
export * from './rules';
export * from './sending';
export * from './suppressions';
export * from './reports';
export * from './alerts';
export * from './notifications';
export * from './platform';
export * from './dev';
export * from './accounts';
export * from './messages';
export * from './calendar';
