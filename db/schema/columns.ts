/**
 * Column helpers shared by the schema files (not re-exported from db/schema/index.ts): every instant is a
 * `timestamptz` read as a JS `Date` (a UTC instant), and `created_at` defaults to the database's now().
 * Part of the Drizzle schema; relative imports only, drizzle-kit loads it.
 */
import { timestamp } from 'drizzle-orm/pg-core';

/** A `timestamptz` column named `name`, mapped to `Date`. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
/** `created_at timestamptz not null default now()`. */
export const createdAt = () => ts('created_at').notNull().defaultNow();
