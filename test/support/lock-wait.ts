/**
 * Waiting for PostgreSQL to block a statement on a lock, instead of sleeping and hoping it has: polls
 * `pg_stat_activity` of the test's database until at least `count` backends wait on a heavyweight lock
 * (`wait_event_type = 'Lock'`: a row, tuple, transaction id or relation lock). Tests that prove "the second writer
 * waits for the first" use it before they release the first, so they neither flake on a busy machine (the
 * statement had not reached the lock yet) nor waste a fixed pause on a quiet one.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/**
 * Resolves once `count` (default 1) backends of the current database wait on a lock; polls every 10 ms.
 * @throws after `timeoutMs` (default 10 000) with how many were waiting.
 */
export async function waitForLockWaiters(db: DbOrTx, count = 1, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = (await db.execute(
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    )) as unknown as { n: number }[];
    const n = rows[0]?.n ?? 0;
    if (n >= count) return;
    if (Date.now() > until) throw new Error(`waited ${timeoutMs} ms for ${count} backend(s) to wait on a lock; ${n} did`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
