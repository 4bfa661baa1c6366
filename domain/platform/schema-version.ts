/**
 * Is the database's schema the one this build expects? (issue #13 part 7: readiness, and a worker that refuses to
 * start on a schema that is behind.)
 *
 * drizzle's migrator records each migration it applies in `drizzle.__drizzle_migrations` with `created_at` = the
 * journal entry's `when` (ms since the epoch, db/migrations/meta/_journal.json), and applies exactly the journal
 * entries whose `when` is later than the newest recorded `created_at` (drizzle-orm pg-core dialect `migrate`). This
 * module makes the same comparison, so "pending" here means "what `npm run migrate` would apply".
 *
 * A schema NEWER than this build (its newest applied migration is later than this build's newest journal entry) is
 * `ahead` and fine: during a deploy the new version migrates first while old web and worker processes still run
 * against it; migrations are written to be additive so the previous release keeps working (README "Running it in
 * production").
 */

/** One entry of drizzle's journal: the migration's file name without `.sql`, and its `when` (ms since the epoch). */
export interface JournalEntry {
  tag: string;
  when: number;
}

type SchemaStatus =
  /** Every migration of this build is applied, and nothing newer. */
  | { state: 'current' }
  /** Migrations of this build are not applied yet: `pending` are their tags, oldest first. */
  | { state: 'behind'; pending: string[] }
  /** The database carries migrations newer than this build (a newer version migrated it): fine. */
  | { state: 'ahead' };

/** The line that says what to do when the schema is behind (readiness answer, worker refusal). */
export const SCHEMA_BEHIND_MESSAGE = 'database schema is behind this version: run npm run migrate';

/**
 * Compares this build's journal with the newest applied migration.
 * @param journal this build's journal entries (any order).
 * @param lastAppliedWhen the newest `created_at` in `drizzle.__drizzle_migrations` (ms), or null when none is
 *   recorded (a database never migrated: everything is pending).
 */
export function schemaStatus(journal: readonly JournalEntry[], lastAppliedWhen: number | null): SchemaStatus {
  const sorted = [...journal].sort((a, b) => a.when - b.when);
  const pending = sorted.filter((e) => lastAppliedWhen === null || e.when > lastAppliedWhen).map((e) => e.tag);
  if (pending.length > 0) return { state: 'behind', pending };
  const newest = sorted.length ? sorted[sorted.length - 1].when : 0;
  return lastAppliedWhen !== null && lastAppliedWhen > newest ? { state: 'ahead' } : { state: 'current' };
}

/** {@link SCHEMA_BEHIND_MESSAGE} plus the pending migrations, e.g. "… (pending: 0019_bulk_actions, 0020_accounts)". */
export function schemaBehindLine(pending: readonly string[]): string {
  const shown = pending.length > 5 ? [...pending.slice(0, 5), `… ${pending.length - 5} more`] : pending;
  return `${SCHEMA_BEHIND_MESSAGE} (pending: ${shown.join(', ')})`;
}
