/**
 * This build's migration journal (db/migrations/meta/_journal.json): imported, so the web build and the worker carry
 * the list of migrations they were made with — what readiness and the worker's start check compare the database
 * with (domain/platform/schema-version.ts).
 */
import journal from '@/db/migrations/meta/_journal.json';
import type { JournalEntry } from '@/domain/platform/schema-version';

/** The journal entries of this build, in journal order. */
export const buildJournal: readonly JournalEntry[] = journal.entries.map((e) => ({ tag: e.tag, when: e.when }));
